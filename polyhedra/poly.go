package polyhedra

import (
	"bytes"
	"math"
	"math/big"
	"slices"
	"sync"
)

// A poly is a polynomial with exact rational coefficients over the columns
// of a bset: parameters, dimensions and divs (the latter make it a
// quasi-polynomial once only parameters and divs are left).
type poly struct {
	terms []term // sorted by exp, no zero coefficients
}

// A term is c times the product of column^exp[column]. exp[0] (the
// constant column) is always 0 and trailing zeros are trimmed, so equal
// monomials have equal exp slices.
type term struct {
	exp []uint8
	c   *big.Rat
}

func polyConst(c *big.Rat) *poly {
	if c.Sign() == 0 {
		return &poly{}
	}
	return &poly{terms: []term{{nil, c}}}
}

func polyInt(v int64) *poly { return polyConst(newRat(v, 1)) }

// polyFromRow returns the affine polynomial row[0] + sum row[j]*x_j.
// Its terms are made in the order normalize keeps (the constant, then
// the columns from the last), with small coefficients shared and the
// exponents in one buffer: substitutions make one for every row they
// rewrite.
func polyFromRow(row []int64) *poly {
	n := 0
	for _, v := range row {
		if v != 0 {
			n++
		}
	}
	p := &poly{terms: make([]term, 0, n)}
	if row[0] != 0 {
		p.terms = append(p.terms, term{nil, newRat(row[0], 1)})
	}
	flat := make([]uint8, 0, n*len(row))
	for j := len(row) - 1; j >= 1; j-- {
		if row[j] != 0 {
			start := len(flat)
			flat = append(flat, make([]uint8, j+1)...)
			e := flat[start : start+j+1 : start+j+1]
			e[j] = 1
			p.terms = append(p.terms, term{e, newRat(row[j], 1)})
		}
	}
	return p
}

func (p *poly) clone() *poly {
	if p == nil {
		return nil
	}
	q := &poly{terms: make([]term, len(p.terms))}
	copy(q.terms, p.terms) // exps and coefficients are never mutated in place
	return q
}

func (p *poly) isZero() bool { return len(p.terms) == 0 }

// degree returns the total degree of p, 0 for a constant or zero.
func (p *poly) degree() int {
	deg := 0
	for _, t := range p.terms {
		k := 0
		for _, e := range t.exp {
			k += int(e)
		}
		deg = max(deg, k)
	}
	return deg
}

func (p *poly) usesCol(col int) bool {
	if p == nil {
		return false
	}
	for _, t := range p.terms {
		if col < len(t.exp) && t.exp[col] != 0 {
			return true
		}
	}
	return false
}

func compareExp(a, b []uint8) int { return bytes.Compare(a, b) }

// normalize sorts the terms, merges equal monomials and drops zeros.
func (p *poly) normalize() {
	for i := range p.terms {
		p.terms[i].exp = trimExp(p.terms[i].exp)
	}
	slices.SortStableFunc(p.terms, func(a, b term) int { return compareExp(a.exp, b.exp) })
	out := p.terms[:0]
	for i := 0; i < len(p.terms); {
		j := i + 1
		for j < len(p.terms) && compareExp(p.terms[i].exp, p.terms[j].exp) == 0 {
			j++
		}
		t := p.terms[i]
		if j > i+1 {
			t.c = sumRats(p.terms[i:j])
		}
		out = append(out, t)
		i = j
	}
	nz := out[:0]
	for _, t := range out {
		if t.c.Sign() != 0 {
			nz = append(nz, t)
		}
	}
	p.terms = nz
}

// The coefficients of counted polynomials are small fractions (3/2,
// 5/6), and adding and multiplying them as big.Rat took a third of the
// time of simplifying a count: each operation allocates and reduces by a
// big gcd. smallRat, sumRats and mulRat compute with int64 fractions
// where every value fits and fall back to big.Rat where one does not.

