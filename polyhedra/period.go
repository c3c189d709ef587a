package polyhedra

import (
	"math/big"
	"slices"
)

// Shortening a quasi-polynomial whose divs have a larger period than it.
//
// Summing residue classes leaves floors of period M (15 on the wedge of
// issue 26: floor((2n + m + 3k)/15) for k = 0..4, with squares and
// products) where the function itself may have a smaller period d: on
// its chamber 2m <= n + 1 the wedge's count is
// 2/3 n + 1/6 m + 2/3 nm - 1/2 m^2 plus a constant that depends on n and
// m modulo 3 alone, printed in 47 terms. reducePeriod looks for the
// function among the polynomials of degree D (the poly's, a div counting
// one) and floors floor((L + c)/d) of the forms L with coefficients in
// [0, d), the first one 1, times monomials of degree mdeg < D, fitted by
// exact elimination, the polynomial terms and low multipliers first. It
// keeps the fit only where it has fewer terms and is proved equal to the
// poly at every integer point, in the domain or not.
//
// The proof. On a class x = r + M*a, each div floor((v.x)/e) with e | M
// is (v.x - rho)/e with rho constant on the class, so a term with k divs
// is a polynomial of its degree in x whose part that depends on the
// class (through the rho) has degree one less, and the difference h of
// two such polys is, on class r, H + V_r with H the same on every class
// and V_r of degree below D. If h vanishes on the simplex 0 + M*a,
// |a| <= D, which is unisolvent for degree D, then h = 0 on class 0,
// H = -V_0, and h = V_r - V_0 on class r, of degree below D: it vanishes
// where it does on r + M*a, |a| <= D - 1. The fit is made on the same
// points for the classes modulo d, with |a| <= mdeg off class 0 (the
// floors' class-dependent parts have degree mdeg there): it proves
// nothing, the check does.

// maxPeriodEquations bounds the points reducePeriod evaluates for one
// check (classes times simplex points).
const maxPeriodEquations = 1 << 11

// maxFitCells bounds the size (unknowns times equations) of one fit.
const maxFitCells = 1 << 13

// reducePeriod replaces p.poly, a poly of a dimensionless piece over 2 or
// 3 parameters, by an equal one with fewer terms and floors of a smaller
// period, where it finds one (see above).
func (p *bset) reducePeriod() {
	if p.np < 2 || p.np > 3 {
		return
	}
	period, ok := p.divPeriod()
	deg := p.poly.degree()
	if !ok || period == 1 || deg < 1 {
		return
	}
	simplex := simplexPoints(p.np, deg)
	if pow64(period, p.np)*int64(len(simplex)) > maxPeriodEquations {
		return
	}
	for d := int64(1); d < period; d++ {
		if period%d != 0 {
			continue
		}
		if !p.steadyAlong(d, period, deg) {
			continue
		}
		top := deg - 1 // the multipliers' degree; d = 1 has no floors
		if d == 1 {
			top = 0
		}
		for mdeg := 0; mdeg <= top; mdeg++ {
			var g *bset
			if !tryNoOverflow(func() { g = p.fitPeriod(d, deg, mdeg, simplex) }) || g == nil {
				continue
			}
			if len(g.poly.terms) >= len(p.poly.terms) {
				break
			}
			same := false
			if !tryNoOverflow(func() { same = p.agreesOnClasses(g, period, deg) }) || !same {
				continue
			}
			*p = *g
			return
		}
	}
}

// divPeriod returns the least common multiple of the denominators of
// the divs p.poly uses, and false where p has dimensions, a div has a
// div in it or the period is too large to try every class of.
func (p *bset) divPeriod() (int64, bool) {
	if p.nd != 0 {
		return 0, false
	}
	period := int64(1)
	for k, d := range p.divs {
		if !p.poly.usesCol(p.divCol(k)) {
			continue
		}
		if !isZeroRow(d.num[p.firstDiv():]) || d.den > maxPeriodEquations {
			return 0, false
		}
		if period = lcm64(period, d.den); period > maxPeriodEquations {
			return 0, false
		}
	}
	return period, true
}

// pow64 returns b^e, checked.
func pow64(b int64, e int) int64 {
	r := int64(1)
	for range e {
		r = mul64(r, b)
	}
	return r
}

// simplexPoints lists the points a of N^n with |a| <= deg.
func simplexPoints(n, deg int) [][]int64 {
	var out [][]int64
	var rec func(prefix []int64, left int)
	rec = func(prefix []int64, left int) {
		if len(prefix) == n {
			out = append(out, slices.Clone(prefix))
			return
		}
		for v := 0; v <= left; v++ {
			rec(append(prefix, int64(v)), left-v)
		}
	}
	rec(nil, deg)
	return out
}

// monomialPoly is the monomial of the parameters with exponents e.
func monomialPoly(e []int64) *poly {
	m := polyInt(1)
	for i, k := range e {
		for range k {
			m = m.mul(polyVar(1 + i))
		}
	}
	return m
}

