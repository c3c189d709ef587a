package polyhedra

import (
	"math"
	"math/big"
	"slices"
)

// The search of sparseFloors (see sparse.go), in floating point: it
// proposes, and sparseFloors proves. The gain of a floor's terms is
// computed from their products with the span's orthonormal basis,
// kept with each term and extended as the span grows, so that ranking
// a floor costs a few products of vectors, not a new basis.

// sparseStarts is the number of first floors a search tries: the
// greedy choice is not always the best one.
const sparseStarts = 6

// sparsePool is the number of floors a search takes from: those that
// bring the fit closest alone.
const sparsePool = 48

// maxSparseFloors bounds the floors one answer may have.
const maxSparseFloors = 6

// maxSparseWork bounds the products of numbers one search makes, so
// that printing stays quick: about 40 ms on one core.
const maxSparseWork = 1 << 24

// A candidate is a product of floors and a monomial of the parameters,
// with its values at the points of a search.
type candidate struct {
	floors []floorTerm
	mono   []int64 // exponents
	vals   []float64
}

// A floorTerm is floor((form.x + c)/q).
type floorTerm struct {
	q, c int64
	form []int64
}

func (f floorTerm) at(x []int64) int64 {
	s := f.c
	for j, v := range f.form {
		s += v * x[j]
	}
	return floorDiv(s, f.q)
}

// newCandidate returns the product of the floors fs and the monomial e
// with its values at pts, given each floor's values there.
func newCandidate(fs []floorTerm, fvals [][]float64, e []int64, pts [][]int64) candidate {
	c := candidate{floors: fs, mono: e, vals: make([]float64, len(pts))}
	for j, x := range pts {
		v := 1.0
		for k, n := range e {
			for range n {
				v *= float64(x[k])
			}
		}
		for _, f := range fvals {
			v *= f[j]
		}
		c.vals[j] = v
	}
	return c
}

// A floorSearch looks for few floors whose terms fit target at pts.
type floorSearch struct {
	floors    []floorTerm // shorter first
	vals      [][]float64 // each floor's values at pts
	np, deg   int
	pts       [][]int64
	target    []float64
	tolerance float64
	terms     map[termKey]*searchTerm
	grams     map[[2]*searchTerm]float64
	work      int   // products of numbers left to the search
	all, pool []int // the floors, and those it may take
	linear    bool  // whether floors enter alone, not times others or monomials
}

// A termKey names a term: at most three floors (the degree) and two
// parameters.
type termKey struct {
	floors [3]int
	n      int
	mono   [2]int64
}

// A searchTerm is a candidate with its products with the vectors of
// the span searched.
type searchTerm struct {
	candidate
	span *orthoSpan
	dots []float64 // with span.basis, in order, as far as computed
}

func newFloorSearch(floors []floorTerm, np, deg int, pts [][]int64, target []float64, work int) *floorSearch {
	fs := &floorSearch{floors: floors, np: np, deg: deg, pts: pts, target: target,
		tolerance: 1e-9 * norm(target), terms: map[termKey]*searchTerm{},
		grams: map[[2]*searchTerm]float64{}, work: work}
	fs.all = make([]int, len(floors))
	for i := range fs.all {
		fs.all[i] = i
	}
	slices.SortStableFunc(fs.floors, func(a, b floorTerm) int { return a.cost() - b.cost() })
	fs.vals = make([][]float64, len(floors))
	for i, f := range fs.floors {
		fs.vals[i] = make([]float64, len(pts))
		for j, x := range pts {
			fs.vals[i][j] = float64(f.at(x))
		}
	}
	return fs
}

// cost is about the length of the floor's text.
func (f floorTerm) cost() int {
	n := 10
	if f.c != 0 {
		n += 4
	}
	for _, v := range f.form {
		if v != 0 {
			n += 4
		}
		if v > 1 {
			n += 2
		}
	}
	return n
}