// smallRat returns x as a reduced fraction of int64s, if it is one.
func smallRat(x *big.Rat) (n, d int64, ok bool) {
	a, b := x.Num(), x.Denom()
	if !a.IsInt64() || !b.IsInt64() {
		return 0, 0, false
	}
	n, d = a.Int64(), b.Int64()
	return n, d, n != math.MinInt64 && d != math.MinInt64
}

// Small fractions are shared: coefficients are never changed in place
// (every operation returns a new value), and most products and sums of
// counted polynomials' coefficients are among them.
const (
	maxSharedNum = 64
	maxSharedDen = 12
)

var sharedRats = func() []*big.Rat {
	t := make([]*big.Rat, (2*maxSharedNum+1)*(maxSharedDen+1))
	for n := int64(-maxSharedNum); n <= maxSharedNum; n++ {
		for d := int64(1); d <= maxSharedDen; d++ {
			if gcd64(n, d) == 1 || n == 0 && d == 1 {
				t[(n+maxSharedNum)*(maxSharedDen+1)+d] = big.NewRat(n, d)
			}
		}
	}
	return t
}()

// newRat returns n/d for a reduced fraction with d > 0.
func newRat(n, d int64) *big.Rat {
	if -maxSharedNum <= n && n <= maxSharedNum && d <= maxSharedDen {
		return sharedRats[(n+maxSharedNum)*(maxSharedDen+1)+d]
	}
	r := new(big.Rat).SetInt64(n)
	if d != 1 && n != 0 {
		r.Denom().SetInt64(d) // r is initialised: Denom is its own
	}
	return r
}

// addFrac returns a/b + c/d reduced, for reduced fractions with b, d > 0.
func addFrac(a, b, c, d int64) (n, m int64, ok bool) {
	g := gcd64(b, d)
	bg, dg := b/g, d/g
	m, ok1 := mulOK(b, dg)
	x, ok2 := mulOK(a, dg)
	y, ok3 := mulOK(c, bg)
	n, ok4 := addOK(x, y)
	if !ok1 || !ok2 || !ok3 || !ok4 || n == math.MinInt64 {
		return 0, 0, false
	}
	if n == 0 {
		return 0, 1, true
	}
	g = gcd64(n, m)
	return n / g, m / g, true
}

// sumRats returns the sum of the terms' coefficients, a new value.
func sumRats(ts []term) *big.Rat {
	n, d, ok := smallRat(ts[0].c)
	for _, t := range ts[1:] {
		if !ok {
			break
		}
		var c, e int64
		if c, e, ok = smallRat(t.c); ok {
			n, d, ok = addFrac(n, d, c, e)
		}
	}
	if ok {
		return newRat(n, d)
	}
	s := new(big.Rat)
	for _, t := range ts {
		s.Add(s, t.c)
	}
	return s
}

// mulRat returns x*y, a new value.
func mulRat(x, y *big.Rat) *big.Rat {
	a, b, ok1 := smallRat(x)
	c, d, ok2 := smallRat(y)
	if ok1 && ok2 {
		switch {
		case a == 1 && b == 1:
			return y // values are never changed in place
		case c == 1 && d == 1:
			return x
		}
		if a == 0 || c == 0 {
			return newRat(0, 1)
		}
		// Cross-cancel, so that the product is reduced.
		g, h := gcd64(a, d), gcd64(c, b)
		n, ok3 := mulOK(a/g, c/h)
		m, ok4 := mulOK(b/h, d/g)
		if ok3 && ok4 && n != math.MinInt64 {
			return newRat(n, m)
		}
	}
	return new(big.Rat).Mul(x, y)
}

func trimExp(e []uint8) []uint8 {
	n := len(e)
	for n > 0 && e[n-1] == 0 {
		n--
	}
	if n == 0 {
		return nil
	}
	return e[:n]
}

func (p *poly) add(q *poly) *poly {
	r := &poly{terms: append(append(make([]term, 0, len(p.terms)+len(q.terms)), p.terms...), q.terms...)}
	r.normalize()
	return r
}

