package polyhedra

import (
	"errors"
	"fmt"
	"slices"
)

// UnboundedError reports a set with infinitely many points for some
// parameter values: Dim has no lower or no upper bound.
type UnboundedError struct {
	Dim string
}

func (e *UnboundedError) Error() string {
	return fmt.Sprintf("set is unbounded: dimension %s has no lower or no upper bound for some parameter values", e.Dim)
}

// Card returns the number of integer points of s as a piecewise
// quasi-polynomial in the parameters. It fails with *UnboundedError when
// the count is infinite for some parameter values, naming the dimension,
// and with *BudgetError past the default Limits.
//
// The union is first made disjoint; each basic set is then summed one
// dimension at a time (see the package documentation).
func (s *Set) Card() (*PwQPolynomial, error) { return s.CardLimits(Limits{}) }

// CardLimits is Card within the given limits; a *BudgetError names the
// limit and s.
func (s *Set) CardLimits(l Limits) (q *PwQPolynomial, err error) {
	defer catch(&err, "counting")
	var pieces []*bset
	work := newBudget(l)
	work.subject = s.String
	// disjointParts returns copies, which counting may change.
	for _, c := range disjointParts(s.parts, work) {
		work.charge(1)
		c.poly = polyInt(1)
		c.work = work
		ps, err := countCompressed(c, s.dims)
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, ps...)
	}
	return newPwQP(s.params, pieces, work), nil
}

// countCompressed counts c with its parameter congruences compressed
// (see congruences), and c as it is where compressing or mapping the
// pieces back overflows: the rows scaled by the moduli can, where
// counting without them does not.
func countCompressed(c *bset, dims []string) ([]*bset, error) {
	gs := c.congruences()
	if len(gs) == 0 {
		return countPart(c, dims)
	}
	z := c.clone()
	var ps []*bset
	var err error
	if tryNoOverflow(func() {
		for _, g := range gs {
			z.compress(g)
		}
		if !z.normalize() {
			return
		}
		if ps, err = countPart(z, dims); err != nil {
			return
		}
		for _, p := range ps {
			for _, g := range slices.Backward(gs) {
				p.decompress(g)
			}
		}
	}) {
		return ps, err
	}
	return countPart(c, dims)
}

// countPart counts a basic set with poly 1: its tiles merged, its
// bounds made fewer where they hide tiles, the equalities it implies
// made explicit, then summed dimension by dimension (countBset).
func countPart(c *bset, dims []string) ([]*bset, error) {
	dims, blocked := compressTiles(c, slices.Clone(dims))
	if c.nd >= 2 && (blocked || c.severalBounds()) {
		// A redundant bound (g < ceil(n/256) next to 256g + l < n)
		// hides a tile; fewer bounds also mean fewer chambers.
		// Testing every bound took a seventh of the time of counting
		// matmul_tiled, whose tiles all merge into a box at once, so
		// it is done only where a tile's box failed to merge or a
		// dimension has chambers to split. Testing only the bounds
		// of such dimensions left footprints' bounding boxes 6 to 25
		// times slower to count.
		c.dropRedundant()
		dims, _ = compressTiles(c, dims)
	}
	// A set whose points lie on a hyperplane that no constraint
	// states (the first set of issue 26 has points only at n = 0,
	// where -2 <= i < j <= 2n - 1 pins i, j and k) is counted in its
	// rational relaxation's chambers otherwise: tens of pieces that
	// simplify to one, in 50 ms where this takes 0.2 ms.
	if c.tightenToEqualities() && !c.normalize() {
		return nil, nil
	}
	return countBset(c, dims)
}

