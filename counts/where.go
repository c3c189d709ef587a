package counts

import "slices"

// where is the condition under which part of an instruction executes, as
// the counting plan sees it: the affine conditions that hold there (sets
// to intersect the domain with), and whether a condition that is not
// affine guards it too. The count of what executes under such a condition
// is an upper bound: it is counted as if the condition always held.
type where struct {
	conds []dnf
	upper bool
}

// and narrows w by condition c, or by its negation.
func (w where) and(c Expr, negate bool) where {
	d, ok := affineCond(c)
	if ok && negate {
		d, ok = d.not()
	}
	if !ok {
		return where{conds: w.conds, upper: true}
	}
	return where{conds: append(slices.Clone(w.conds), d), upper: w.upper}
}