func (p *poly) sub(q *poly) *poly { return p.add(q.scale(big.NewRat(-1, 1))) }

func (p *poly) scale(k *big.Rat) *poly {
	if k.Sign() == 0 {
		return &poly{}
	}
	r := &poly{terms: make([]term, len(p.terms))}
	for i, t := range p.terms {
		r.terms[i] = term{t.exp, mulRat(t.c, k)}
	}
	return r
}

func (p *poly) mul(q *poly) *poly {
	r := &poly{terms: make([]term, 0, len(p.terms)*len(q.terms))}
	// The products' exponents share one array (an exponent slice is
	// never changed in place); each is capped at its own length.
	size := 0
	for _, a := range p.terms {
		for _, b := range q.terms {
			size += max(len(a.exp), len(b.exp))
		}
	}
	buf := make([]uint8, size)
	for _, a := range p.terms {
		for _, b := range q.terms {
			n := max(len(a.exp), len(b.exp))
			e := buf[:n:n]
			buf = buf[n:]
			copy(e, a.exp)
			for j, v := range b.exp {
				s := int(e[j]) + int(v)
				if s > 255 {
					panic(overflowPanic{})
				}
				e[j] = uint8(s)
			}
			r.terms = append(r.terms, term{e, mulRat(a.c, b.c)})
		}
	}
	r.normalize()
	return r
}

// coeffsIn splits p by powers of column col: p = sum_k out[k] * x_col^k.
func (p *poly) coeffsIn(col int) []*poly {
	var out []*poly
	for _, t := range p.terms {
		k := 0
		if col < len(t.exp) {
			k = int(t.exp[col])
		}
		for len(out) <= k {
			out = append(out, &poly{})
		}
		e := t.exp
		if k > 0 {
			e = slices.Clone(e)
			e[col] = 0
			e = trimExp(e)
		}
		out[k].terms = append(out[k].terms, term{e, t.c})
	}
	for _, c := range out {
		c.normalize()
	}
	return out
}

// substitute replaces column col by the polynomial e.
func (p *poly) substitute(col int, e *poly) *poly {
	if !p.usesCol(col) {
		return p
	}
	cs := p.coeffsIn(col)
	// The products are gathered and normalised once: adding each to the
	// sum sorted the sum again every time.
	r := &poly{terms: slices.Clone(cs[0].terms)}
	pow := polyInt(1)
	for k := 1; k < len(cs); k++ {
		pow = pow.mul(e)
		if !cs[k].isZero() {
			r.terms = append(r.terms, cs[k].mul(pow).terms...)
		}
	}
	r.normalize()
	return r
}

// substituteAll replaces every column c by subst[c] (nil keeps x_c).
func (p *poly) substituteAll(subst []*poly) *poly {
	r := &poly{}
	pows := make([][]*poly, len(subst)) // pows[c][k-1] = subst[c]^k
	pow := func(c int, k uint8) *poly {
		for len(pows[c]) < int(k) {
			x := subst[c]
			if x == nil {
				x = polyVar(c)
			}
			if n := len(pows[c]); n > 0 {
				x = pows[c][n-1].mul(x)
			}
			pows[c] = append(pows[c], x)
		}
		return pows[c][k-1]
	}
	for _, t := range p.terms {
		m := polyConst(t.c)
		for c, k := range t.exp {
			if k > 0 {
				m = m.mul(pow(c, k))
			}
		}
		r.terms = append(r.terms, m.terms...)
	}
	r.normalize()
	return r
}

func polyVar(col int) *poly {
	e := make([]uint8, col+1)
	e[col] = 1
	return &poly{terms: []term{{e, big.NewRat(1, 1)}}}
}