// countBset sums b.poly over all dimensions of b and returns the pieces,
// bsets without dimensions whose polys add up to the sum.
func countBset(b *bset, dims []string) ([]*bset, error) {
	if b.nd == 0 {
		// newPwQP normalizes the pieces and drops the empty ones.
		if b.poly.isZero() {
			return nil, nil
		}
		b.work = nil
		return []*bset{b}, nil
	}
	if !b.normalize() {
		return nil, nil
	}
	x := b.pickVar(b.firstDim(), b.firstDiv(), true)
	name := dims[x-b.firstDim()]
	parts, err := b.eliminate(x, true)
	if errors.Is(err, errUnbounded) {
		return nil, &UnboundedError{Dim: name}
	}
	var ce *ComplexityError
	if errors.As(err, &ce) && ce.Dim == "" {
		ce.Dim = name
	}
	if err != nil {
		return nil, err
	}
	rest := slices.Delete(slices.Clone(dims), x-1-b.np, x-b.np)
	var out []*bset
	for _, p := range parts {
		names := rest
		for len(names) < p.nd { // dimensions lifted from divs
			names = append(slices.Clone(names), "floor of "+name)
		}
		ps, err := countBset(p, names)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

// severalBounds reports whether a dimension has several lower or several
// upper bounds.
func (b *bset) severalBounds() bool {
	for x := b.firstDim(); x < b.firstDiv(); x++ {
		if lower, upper := signCounts(b.ineqs, x); lower > 1 || upper > 1 {
			return true
		}
	}
	return false
}

// compressTiles merges tiled pairs of dimensions before counting. Let
// dimension ii occur without io only in a box a <= ii <= a + T - 1 (a
// affine in other columns, without divs). Write ii = i - T*io: if io then
// occurs nowhere but in the box, which reads a <= i - T*io <= a + T - 1,
// then for every i exactly one io satisfies it, so the count is that of
// the set over i with the box and io dropped, and it needs no residue
// classes. A tiled matmul domain becomes a plain box this way; a
// condition on ii mod 2 with a tile size of 256 becomes one on i mod 2.
// b.poly must not use the dimensions (it is 1 when counting starts).
// It also reports whether a dimension had the box of a tile that could
// not be merged.
func compressTiles(b *bset, dims []string) ([]string, bool) {
	for {
		c, io, blocked := b.findTile()
		if c == nil {
			return dims, blocked
		}
		*b = *c
		b.deleteCol(io)
		dims = slices.Delete(dims, io-b.firstDim(), io-b.firstDim()+1)
	}
}

// findTile looks for a pair (ii, io) that compressTiles may merge and
// returns b with ii replaced by i - T*io and the box dropped, io unused;
// if there is none, c is nil and blocked says whether some pair had the
// box.
func (b *bset) findTile() (c *bset, io int, blocked bool) {
	for ii := b.firstDim(); ii < b.firstDiv(); ii++ {
		for io := b.firstDim(); io < b.firstDiv(); io++ {
			if io == ii {
				continue
			}
			c, ok, boxed := b.tile(ii, io)
			if ok {
				return c, io, false
			}
			blocked = blocked || boxed
		}
	}
	return nil, 0, blocked
}

// tile merges the pair (ii, io) if it can; boxed reports whether ii has
// the box of a tile without io.
func (b *bset) tile(ii, io int) (c *bset, ok, boxed bool) {
	var lo, hi []int64
	for _, r := range b.ineqs {
		if r[ii] == 0 || r[io] != 0 {
			continue
		}
		switch {
		case r[ii] == 1 && lo == nil:
			lo = r
		case r[ii] == -1 && hi == nil:
			hi = r
		default:
			return nil, false, false
		}
	}
	if lo == nil || hi == nil {
		return nil, false, false
	}
	for c := 1; c < len(lo); c++ {
		if lo[c]+hi[c] != 0 || (c >= b.firstDiv() && lo[c] != 0) {
			return nil, false, false
		}
	}
	t0 := add64(add64(lo[0], hi[0]), 1)
	if t0 < 1 {
		return nil, false, false
	}
	if c, ok := b.tileWith(ii, io, lo, hi, t0); ok {
		return c, true, false
	}
	// With a congruence ii = r (mod m), normalisation moved the box's
	// bounds to values of that class: 0 <= l < 256 with l even reads
	// 0 <= l <= 254. A wider tile T fits as well when every value the
	// box lost violates the congruence.
	m, r, ok := b.congruenceOf(ii)
	if !ok || !onlyCol(lo, ii) {
		return nil, false, true
	}
	a := neg64(lo[0])
	for t := t0 + 1; t < t0+m; t++ {
		fits := true
		for v := a + t0; v < a+t; v++ {
			fits = fits && floorMod(v-r, m) != 0
		}
		if !fits {
			continue
		}
		if c, ok := b.tileWith(ii, io, lo, hi, t); ok {
			return c, true, false
		}
	}
	return nil, false, true
}

// tileWith substitutes ii = i - t*io and drops the box lo, hi; it
// succeeds when io is then unused. A bound on io alone is first
// rewritten as a bound on i, which is what projecting the inner variable
// of a tile leaves (io >= 0 and 16io < n from 0 <= 16io + ii < n).
func (b *bset) tileWith(ii, io int, lo, hi []int64, t int64) (*bset, bool) {
	c := b.clone()
	var rest [][]int64
	for _, r := range c.ineqs {
		if !equalRows(r, lo) && !equalRows(r, hi) {
			rest = append(rest, r)
		}
	}
	c.ineqs = rest
	for k := range c.ineqs {
		if r := c.ineqs[k]; r[ii] == 0 && r[io] != 0 {
			if n, ok := c.tileBound(r, ii, io, lo, t); ok {
				c.ineqs[k] = n
			}
		}
	}
	e := c.unit(ii, 1)
	e[io] = neg64(t)
	c.substitute(ii, e)
	c.normalizeDivs()
	if c.usesCol(io) {
		return nil, false
	}
	return c, true
}

// tileBound rewrites s*k*io + R >= 0 (s = ±1, k > 0, R free of io
// and ii) as a bound on i = t*io + ii. With the box ii + L >= 0 (lo) and
// ii <= t - 1 - L, io = floor((i + L)/t); with F = floor(R/k) (R itself
// for k = 1), io >= -F reads i + L + t*F >= 0 and io <= F reads
// t*F + t - 1 - i - L >= 0. i is written t*io + ii, which the
// substitution then turns into i. For k > 1, F is a div, and only one of
// the parameters: a div of a dimension would cost residue classes later.
func (c *bset) tileBound(r []int64, ii, io int, lo []int64, t int64) ([]int64, bool) {
	s, k := int64(1), r[io]
	if k < 0 {
		s, k = -1, -k
	}
	f := copyRow(r)
	f[io] = 0
	if k > 1 {
		for col := c.firstDim(); col < len(f); col++ {
			if f[col] != 0 {
				return nil, false
			}
		}
		f = c.floorExpr(f, k) // may add a column
	}
	n := c.newRow()
	addScaled(n, t, c.fit(f))
	noii := c.fit(copyRow(lo))
	noii[ii] = 0
	addScaled(n, s, noii)
	if s < 0 {
		n[0] = add64(n[0], t-1)
	}
	n[io] = add64(n[io], s*t)
	n[ii] = add64(n[ii], s)
	return n, true
}
