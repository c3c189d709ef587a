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
	n := where{conds: slices.Clone(w.conds), upper: w.upper}
	n.narrow(c, negate)
	return n
}

// narrow is and in place: it appends to conditions that w owns, so that a
// chain of n conditions is linear in n (cloning them at every step made a
// flat chain of and quadratic). A conjunction whose intersection exceeds
// maxDisjuncts leaves w as it found it, but for upper.
func (w *where) narrow(c Expr, negate bool) {
	if held := heldCond(c); held != nil {
		c = held
	}
	d, ok := affineCond(c)
	if ok && negate {
		d, ok = d.not()
	}
	if ok {
		w.conds = append(w.conds, d)
		return
	}
	switch c := c.(type) {
	case *Not:
		w.narrow(c.X, !negate)
		return
	case *Logic:
		if c.Or == negate { // X and Y, or not (X or Y)
			w.narrowEach(logicOperands(c), negate)
			return
		}
	}
	w.upper = true
}

// narrowEach narrows w by each condition in turn (or by each negation);
// past maxDisjuncts it takes back what it added and marks w an upper
// bound.
func (w *where) narrowEach(cs []Expr, negate bool) {
	start, n := len(w.conds), w.disjuncts()
	for _, c := range cs {
		k := len(w.conds)
		w.narrow(c, negate)
		if n = w.disjunctsFrom(n, k); n > maxDisjuncts {
			w.conds, w.upper = w.conds[:start], true
			return
		}
	}
}

// disjuncts is the number of disjuncts of the intersection of w's
// conditions, or a number past maxDisjuncts.
func (w where) disjuncts() int { return w.disjunctsFrom(1, 0) }

// disjunctsFrom is disjuncts given n, that of w's first k conditions, so
// that a chain growing one condition at a time is counted in linear time.
func (w where) disjunctsFrom(n, k int) int {
	for _, d := range w.conds[k:] {
		if n > maxDisjuncts {
			break
		}
		n *= len(d)
	}
	return n
}

// heldCond returns the condition that c tests through an if block's
// temporary (c is "ifcond_L_C != 0"), or nil. The temporary holds the
// condition where the block starts, and what the condition reads that
// can bound a count (inames and parameters) no statement changes, so its
// affine parts bound the statements that test it as they bound the
// condition itself.
func heldCond(c Expr) Expr {
	cmp, ok := c.(*Compare)
	if !ok || cmp.Op != CmpNE {
		return nil
	}
	if a, ok := cmp.X.(*Access); ok {
		return a.held
	}
	return nil
}