// remap moves the exponent of each column c that p uses to column
// to[c], adding exponents that meet in one column.
func (p *poly) remap(to []int) *poly {
	r := &poly{terms: make([]term, len(p.terms))}
	for i, t := range p.terms {
		var e []uint8
		for c, k := range t.exp {
			if k == 0 {
				continue
			}
			if to[c] < 0 {
				panic("polyhedra: remap drops a column used by a polynomial")
			}
			for len(e) <= to[c] {
				e = append(e, 0)
			}
			s := int(e[to[c]]) + int(k)
			if s > 255 {
				panic(overflowPanic{})
			}
			e[to[c]] = uint8(s)
		}
		r.terms[i] = term{e, t.c}
	}
	if !r.normal() {
		r.normalize()
	}
	return r
}

// normal reports whether p is in the form normalize gives: terms in
// increasing order of their exponents, none zero. A map that keeps the
// order of the columns, as deleting unused ones does, keeps a normal
// poly normal, and checking is cheaper than sorting again.
func (p *poly) normal() bool {
	for i, t := range p.terms {
		if t.c.Sign() == 0 || i > 0 && compareExp(p.terms[i-1].exp, t.exp) >= 0 {
			return false
		}
	}
	return true
}

// evalAt evaluates p at integer column values (cols[0] unused): with
// checked int64 arithmetic where every coefficient, the common
// denominator and every partial value fit (evalInt64), exactly with big
// integers otherwise. Simplification evaluates the polynomials of
// footprints at hundreds of points, and big arithmetic took most of the
// time of printing them.
func (p *poly) evalAt(cols []int64) *big.Rat {
	if num, den, ok := p.evalInt64(cols); ok {
		return big.NewRat(num, den)
	}
	bv := make([]*big.Int, len(cols))
	for i, c := range cols {
		bv[i] = big.NewInt(c)
	}
	return p.eval(bv)
}

// evalInt64 returns p at cols as num/den over the common denominator of
// its coefficients; ok is false where a value does not fit in int64.
func (p *poly) evalInt64(cols []int64) (num, den int64, ok bool) {
	den = 1
	for _, t := range p.terms {
		d := t.c.Denom()
		if !d.IsInt64() || !t.c.Num().IsInt64() {
			return 0, 0, false
		}
		if dv := d.Int64(); dv != 1 {
			if den, ok = mulOK(den, dv/gcd64(den, dv)); !ok {
				return 0, 0, false
			}
		}
	}
	for _, t := range p.terms {
		f, ok := mulOK(t.c.Num().Int64(), den/t.c.Denom().Int64())
		if ok {
			f, ok = monomialInt64(f, t.exp, cols)
		}
		if ok {
			num, ok = addOK(num, f)
		}
		if !ok {
			return 0, 0, false
		}
	}
	return num, den, true
}

// monomialInt64 returns f times the monomial of exponents exp at cols;
// ok is false where it does not fit in int64.
func monomialInt64(f int64, exp []uint8, cols []int64) (int64, bool) {
	ok := true
	for c, k := range exp {
		for range k {
			if f, ok = mulOK(f, cols[c]); !ok {
				return 0, false
			}
		}
	}
	return f, true
}

// eval evaluates p at the column values vals (vals[0] unused).
func (p *poly) eval(vals []*big.Int) *big.Rat {
	// The terms are summed as integers over the common denominator of
	// the coefficients: adding rationals reduces every partial sum by a
	// gcd, which made evaluating a cubic of 27 terms several times
	// slower.
	den := big.NewInt(1)
	g := new(big.Int)
	for _, t := range p.terms {
		if d := t.c.Denom(); !d.IsInt64() || d.Int64() != 1 {
			g.GCD(nil, nil, den, d)
			den.Mul(den, g.Quo(d, g))
		}
	}
	sum, m, x, q, e := new(big.Int), new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	for _, t := range p.terms {
		m.SetInt64(1)
		for c, k := range t.exp {
			switch {
			case k == 1:
				m.Mul(m, vals[c])
			case k > 1:
				m.Mul(m, x.Exp(vals[c], e.SetInt64(int64(k)), nil))
			}
		}
		q.Quo(den, t.c.Denom())
		q.Mul(q, t.c.Num())
		sum.Add(sum, m.Mul(m, q))
	}
	return new(big.Rat).SetFrac(sum, den)
}

