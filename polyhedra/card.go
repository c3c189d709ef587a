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
// the count is infinite for some parameter values, naming the dimension.
//
// The union is first made disjoint; each basic set is then summed one
// dimension at a time (see the package documentation).
func (s *Set) Card() (q *PwQPolynomial, err error) {
	defer catch(&err, "counting")
	var pieces []*bset
	work := &budget{}
	for _, p := range disjointParts(s.parts) {
		c := p.clone()
		c.poly = polyInt(1)
		c.work = work
		dims := slices.Clone(s.dims)
		dims = compressTiles(c, dims)
		ps, err := countBset(c, dims)
		if err != nil {
			return nil, err
		}
		pieces = append(pieces, ps...)
	}
	return newPwQP(s.params, pieces), nil
}

// countBset sums b.poly over all dimensions of b and returns the pieces,
// bsets without dimensions whose polys add up to the sum.
func countBset(b *bset, dims []string) ([]*bset, error) {
	if b.nd == 0 {
		if !b.normalize() || b.provablyEmpty() || b.poly.isZero() {
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

// compressTiles merges tiled pairs of dimensions before counting. If
// dimension ii occurs without io only in a box a <= ii <= a + T - 1 (a
// affine in the other columns, without divs) and everywhere else only
// together with io as c*(T*io + ii), then (io, ii) -> T*io + ii maps the
// set one-to-one onto the set with the box dropped and T*io + ii replaced
// by one dimension, which therefore has the same count and needs no
// residue classes. A tiled matmul domain becomes a plain box this way.
// b.poly must not use the dimensions (it is 1 when counting starts).
func compressTiles(b *bset, dims []string) []string {
	for {
		ii, io, ok := b.findTile()
		if !ok {
			return dims
		}
		var ineqs [][]int64
		for _, r := range b.ineqs {
			if r[io] == 0 && r[ii] != 0 {
				continue // the box
			}
			ineqs = append(ineqs, r)
		}
		b.ineqs = ineqs
		fold := func(r []int64) {
			r[io] = r[ii]
			r[ii] = 0
		}
		for _, r := range b.eqs {
			fold(r)
		}
		for _, r := range b.ineqs {
			fold(r)
		}
		for k := range b.divs {
			fold(b.divs[k].num)
		}
		b.deleteCol(ii)
		dims = slices.Delete(dims, ii-b.firstDim(), ii-b.firstDim()+1)
		b.normalizeDivs()
	}
}

// findTile looks for a pair (ii, io) that compressTiles may merge.
func (b *bset) findTile() (ii, io int, ok bool) {
	for ii = b.firstDim(); ii < b.firstDiv(); ii++ {
		for io = b.firstDim(); io < b.firstDiv(); io++ {
			if io != ii && b.isTile(ii, io) {
				return ii, io, true
			}
		}
	}
	return 0, 0, false
}

func (b *bset) isTile(ii, io int) bool {
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
			return false
		}
	}
	if lo == nil || hi == nil {
		return false
	}
	for c := 1; c < len(lo); c++ {
		if lo[c]+hi[c] != 0 || (c >= b.firstDiv() && lo[c] != 0) {
			return false
		}
	}
	t := add64(add64(lo[0], hi[0]), 1)
	if t < 1 {
		return false
	}
	linked := func(r []int64) bool { return r[io] == mul64(t, r[ii]) }
	for _, r := range b.eqs {
		if !linked(r) {
			return false
		}
	}
	for _, r := range b.ineqs {
		if !(r[io] == 0 && r[ii] != 0) && !linked(r) {
			return false
		}
	}
	for _, d := range b.divs {
		if !linked(d.num) {
			return false
		}
	}
	return true
}
