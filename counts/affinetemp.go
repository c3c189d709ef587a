package counts

import "slices"

// C code names a subscript before it uses it: SHOC's ELLPACK-R SpMV
// writes int ind = i*dim + t; then val[ind] and vec[cols[ind]], and a
// compiler sees through ind to the affine address. The resolver does the
// same: a private integer scalar temporary that holds an affine value of
// inames, parameters and consts is written in place of its name wherever
// an affine expression is resolved (subscripts, and the comparisons of
// conditions), so that val[ind] counts as val[i*dim + t] does, with its
// stride and footprint, not as a gather. That holds where the value the
// temporary holds at the use is that expression for the use's own
// inames, which the resolver checks:
//
//   - the temporary is a scalar of type i32 or i64 (a narrower or an
//     unsigned one wraps, an affine subscript does not), declared by
//     <i32> NAME = ... or <> NAME = ..., and assigned by that statement
//     alone (ind = ind + 1 in a loop makes its value depend on the trip,
//     and a read of it stays a gather);
//   - its value is affine: inames, parameters, consts, integer literals,
//     + - *, // and % by constants, and other such temporaries (what a
//     subscript may hold in place), reading no array;
//   - each sequential iname the value names comes from a for block around
//     the declaration that is also around the use (the same block, not
//     another loop over the same iname), and each condition of the if
//     blocks around the declaration holds around the use: the use sees
//     the value assigned in its own trip.
//
// A use that fails these reads the temporary, as before: an indirect
// access. Only the classification changes: the declaration still counts
// its integer operations once, where it is, and the use counts none for
// the temporary, as a read of a temporary did; with
// Options.CountSubscripts the subscript's arithmetic counts, as that of
// the expression written in place does. A condition compares the value
// as an i32 index, so the substitution there is for i32 temporaries.

// assigns reports whether statement s assigns the array or temporary
// name.
func assigns(s rawStatement, name string) bool {
	switch l := s.lhs.(type) {
	case *rName:
		return l.t.text == name
	case *rSub:
		return l.t.text == name
	}
	return false
}

// affineAt returns the affine temporary name where the statement being
// resolved may use its value in place of its name, and nil where not.
func (r *resolver) affineAt(name string) *affineTemp {
	t := r.affineTemps[name]
	if t == nil || r.cur == nil {
		return nil
	}
	for _, n := range t.inames {
		if r.k.inameIndex[n].Tag.Parallel() {
			continue // a work-item has one value of it, in every block
		}
		decl, ok := r.loopOf(t.loops, n)
		if !ok {
			return nil
		}
		use, ok := r.loopOf(r.cur.inames, n)
		if !ok || use != decl {
			return nil
		}
	}
	for _, p := range t.preds {
		if !slices.ContainsFunc(r.cur.preds, func(q rexpr) bool { return samePred(p, q) }) {
			return nil
		}
	}
	return t
}

// loopOf returns the for-block iname among loops that iname n is, or
// one of the parts it was split into.
func (r *resolver) loopOf(loops []token, n string) (token, bool) {
	for _, l := range loops {
		if l.text == n {
			return l, true
		}
		for _, t := range r.expand[l.text].Terms {
			if t.Name == n {
				return l, true
			}
		}
	}
	return token{}, false
}

// namesAffineTemp reports whether subscript e names a temporary whose
// value the statement being resolved uses in its place.
func (r *resolver) namesAffineTemp(e rexpr) bool {
	found := false
	walkRaw(e, func(x rexpr) {
		if n, ok := x.(*rName); ok && r.affineAt(n.t.text) != nil {
			found = true
		}
	})
	return found
}

// samePred reports whether two conditions are those of one if block
// branch: the same expression, or the negation of the same one.
func samePred(p, q rexpr) bool {
	if p == q {
		return true
	}
	np, ok1 := p.(*rUnary)
	nq, ok2 := q.(*rUnary)
	return ok1 && ok2 && np.op == "not" && nq.op == "not" && np.x == nq.x
}
