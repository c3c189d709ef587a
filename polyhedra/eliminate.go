package polyhedra

import (
	"fmt"
)

// maxSplit bounds the residue classes one variable may be split into.
const maxSplit = 1 << 12

// liftThreshold is the period above which a variable's divs are lifted
// into new dimensions instead of splitting the variable into residue
// classes (each lift adds a summation and raises the degree of the
// intermediate polynomials, so small periods are better split);
// maxLifts bounds the lifts along one derivation.
const (
	liftThreshold = 64
	maxLifts      = 16
)

// ComplexityError reports a set whose exact treatment would take more
// work than the package is willing to do: too many residue classes, too
// many divs lifted into dimensions, or too large intermediate
// polynomials.
type ComplexityError struct {
	Dim    string // the variable being eliminated, if known
	Reason string
}

func (e *ComplexityError) Error() string {
	s := "set too complex to count exactly: " + e.Reason
	if e.Dim != "" {
		s += " (eliminating " + e.Dim + ")"
	}
	return s
}

// workLimit bounds the work units (one per elimination step and
// polynomial term) spent on one operation.
const workLimit = 4_000_000

// maxPolyTerms bounds the terms of the summand of one piece: each lifted
// div and each summation raise the degree, and the cost of a summation
// grows with the square of the terms, so that a few pieces could
// otherwise take hours without reaching any budget of pieces.
const maxPolyTerms = 500

// spend charges an elimination step of b to its budget, if any.
func (b *bset) spend() error {
	if b.work == nil {
		return nil
	}
	b.work.used += 1
	if b.poly != nil {
		b.work.used += int64(len(b.poly.terms))
		if len(b.poly.terms) > maxPolyTerms {
			return &ComplexityError{Reason: fmt.Sprintf("a summand of more than %d terms", maxPolyTerms)}
		}
	}
	if b.work.used > workLimit {
		return &ComplexityError{Reason: fmt.Sprintf("more than %d steps and polynomial terms", workLimit)}
	}
	return nil
}

// maxProjectRows bounds the constraints one step of a projection
// creates, one for each pair of a lower and an upper bound. The pairs
// multiply from step to step: the grid-stride subscript
// 192*g + l + 46080*k at n = 100000 paired 22916 lower with 360 upper
// bounds, whose rows (each as wide as the set's divs) took 16 GB.
const maxProjectRows = 1 << 14

// chargeRows records a projection step that creates n constraints; past
// maxProjectRows it returns a ComplexityError, and it looks at the heap
// as charge does.
func (w *budget) chargeRows(n int) error {
	if w == nil {
		return nil
	}
	if n > maxProjectRows {
		return &ComplexityError{Reason: fmt.Sprintf("a projection step pairing bounds into %d constraints (limit %d)", n, maxProjectRows)}
	}
	w.rows += int64(n)
	if w.rows >= w.nextRowCheck {
		w.nextRowCheck = w.rows + maxProjectRows
		if heapBytes() > w.limits.MaxHeap {
			w.stop("heap", w.limits.MaxHeap)
		}
	}
	return nil
}

