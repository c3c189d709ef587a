package counts

import "slices"

// This file answers the bounds check's question itself where the box of
// boundsenclose.go cannot: whether a subscript reaches below 0 or past
// its extent anywhere in its access's domain, one search of the domain
// under that one more constraint for each side. The subscript's range
// (indexRange) is then needed only for the message of an access that
// does reach outside. The range's scan refutes the values near the ends
// of a bounding interval one search each; where affine guards cut those
// ends away (an imported tiled convolution whose tiles overhang the
// image, its loads under if (y < input_height && x < input_width)), the
// scan took seconds a configuration, where projection takes
// milliseconds or, for some tile sizes, gives up.

// reachesOutside reports whether subscript ix of b takes a value outside
// 0..ext-1 anywhere in b's execution domain at params. decided is false
// where the question could not be put or a search stopped at its budget
// (budget steps and as many searches): the caller then finds the range.
func (c *Counted) reachesOutside(b boundedAccess, ix Affine, params map[string]int64, ext, budget int64) (outside, decided bool) {
	q, err := ix.at(params)
	if err != nil {
		return false, false
	}
	pieces, err := c.accessDomain(b)
	if err != nil {
		return false, false
	}
	below, err := qconst(-1).addScaled(q, -1)
	if err != nil {
		return false, false
	}
	above, err := q.addScaled(qconst(ext), -1)
	if err != nil {
		return false, false
	}
	for _, side := range []qaff{below, above} {
		u := &uset{}
		for _, pc := range pieces {
			u.pieces = append(u.pieces, piece{exists: pc.exists, c: append(slices.Clone(pc.c), cons{e: side})})
		}
		found, err := c.hasPoint(u, params, budget)
		if err != nil {
			return false, false
		}
		if found {
			return true, true
		}
	}
	return false, true
}

// hasPoint reports whether the set u of no dimensions (its variables all
// existential) has a point at params, within budget steps and searches.
func (c *Counted) hasPoint(u *uset, params map[string]int64, budget int64) (found bool, err error) {
	defer recoverRun(&err)
	qu, err := u.query(c.k.File, c.k.Params, params, budget)
	if err != nil {
		return false, err
	}
	qu.searches, qu.limited = budget, true
	return qu.member(slices.Clone(qu.e.base)), nil
}