// term returns the product of the floors fs (indices, ascending) and
// the monomial e, made once.
func (fs *floorSearch) term(prod []int, e []int64) *searchTerm {
	key := termKey{n: len(prod)}
	copy(key.floors[:], prod)
	copy(key.mono[:], e)
	if t, ok := fs.terms[key]; ok {
		return t
	}
	ts := make([]floorTerm, len(prod))
	vs := make([][]float64, len(prod))
	for k, f := range prod {
		ts[k], vs[k] = fs.floors[f], fs.vals[f]
	}
	t := &searchTerm{candidate: newCandidate(ts, vs, e, fs.pts)}
	fs.work -= 64 + len(fs.pts)*(len(prod)+len(e))
	fs.terms[key] = t
	return t
}

// withFloor lists the terms that taking floor i after the floors taken
// adds: it times monomials and times products of the floors taken and
// itself, up to the degree.
func (fs *floorSearch) withFloor(taken []int, i int) []*searchTerm {
	if fs.linear {
		return []*searchTerm{fs.term([]int{i}, make([]int64, fs.np))}
	}
	pool := append(slices.Clone(taken), i)
	var out []*searchTerm
	var rec func(prod []int, from int)
	rec = func(prod []int, from int) {
		all := append([]int{i}, prod...)
		slices.Sort(all)
		for _, e := range monomials(fs.np, fs.deg-len(all)) {
			out = append(out, fs.term(all, e))
		}
		if len(all) == fs.deg {
			return
		}
		for k := from; k < len(pool); k++ {
			rec(append(prod, pool[k]), k)
		}
	}
	rec(nil, 0)
	return out
}

// termsOf lists the terms of the floors taken, monomials first.
func (fs *floorSearch) termsOf(taken []int) []*searchTerm {
	var ts []*searchTerm
	for _, e := range monomials(fs.np, fs.deg) {
		ts = append(ts, fs.term(nil, e))
	}
	for k, i := range taken {
		for _, t := range fs.withFloor(taken[:k], i) {
			if !slices.Contains(ts, t) {
				ts = append(ts, t)
			}
		}
	}
	return ts
}

// spanOf returns the span of the terms ts and those of them, first
// first, that span it independently.
func (fs *floorSearch) spanOf(ts []*searchTerm) (*orthoSpan, []candidate) {
	span := &orthoSpan{}
	var terms []candidate
	for _, t := range ts {
		if span.add(t.vals) {
			terms = append(terms, t.candidate)
		}
	}
	fs.work -= len(ts) * len(terms) * len(fs.pts)
	return span, terms
}

// greedy takes floors one at a time, each the one that brings the fit
// closest, after the first floors given, until it is exact; nil where
// that takes too many or the search runs out of work.
func (fs *floorSearch) greedy(first []int) []int {
	taken := slices.Clone(first)
	span, _ := fs.spanOf(fs.termsOf(taken))
	for r := span.project(fs.target); norm(r) > fs.tolerance; r = span.project(fs.target) {
		fs.work -= 2 * len(span.basis) * len(r)
		if len(taken) == maxSparseFloors || fs.work < 0 {
			return nil
		}
		ranked := fs.rank(span, r, taken, 1)
		if len(ranked) == 0 {
			return nil
		}
		for _, t := range fs.withFloor(taken, ranked[0]) {
			span.add(t.vals)
		}
		taken = append(taken, ranked[0])
	}
	return taken
}