// floorPoly is floor((form.x + c)/q) over the parameters x, as a poly
// over g's columns, with a div added to g for it.
func (g *bset) floorPoly(q, c int64, form []int64) *poly {
	row := g.newRow()
	row[0] = c
	copy(row[1:], form)
	return polyFromRow(g.floorExpr(row, q))
}

// monomials lists the exponent vectors over n variables of degree at
// most deg, by degree.
func monomials(n, deg int) [][]int64 {
	var out [][]int64
	for k := 0; k <= deg; k++ {
		for _, a := range simplexPoints(n, k) {
			s := int64(0)
			for _, v := range a {
				s += v
			}
			if s == int64(k) {
				out = append(out, a)
			}
		}
	}
	return out
}

// fitPeriod returns a clone of p whose poly is the combination of
// monomials of degree at most deg and floors floor((L + c)/d) times
// monomials of degree at most mdeg that equals p.poly on the simplex of
// degree deg of class 0 modulo d and that of degree mdeg of the other
// classes, or nil if there is none.
func (p *bset) fitPeriod(d int64, deg, mdeg int, simplex [][]int64) *bset {
	g := p.clone()
	var feats []*poly
	for _, e := range monomials(p.np, deg) {
		feats = append(feats, monomialPoly(e))
	}
	if d > 1 {
		var forms [][]int64
		for _, f := range simplexPoints(p.np, int(d-1)*p.np) {
			ok, lead := true, false
			for _, v := range f {
				if v >= d || !lead && v != 0 && v != 1 {
					ok = false
				}
				lead = lead || v != 0
			}
			if ok && lead {
				forms = append(forms, f)
			}
		}
		for _, e := range monomials(p.np, mdeg) {
			for _, f := range forms {
				for c := int64(0); c < d; c++ {
					feats = append(feats, g.floorPoly(d, c, f).mul(monomialPoly(e)))
				}
			}
		}
	}
	low := simplexPoints(p.np, mdeg)
	if int64(len(feats))*(int64(len(simplex))+(pow64(d, p.np)-1)*int64(len(low))) > maxFitCells {
		return nil
	}
	// The equations: one per point s + d*a.
	fv := make([]*intPoly, len(feats))
	for j, f := range feats {
		fv[j] = newIntPoly(f)
	}
	pv := newIntPoly(p.poly)
	var rows [][]*big.Rat
	for s := range pow64(d, p.np) {
		pts := simplex
		if s > 0 {
			pts = low
		}
		for _, a := range pts {
			x := make([]int64, p.np)
			classPoint(x, s, d, a)
			pc, _ := p.contains(x)
			gc, _ := g.contains(x)
			row := make([]*big.Rat, len(feats)+1)
			for j, f := range fv {
				row[j] = new(big.Rat).Set(f.at(gc))
			}
			row[len(feats)] = new(big.Rat).Set(pv.at(pc))
			rows = append(rows, row)
		}
	}
	coef, ok := solveExact(rows, len(feats))
	if !ok {
		return nil
	}
	sum := &poly{}
	for j, c := range coef {
		if c.Sign() != 0 {
			sum = sum.add(feats[j].scale(c))
		}
	}
	g.poly = sum
	g.dropUnusedDivs()
	return g
}