// eliminate removes column x (a parameter or dimension) from b, which it
// consumes. Without sum it returns the exact integer projection
// { rest : exists x }; with sum it returns chambers whose polys add up to
// the sum of b.poly over x. The results are disjoint and normalised.
//
// The steps: split x by residue until no div depends on it; solve an
// equality for x if there is one (the equality turns into a divisibility
// condition); otherwise pair lower and upper bounds.
func (b *bset) eliminate(x int, sum bool) ([]*bset, error) {
	if err := b.spend(); err != nil {
		return nil, err
	}
	if !b.normalize() || b.provablyEmpty() {
		return nil, nil
	}
	if parts, ok := b.splitNarrowDiv(x); ok {
		b.work.charge(len(parts))
		var out []*bset
		for _, p := range parts {
			ps, err := p.eliminate(x, sum)
			if err != nil {
				return nil, err
			}
			out = append(out, ps...)
		}
		return out, nil
	}
	if m := b.splitModulus(x); m > liftThreshold {
		if b.lifts >= maxLifts {
			return nil, &ComplexityError{Reason: fmt.Sprintf("more than %d divs lifted into dimensions", maxLifts)}
		}
		b.lifts++
		for k := 0; k < len(b.divs); k++ {
			if b.divs[k].num[x] != 0 {
				b.liftDiv(k)
				k--
			}
		}
		return b.eliminate(x, sum)
	} else if m > 1 {
		if sum {
			if chambers, ok := b.sumClasses(x, m); ok {
				return sumUnsummed(x, chambers)
			}
		}
		return b.splitResidues(x, m, sum)
	}
	if i := b.pickEq(x); i >= 0 {
		return b.solveEq(x, i), nil
	}
	lows, ups, rest := b.boundsOn(x)
	b.ineqs = rest
	if !sum {
		if err := b.work.chargeRows(len(lows) * len(ups)); err != nil {
			return nil, err
		}
		return b.projectBounds(x, lows, ups), nil
	}
	if len(lows) == 0 || len(ups) == 0 {
		b.ineqs = append(append(b.ineqs, lows...), ups...)
		empty, err := b.exactlyEmpty()
		if err != nil {
			return nil, err
		}
		if empty {
			return nil, nil
		}
		return nil, errUnbounded
	}
	b.work.charge(len(lows) * len(ups))
	var out []*bset
	for i := range lows {
		for j := range ups {
			if c := b.chamber(x, lows, ups, i, j); c != nil {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// liftDiv turns div k, d = floor(e/m), into a new last dimension q with
// m*q <= e <= m*q + m - 1. Because q is determined by the other
// variables, the integer points (and their count) correspond one to one,
// and eliminating a variable of e no longer needs its residue classes.
func (b *bset) liftDiv(k int) {
	m := b.identityMap()
	for c := b.firstDiv(); c < len(m); c++ {
		m[c] = c + 1
	}
	b.remap(b.np, b.nd+1, m)
	q := b.firstDiv() - 1
	d := b.divs[k]
	lo := copyRow(d.num)
	lo[q] = neg64(d.den)
	hi := negRow(d.num)
	hi[q] = d.den
	hi[0] = add64(hi[0], d.den-1)
	b.addIneq(lo)
	b.addIneq(hi)
	col := b.divCol(k)
	b.substitute(col, b.unit(q, 1))
	b.deleteCol(col)
}

func (b *bset) splitResidues(x int, m int64, sum bool) ([]*bset, error) {
	if m > maxSplit {
		return nil, &ComplexityError{Reason: fmt.Sprintf("%d residue classes (limit %d)", m, maxSplit)}
	}
	first, last := int64(0), m-1
	if r, ok := b.strideClass(x, m); ok {
		first, last = r, r
	}
	b.work.charge(int(last - first + 1))
	var out []*bset
	for r := first; r <= last; r++ {
		c := b.clone()
		e := c.unit(x, m)
		e[0] = r
		c.substitute(x, e)
		parts, err := c.eliminate(x, sum)
		if err != nil {
			return nil, err
		}
		out = append(out, parts...)
	}
	return out, nil
}

// pickEq returns the equality with the smallest non-zero |coefficient| of x.
func (b *bset) pickEq(x int) int {
	best := -1
	for i, r := range b.eqs {
		if r[x] != 0 && (best < 0 || abs64(r[x]) < abs64(b.eqs[best][x])) {
			best = i
		}
	}
	return best
}

// solveEq substitutes x from a*x + g = 0: x = -g (a = 1) or
// x = -floor(g/a), which turns the equality into g = a*floor(g/a).
func (b *bset) solveEq(x, i int) []*bset {
	row := copyRow(b.eqs[i])
	if row[x] < 0 {
		row = negRow(row)
	}
	a := row[x]
	row[x] = 0
	var expr []int64
	if a == 1 {
		expr = negRow(row)
	} else {
		expr = negRow(b.floorExpr(row, a))
	}
	b.substitute(x, expr)
	b.deleteCol(x)
	if !b.normalize() {
		return nil
	}
	return []*bset{b}
}

// projectBounds adds, for every lower bound a*x + l >= 0 and upper bound
// -c*x + u >= 0, the condition ceil(-l/a) <= floor(u/c) under which an
// integer x lies between them, and drops x. With a = 1 or c = 1 this is the
// Fourier–Motzkin combination c*l + a*u >= 0; otherwise one side becomes a
// div. Together the pairs say exactly that max of the lower bounds <= min of
// the upper bounds.
func (b *bset) projectBounds(x int, lows, ups [][]int64) []*bset {
	for _, l := range lows {
		for _, u := range ups {
			a, c := l[x], neg64(u[x])
			lr, ur := copyRow(l), copyRow(u)
			lr[x], ur[x] = 0, 0
			var row []int64
			switch {
			case a == 1 || c == 1:
				row = b.newRow()
				addScaled(row, c, lr)
				addScaled(row, a, ur)
			case a <= c:
				// -floor(l/a) <= u/c  <=>  u + c*floor(l/a) >= 0
				d := b.floorExpr(lr, a)
				row = b.newRow()
				addScaled(row, 1, ur)
				addScaled(row, c, d)
			default:
				// -l/a <= floor(u/c)  <=>  a*floor(u/c) + l >= 0
				d := b.floorExpr(ur, c)
				row = b.newRow()
				addScaled(row, 1, lr)
				addScaled(row, a, d)
			}
			b.addIneq(row)
		}
	}
	b.deleteCol(x)
	if !b.normalize() {
		return nil
	}
	return []*bset{b}
}

// chamber returns the part of b where lower bound i is the largest and
// upper bound j the smallest and where they do not cross, with b.poly
// summed over x from L = ceil(-l_i/a_i) to U = floor(u_j/c_j). It returns
// nil for a chamber that is provably empty.
//
// The chamber mostly keeps U = L - 1, where the sum is 0: the chambers
// of different residue classes then share their domains, and the normal
// form moves such a boundary back where it helps (n(n+1)/2 for n >= 1).
// But with a_i or c_j above 1, U >= L - 1 reaches c_j values of u_j past
// the last point, and where the bounds hold another dimension, that
// dimension's chambers compare the shifted bound with its others:
// floor((2n + m - 3i)/5) >= -1 is 3i <= 2n + m + 5, and the wedge of
// issue 26 was cut along m = n - 5 and m = n - 6 instead of m = n, in 5
// printed pieces instead of barvinok's 3. Such a chamber stops at U = L.
// Over parameters alone the shift stays in the domain, where the normal
// form can remove it (and the random sets of the corpus count in fewer
// pieces with it).
func (b *bset) chamber(x int, lows, ups [][]int64, i, j int) *bset {
	slack := int64(1)
	if (lows[i][x] != 1 || ups[j][x] != -1) && (b.usesDimBesides(lows[i], x) || b.usesDimBesides(ups[j], x)) {
		slack = 0
	}
	c, L, U := b.chamberDomain(x, lows, ups, i, j, slack)
	c.poly = c.poly.sumOver(x, polyFromRow(L), polyFromRow(U))
	c.deleteCol(x)
	if !c.normalize() || c.provablyEmpty() {
		return nil
	}
	return c
}

// usesDimBesides reports whether row uses a dimension other than x, or a
// div of one.
func (b *bset) usesDimBesides(row []int64, x int) bool {
	dep := make([]bool, b.width())
	for c := b.firstDim(); c < b.firstDiv(); c++ {
		dep[c] = c != x
	}
	for k, d := range b.divs {
		for c, v := range d.num {
			if v != 0 && dep[c] {
				dep[b.divCol(k)] = true
			}
		}
	}
	for c, v := range row {
		if v != 0 && dep[c] {
			return true
		}
	}
	return false
}

// exactlyEmpty decides whether b has an integer point for some parameter
// values by projecting out every parameter and dimension exactly.
func (b *bset) exactlyEmpty() (bool, error) {
	start := b.clone()
	start.poly = nil
	start.work = newBudget(Limits{})
	stack := []*bset{start}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !p.normalize() || p.provablyEmpty() {
			continue
		}
		if p.np+p.nd == 0 {
			return false, nil
		}
		parts, err := p.eliminate(p.pickVar(1, 1+p.np+p.nd, false), false)
		if err != nil {
			return false, err
		}
		stack = append(stack, parts...)
	}
	return true, nil
}

// pickVar chooses which column in [from, to) to eliminate next: no residue
// split if possible, then an equality, then unit coefficients and few
// bound pairs. Ties go to the later column (the innermost loop).
func (b *bset) pickVar(from, to int, sum bool) int {
	best, bestCost := -1, int64(0)
	for x := from; x < to; x++ {
		cost := b.elimCost(x, sum)
		if best < 0 || cost <= bestCost {
			best, bestCost = x, cost
		}
	}
	return best
}

// elimCost ranks eliminating x (see pickVar); costs are even but one.
// When summing, a variable that a congruence confines to one residue
// class (strideClass) and that has one lower and one upper bound is
// summed in one chamber as the class x = M*x' + r alone, without a
// split: it costs what its bounds cost, plus 1 so that it loses ties.
// Ranked as a split it came last, and the k mod 2 set of issue 26
// summed j first, whose lower bounds 1 and k - i made two chambers, each
// with more bounds on i and k, in 8 pieces; k first leaves
// floor((i + j)/2), whose classes j and i sum in one chamber each, in 1
// piece. It loses ties because a summand with divs of another dimension
// can cost that dimension a split where its bounds are not plain (a part
// of random1 of the corpus, k >= j and k = 1 (mod 3): k first counted it
// in 24 pieces, j first, from n - 4 to k, in 16).
func (b *bset) elimCost(x int, sum bool) int64 {
	if m := b.splitModulus(x); m > 1 {
		if _, ok := b.strideClass(x, m); ok && sum && b.oneBoundEachWay(x) {
			return 2*b.boundsCost(x, sum) + 1
		}
		return 2 * (1<<40 + m)
	}
	for _, r := range b.eqs {
		if r[x] == 1 || r[x] == -1 {
			return 0
		}
	}
	for _, r := range b.eqs {
		if r[x] != 0 {
			return 2
		}
	}
	return 2 * b.boundsCost(x, sum)
}

// boundsCost ranks eliminating x by its bounds: the chambers their pairs
// make, and a penalty for coefficients other than ±1 and for a summand
// that uses x.
func (b *bset) boundsCost(x int, sum bool) int64 {
	var lows, ups, nonUnit int64
	for _, r := range b.ineqs {
		switch {
		case r[x] > 0:
			lows++
		case r[x] < 0:
			ups++
		}
		if r[x] > 1 || r[x] < -1 {
			nonUnit++
		}
	}
	if b.poly.usesCol(x) && sum {
		nonUnit++
	}
	cost := 2 + lows*ups
	if nonUnit > 0 {
		cost += 1000 + nonUnit
	}
	return cost
}

// sumUnsummed returns the pieces of sumClasses's chambers in order, each
// chamber it left unsummed summed over x the usual way.
func sumUnsummed(x int, chambers []classChamber) ([]*bset, error) {
	var out []*bset
	for _, c := range chambers {
		if c.unsummed == nil {
			out = append(out, c.sum...)
			continue
		}
		ps, err := c.unsummed.eliminate(x, true)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}