// sumOver returns sum_{x_col = lo}^{hi} p, valid whenever lo <= hi + 1.
func (p *poly) sumOver(col int, lo, hi *poly) *poly {
	cs := p.coeffsIn(col)
	if len(cs) == 1 { // p does not depend on x_col
		return cs[0].mul(hi.sub(lo).add(polyInt(1)))
	}
	// S_k has degree k + 1; the powers of the bounds serve every k.
	his, los := powers(hi, len(cs)), powers(lo.add(polyInt(-1)), len(cs))
	r := &poly{}
	for k, c := range cs {
		if c.isZero() {
			continue
		}
		s := powerSum(k)
		r = r.add(c.mul(evalUnivariate(s, his).sub(evalUnivariate(s, los))))
	}
	return r
}

// powers returns y^0, ..., y^n.
func powers(y *poly, n int) []*poly {
	out := []*poly{polyInt(1)}
	for len(out) <= n {
		out = append(out, out[len(out)-1].mul(y))
	}
	return out
}

// evalUnivariate evaluates sum_i coef[i] y^i, given the powers of y.
func evalUnivariate(coef []*big.Rat, pows []*poly) *poly {
	r := &poly{}
	for i, c := range coef {
		if c.Sign() != 0 {
			r.terms = append(r.terms, pows[i].scale(c).terms...)
		}
	}
	r.normalize()
	return r
}

var (
	powerSumMu    sync.Mutex
	powerSumCache [][]*big.Rat
	bernoulli     []*big.Rat
)

// powerSum returns the coefficients of Faulhaber's polynomial
// S_k(x) = sum_{t=1}^{x} t^k, whose identity S_k(x) - S_k(x-1) = x^k holds
// for every integer x, so sum_{t=L}^{U} t^k = S_k(U) - S_k(L-1) whenever
// L <= U+1, negative bounds included.
func powerSum(k int) []*big.Rat {
	powerSumMu.Lock()
	defer powerSumMu.Unlock()
	for len(powerSumCache) <= k {
		powerSumCache = append(powerSumCache, faulhaber(len(powerSumCache)))
	}
	return powerSumCache[k]
}

// faulhaber computes S_k(x) = 1/(k+1) sum_{j=0}^{k} C(k+1,j) B+_j x^{k+1-j}
// with the Bernoulli numbers B+ (B+_1 = +1/2).
func faulhaber(k int) []*big.Rat {
	for len(bernoulli) <= k {
		bernoulli = append(bernoulli, nextBernoulli(bernoulli))
	}
	coef := make([]*big.Rat, k+2)
	for i := range coef {
		coef[i] = new(big.Rat)
	}
	inv := big.NewRat(1, int64(k+1))
	for j := 0; j <= k; j++ {
		b := bernoulli[j]
		if j == 1 {
			b = big.NewRat(1, 2)
		}
		t := new(big.Rat).SetInt(new(big.Int).Binomial(int64(k+1), int64(j)))
		t.Mul(t, b)
		t.Mul(t, inv)
		coef[k+1-j].Add(coef[k+1-j], t)
	}
	return coef
}

// nextBernoulli returns B_m (with B_1 = -1/2) from B_0..B_{m-1} through
// sum_{j=0}^{m} C(m+1, j) B_j = 0.
func nextBernoulli(prev []*big.Rat) *big.Rat {
	m := int64(len(prev))
	if m == 0 {
		return big.NewRat(1, 1)
	}
	s := new(big.Rat)
	for j, b := range prev {
		t := new(big.Rat).SetInt(new(big.Int).Binomial(m+1, int64(j)))
		s.Add(s, t.Mul(t, b))
	}
	return s.Quo(s.Neg(s), big.NewRat(m+1, 1))
}
