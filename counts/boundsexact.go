package counts

import (
	"errors"
	"fmt"
	"math"

	"github.com/uniperf/uniperf/polyhedra"
)

// This file finds the range of a subscript without enumerating its
// domain: with every parameter fixed, any affine subscript, flattened
// ones too (a[i*n + j] is 4096*i + j at n = 4096), is affine in the
// inames, and its values over the domain are a set of one dimension
// that package polyhedra projects exactly. Its least and greatest values
// are found by bisection on whether the set has a value below (above) a
// bound, an exact emptiness test each.

// exactRange returns the least and greatest value of subscript ix over
// the execution domain of b at params, as indexRange does; ok is false
// where b never runs.
func (c *Counted) exactRange(b boundedAccess, ix Affine, params map[string]int64) (lo, hi int64, ok bool, err error) {
	u, err := c.indexSet(b, ix, params)
	if err != nil {
		return 0, 0, false, err
	}
	t := indexDim
	lim := c.plan.opts.Limits
	if u, err = u.fixed(params); err != nil {
		return 0, 0, false, err
	}
	s, err := polyhedra.ParseSetLimits(u.isl(nil), lim)
	if err != nil {
		return 0, 0, false, err
	}
	// has reports whether s has a value t <= m (below) or t >= m.
	has := func(m int64, below bool) (bool, error) {
		cond := fmt.Sprintf("%s >= %d", t, m)
		if below {
			cond = fmt.Sprintf("%s <= %d", t, m)
		}
		side, err := polyhedra.ParseSetLimits(islSet(nil, []string{t}, cond), lim)
		if err != nil {
			return false, err
		}
		in, err := polyhedra.Intersect(s, side)
		if err != nil {
			return false, err
		}
		empty, err := in.IsEmpty()
		return !empty, err
	}
	// The values lie within ±2^62: the subscript's coefficients and the
	// domain's bounds are int64, and a value beyond is an overflow.
	const wide = math.MaxInt64 / 2
	if ok, err = has(wide, true); err != nil || !ok {
		return 0, 0, false, err
	}
	if beyond, err := has(-wide, true); err != nil || beyond {
		return 0, 0, false, errors.Join(err, fmt.Errorf("%s takes values below %d: %w", ix, -wide, errOverflow))
	}
	if beyond, err := has(wide, false); err != nil || beyond {
		return 0, 0, false, errors.Join(err, fmt.Errorf("%s takes values above %d: %w", ix, wide, errOverflow))
	}
	// lo is the least m with a value <= m, hi the greatest with one >= m.
	if lo, err = bisect(-wide, wide, func(m int64) (bool, error) { return has(m, true) }); err != nil {
		return 0, 0, false, err
	}
	hi, err = bisect(-wide, wide, func(m int64) (bool, error) { above, err := has(m+1, false); return !above, err })
	return lo, hi, true, err
}

// bisect returns the least m in lo..hi at which the monotone f holds,
// given that it holds at hi.
func bisect(lo, hi int64, f func(int64) (bool, error)) (int64, error) {
	for lo < hi {
		mid := lo + (hi-lo)/2
		ok, err := f(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, nil
}