// rank lists up to k floors not taken whose terms bring r, the
// residual of the fit on span, closer to it, the closest first; of
// floors that bring it equally close to rounding, the shorter first.
func (fs *floorSearch) rank(span *orthoSpan, r []float64, taken []int, k int) []int {
	gains := make([]float64, len(fs.floors))
	r2 := dot64(r, r)
	for _, i := range fs.pool {
		if fs.work < 0 {
			return nil
		}
		if !slices.Contains(taken, i) {
			gains[i] = fs.gain(span, r, fs.withFloor(taken, i))
		}
	}
	var out []int
	for len(out) < k {
		best := -1
		for i, g := range gains {
			if g > 1e-9*r2 && (best < 0 || g > gains[best]*(1+1e-9)) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out = append(out, best)
		gains[best] = 0
	}
	return out
}

// gain returns by how much adding the terms ts to span shrinks the
// square of r, the residual of the fit on it: u'G^-1u, with u the
// products of the terms with r and G the Gram matrix of their parts
// outside the span, by a Cholesky factorisation that skips the terms
// in the span of the others.
func (fs *floorSearch) gain(span *orthoSpan, r []float64, ts []*searchTerm) float64 {
	for _, t := range ts {
		if t.span != span {
			t.span, t.dots = span, t.dots[:0]
		}
		for _, b := range span.basis[len(t.dots):] {
			t.dots = append(t.dots, dot64(t.vals, b))
			fs.work -= len(b)
		}
	}
	var kept []int
	var l [][]float64 // rows of the factor, over kept
	var z []float64   // L^-1 u over kept
	gain := 0.0
	for j, t := range ts {
		fs.work -= 16 + len(kept)*(len(t.dots)+len(kept))
		row := make([]float64, len(kept))
		for k, i := range kept {
			v := fs.gram(ts[i], t) - dot64(ts[i].dots, t.dots)
			v -= dot64(l[k][:k], row[:k])
			row[k] = v / l[k][k]
		}
		self := fs.gram(t, t)
		d := self - dot64(t.dots, t.dots) - dot64(row, row)
		if d <= 1e-9*self {
			continue
		}
		row = append(row, math.Sqrt(d))
		zj := (dot64(t.vals, r) - dot64(row[:len(kept)], z)) / row[len(kept)]
		fs.work -= len(r)
		kept, l, z = append(kept, j), append(l, row), append(z, zj)
		gain += zj * zj
	}
	return gain
}

// gram returns the product of two terms' values, made once.
func (fs *floorSearch) gram(a, b *searchTerm) float64 {
	if v, ok := fs.grams[[2]*searchTerm{a, b}]; ok {
		return v
	}
	v := dot64(a.vals, b.vals)
	fs.work -= len(a.vals)
	fs.grams[[2]*searchTerm{a, b}], fs.grams[[2]*searchTerm{b, a}] = v, v
	return v
}

// A proposal is a combination of terms.
type proposal struct {
	terms []candidate
	coef  []float64
}

// greedyFloors proposes combinations of terms of few floors that fit
// target at pts to rounding, one for each of the first floors that
// bring the fit closest (see above).
func greedyFloors(floors []floorTerm, np, deg int, pts [][]int64, target []float64, budget *int) []proposal {
	if norm(target) == 0 || *budget <= 0 {
		return nil
	}
	fs := newFloorSearch(floors, np, deg, pts, target, min(*budget, maxSparseWork))
	defer func() { *budget -= min(*budget, maxSparseWork) - fs.work }()
	var out []proposal
	// Floors in linear terms only are tried too: the stencil of issue
	// 26 is a cubic plus floor(n/2), floor(m/2) and floor((n + m)/2),
	// which the terms of floor(n/2) and floor(m/2) alone make up for
	// with their products, in more text.
	for _, linear := range []bool{false, true} {
		fs.linear = linear
		fs.pool = fs.all
		span, _ := fs.spanOf(fs.termsOf(nil))
		fs.pool = fs.rank(span, span.project(target), nil, sparsePool)
		for _, f := range fs.pool[:min(len(fs.pool), sparseStarts)] {
			out = append(out, fs.proposals(fs.greedy([]int{f}))...)
		}
	}
	return out
}

// proposals fits the terms of the floors taken in three orders: which
// terms of a dependent lot are kept changes the text.
func (fs *floorSearch) proposals(taken []int) []proposal {
	if taken == nil {
		return nil
	}
	ts := fs.termsOf(taken)
	cheap := slices.Clone(ts)
	slices.SortStableFunc(cheap, func(a, b *searchTerm) int { return a.cost() - b.cost() })
	costly := slices.Clone(cheap)
	slices.Reverse(costly)
	var out []proposal
	for _, order := range [][]*searchTerm{ts, cheap, costly} {
		if p, ok := fs.fit(order); ok {
			out = append(out, p)
		}
	}
	return out
}

// fit returns the combination of independent terms among ts, first
// first, that fits the target.
func (fs *floorSearch) fit(ts []*searchTerm) (proposal, bool) {
	_, terms := fs.spanOf(ts)
	coef, ok := fitColumns(terms, fs.target)
	if !ok {
		return proposal{}, false
	}
	var p proposal
	for i, c := range coef {
		if math.Abs(c) > 1e-9 {
			p.terms = append(p.terms, terms[i])
			p.coef = append(p.coef, c)
		}
	}
	return p, true
}

// cost is about the length of the term's text.
func (c candidate) cost() int {
	n := 0
	for _, f := range c.floors {
		n += f.cost()
	}
	for _, e := range c.mono {
		n += 4 * int(e)
	}
	return n
}

// An orthoSpan is an orthonormal basis of the span of vectors added.
type orthoSpan struct{ basis [][]float64 }

// add adds v to the span and reports whether it was outside it.
func (s *orthoSpan) add(v []float64) bool {
	q := s.project(v)
	qn := norm(q)
	if qn <= 1e-9*norm(v) {
		return false
	}
	for j := range q {
		q[j] /= qn
	}
	s.basis = append(s.basis, q)
	return true
}

// project returns the part of v outside the span, orthogonalised twice
// for accuracy.
func (s *orthoSpan) project(v []float64) []float64 {
	q := slices.Clone(v)
	for range 2 {
		for _, b := range s.basis {
			d := dot64(q, b)
			for j := range q {
				q[j] -= d * b[j]
			}
		}
	}
	return q
}

// fitColumns returns the least-squares coefficients of the terms for
// target, from the normal equations refined twice on the residual, and
// whether they fit it to rounding.
func fitColumns(terms []candidate, target []float64) ([]float64, bool) {
	k := len(terms)
	gram := make([][]float64, k)
	for i := range gram {
		gram[i] = make([]float64, k)
		for j := range k {
			gram[i][j] = dot64(terms[i].vals, terms[j].vals)
		}
	}
	coef := make([]float64, k)
	r := slices.Clone(target)
	for range 3 {
		a := make([][]float64, k)
		for i := range a {
			a[i] = append(slices.Clone(gram[i]), dot64(terms[i].vals, r))
		}
		d, ok := solveFloat(a)
		if !ok {
			return nil, false
		}
		for i := range coef {
			coef[i] += d[i]
		}
		copy(r, target)
		for i, t := range terms {
			for j, v := range t.vals {
				r[j] -= coef[i] * v
			}
		}
	}
	return coef, norm(r) <= 1e-9*norm(target)
}

func norm(v []float64) float64 { return math.Sqrt(dot64(v, v)) }

func dot64(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// solveFloat solves the augmented square system a by Gaussian
// elimination with partial pivoting; false where it is singular.
func solveFloat(a [][]float64) ([]float64, bool) {
	k := len(a)
	for c := range k {
		piv := c
		for r := c + 1; r < k; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if a[piv][c] == 0 {
			return nil, false
		}
		a[c], a[piv] = a[piv], a[c]
		for r := range k {
			if r == c || a[r][c] == 0 {
				continue
			}
			f := a[r][c] / a[c][c]
			for j := c; j <= k; j++ {
				a[r][j] -= f * a[c][j]
			}
		}
	}
	x := make([]float64, k)
	for i := range k {
		x[i] = a[i][k] / a[i][i]
	}
	return x, true
}

// maxFractionDen bounds the denominators smallFraction reads.
const maxFractionDen = 1 << 20

// smallFraction returns the first convergent of x's continued fraction
// within a millionth of x (an absolute millionth below 1): a loose
// reading, as the fit's rounding can be, which the proof of the poly it
// gives decides. It is false for values too large or not numbers, and
// where the convergents pass maxFractionDen first.
func smallFraction(x float64) (*big.Rat, bool) {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1<<40 {
		return nil, false
	}
	// Convergents h/k of x.
	h0, h1, k0, k1 := int64(0), int64(1), int64(1), int64(0)
	y := x
	for range 40 {
		a := math.Floor(y)
		if k1 > 0 && a > maxFractionDen {
			return nil, false // the next denominator is too large, and a*h1 may overflow
		}
		h0, h1 = h1, int64(a)*h1+h0
		k0, k1 = k1, int64(a)*k1+k0
		if k1 > maxFractionDen {
			return nil, false
		}
		if math.Abs(float64(h1)/float64(k1)-x) <= 1e-6*max(1, math.Abs(x)) {
			return big.NewRat(h1, k1), true
		}
		if y-a == 0 {
			break
		}
		y = 1 / (y - a)
	}
	return nil, false
}
