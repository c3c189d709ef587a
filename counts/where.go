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

// and narrows w by condition c, or by its negation. A conjunction that
// is not affine as a whole is narrowed by each of its parts, so that its
// affine parts still bound what its data-dependent ones leave open
// (i < 4 and a[i] > 0 holds at most where i < 4).
func (w where) and(c Expr, negate bool) where {
	d, ok := affineCond(c)
	if ok && negate {
		d, ok = d.not()
	}
	if ok {
		return where{conds: append(slices.Clone(w.conds), d), upper: w.upper}
	}
	switch c := c.(type) {
	case *Not:
		return w.and(c.X, !negate)
	case *Logic:
		if c.Or == negate { // X and Y, or not (X or Y)
			if n, ok := w.andEach(logicOperands(c), negate); ok {
				return n
			}
		}
	}
	return where{conds: w.conds, upper: true}
}

// andEach narrows w by each condition in turn (or by each negation), or
// returns false once the intersection exceeds maxDisjuncts.
func (w where) andEach(cs []Expr, negate bool) (where, bool) {
	for _, c := range cs {
		if w = w.and(c, negate); w.disjuncts() > maxDisjuncts {
			return w, false
		}
	}
	return w, true
}

// disjuncts is the number of disjuncts of the intersection of w's
// conditions.
func (w where) disjuncts() int {
	n := 1
	for _, d := range w.conds {
		n *= len(d)
		if n > maxDisjuncts {
			return n
		}
	}
	return n
}