// solveExact solves the augmented rows for n unknowns by Gauss–Jordan
// elimination, pivoting on the first usable column, free unknowns 0; it
// reports false where the rows are inconsistent.
func solveExact(rows [][]*big.Rat, n int) ([]*big.Rat, bool) {
	pivotCol := []int{}
	r := 0
	for c := 0; c < n && r < len(rows); c++ {
		p := -1
		for i := r; i < len(rows); i++ {
			if rows[i][c].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[r], rows[p] = rows[p], rows[r]
		inv := new(big.Rat).Inv(rows[r][c])
		for j := c; j <= n; j++ {
			rows[r][j] = new(big.Rat).Mul(rows[r][j], inv)
		}
		for i := range rows {
			if i == r || rows[i][c].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(rows[i][c])
			for j := c; j <= n; j++ {
				if rows[r][j].Sign() != 0 {
					rows[i][j] = new(big.Rat).Sub(rows[i][j], new(big.Rat).Mul(f, rows[r][j]))
				}
			}
		}
		pivotCol = append(pivotCol, c)
		r++
	}
	for i := r; i < len(rows); i++ {
		if rows[i][n].Sign() != 0 {
			return nil, false
		}
	}
	out := make([]*big.Rat, n)
	for j := range out {
		out[j] = new(big.Rat)
	}
	for i, c := range pivotCol {
		out[c] = rows[i][n]
	}
	return out, true
}

// agreesOnClasses reports whether p.poly and g.poly, of degree deg or
// less and with divs of periods dividing period, agree on the simplex of
// degree deg of class 0 and that of degree deg - 1 of every other class
// modulo period, which proves them equal (see above).
func (p *bset) agreesOnClasses(g *bset, period int64, deg int) bool {
	if p.poly.degree() > deg || g.poly.degree() > deg {
		return false
	}
	pv, gv := newIntPoly(p.poly), newIntPoly(g.poly)
	for _, x := range provingPoints(p.np, period, deg) {
		pc, _ := p.contains(x)
		gc, _ := g.contains(x)
		pn, pok := pv.num(pc)
		gn, gok := gv.num(gc)
		if pok && gok {
			l, lok := mulOK(pn, gv.den)
			r, rok := mulOK(gn, pv.den)
			if lok && rok {
				if l != r {
					return false
				}
				continue
			}
		}
		if pv.at(pc).Cmp(gv.at(gc)) != 0 {
			return false
		}
	}
	return true
}

// intPoly is a poly over the common denominator of its coefficients,
// for evaluating it often: in int64 arithmetic where it fits.
type intPoly struct {
	p     *poly
	nums  []int64
	den   int64
	fits  bool
	exact big.Rat
}

func newIntPoly(p *poly) *intPoly {
	ip := &intPoly{p: p, den: 1, fits: true}
	for _, t := range p.terms {
		d := t.c.Denom()
		if !d.IsInt64() || !t.c.Num().IsInt64() {
			ip.fits = false
			return ip
		}
		var ok bool
		if ip.den, ok = mulOK(ip.den, d.Int64()/gcd64(ip.den, d.Int64())); !ok {
			ip.fits = false
			return ip
		}
	}
	for _, t := range p.terms {
		n, ok := mulOK(t.c.Num().Int64(), ip.den/t.c.Denom().Int64())
		if !ok {
			ip.fits = false
			return ip
		}
		ip.nums = append(ip.nums, n)
	}
	return ip
}

// num returns the poly at cols times ip.den, if that fits in int64.
func (ip *intPoly) num(cols []int64) (int64, bool) {
	if !ip.fits {
		return 0, false
	}
	var num int64
	for i, t := range ip.p.terms {
		f, ok := monomialInt64(ip.nums[i], t.exp, cols)
		if ok {
			num, ok = addOK(num, f)
		}
		if !ok {
			return 0, false
		}
	}
	return num, true
}

// at returns the poly at cols.
func (ip *intPoly) at(cols []int64) *big.Rat {
	if n, ok := ip.num(cols); ok {
		return ip.exact.SetFrac64(n, ip.den)
	}
	return ip.exact.Set(ip.p.evalAt(cols))
}

// maxSteadyBases bounds the points from which steadyAlong takes
// differences.
const maxSteadyBases = 32

// steadyAlong is a quick test that p.poly may be a polynomial of degree
// at most deg on every class modulo d: from points of different classes
// modulo period it takes the (deg+1)-th difference with step d along
// each parameter, which is 0 for such a poly. It proves nothing when it
// passes (reducePeriod checks its fit in full); it saves the fit where a
// difference is not 0. An overflow counts as a failure.
func (p *bset) steadyAlong(d, period int64, deg int) bool {
	binom := make([]int64, deg+2)
	binom[0] = 1
	for k := 1; k < len(binom); k++ {
		binom[k] = binom[k-1] * int64(deg+2-k) / int64(k)
	}
	steady := true
	x := make([]int64, p.np)
	diff := func(s int64, axis int) *big.Rat {
		sum := new(big.Rat)
		for k, c := range binom {
			t := s
			for i := range x {
				x[i] = t % period
				t /= period
			}
			x[axis] += int64(k) * d
			cols, _ := p.contains(x)
			if k%2 == 1 {
				c = -c
			}
			v := ratValue(p.poly, cols)
			sum.Add(sum, v.Mul(v, big.NewRat(c, 1)))
		}
		return sum
	}
	ok := tryNoOverflow(func() {
		for s := range min(pow64(period, p.np), maxSteadyBases) {
			for axis := range p.np {
				if diff(s, axis).Sign() != 0 {
					steady = false
					return
				}
			}
		}
	})
	return ok && steady
}

// ratValue returns p at cols, in int64 arithmetic where it fits.
func ratValue(p *poly, cols []int64) *big.Rat {
	if n, d, ok := p.evalInt64(cols); ok {
		return big.NewRat(n, d)
	}
	return p.evalAt(cols)
}

// classPoint sets x to the point a of the lattice of residue class s of
// period d: x_i = s_i + d·a_i, s_i the i-th base-d digit of s.
func classPoint(x []int64, s, d int64, a []int64) {
	for i := range x {
		x[i] = s%d + d*a[i]
		s /= d
	}
}

// provingPoints lists the points on which agreesOnClasses compares two
// polys of degree deg with divs of the given period.
func provingPoints(np int, period int64, deg int) [][]int64 {
	simplex, low := simplexPoints(np, deg), simplexPoints(np, deg-1)
	var out [][]int64
	for s := range pow64(period, np) {
		as := simplex
		if s > 0 {
			as = low
		}
		for _, a := range as {
			x := make([]int64, np)
			classPoint(x, s, period, a)
			out = append(out, x)
		}
	}
	return out
}
