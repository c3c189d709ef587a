package counts

import "slices"

// This file assigns the local axes of inames tagged l.auto per
// instruction, as loopy's assign_automatic_axes does.

// autoTags gives the inames tagged l.auto local axes instruction by
// instruction, in textual order: among the l.auto inames an instruction
// uses that have no axis yet, the one that is the last subscript of one
// of its array references (the unit-stride one) comes first, then the
// others in the order of their tags, and each takes the lowest axis that
// no other iname of the instruction has. Two inames that never meet in
// an instruction may share an axis. An l.auto iname that no instruction
// uses takes the lowest axis no l.N tag takes. Like loopy, it needs each
// iname's extent to be a constant: the work-group size follows from it.
func (r *resolver) autoTags() error {
	var auto []rawTag
	for _, t := range r.b.tags {
		if !t.auto {
			continue
		}
		n := t.iname.text
		if lo, hi, ok := r.k.ConstantRange(n); !ok || hi < lo {
			return r.errf(t.iname.pos, "tag %s l.auto: the extent of %s depends on the parameters, so no work-group size follows from it; split it and tag the parts: split %s 64 %s_out %s_in, tag %s_out g.0, %s_in l.0", n, n, n, n, n, n, n)
		}
		auto = append(auto, t)
	}
	isAuto := func(n string) bool {
		return slices.ContainsFunc(auto, func(t rawTag) bool { return t.iname.text == n })
	}
	assigned := map[string]bool{}
	assign := func(t rawTag, taken [3]bool) error {
		axis := slices.Index(taken[:], false)
		if axis < 0 {
			return r.errf(t.iname.pos, "tag %s l.auto: local axes 0, 1 and 2 are all taken (by l.N tags, or by the other inames of an instruction that uses it); tag it seq or l.N", t.iname.text)
		}
		r.k.inameIndex[t.iname.text].Tag = Tag{Kind: LocalID, Axis: axis}
		assigned[t.iname.text] = true
		return nil
	}
	for _, s := range r.b.statements {
		if s.lhs == nil {
			continue
		}
		names, unit := r.statementNames(s)
		var taken [3]bool
		for _, n := range names {
			if in := r.k.inameIndex[n]; in != nil && in.Tag.Kind == LocalID && (!isAuto(n) || assigned[n]) {
				taken[in.Tag.Axis] = true
			}
		}
		order := slices.Clone(auto)
		slices.SortStableFunc(order, func(a, b rawTag) int {
			return boolRank(slices.Contains(unit, b.iname.text)) - boolRank(slices.Contains(unit, a.iname.text))
		})
		for _, t := range order {
			if assigned[t.iname.text] || !slices.Contains(names, t.iname.text) {
				continue
			}
			if err := assign(t, taken); err != nil {
				return err
			}
			taken[r.k.inameIndex[t.iname.text].Tag.Axis] = true
		}
	}
	var taken [3]bool
	for _, in := range r.k.Inames {
		if in.Tag.Kind == LocalID && (!isAuto(in.Name) || assigned[in.Name]) {
			taken[in.Tag.Axis] = true
		}
	}
	for _, t := range auto {
		if !assigned[t.iname.text] {
			if err := assign(t, taken); err != nil {
				return err
			}
		}
	}
	return nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// statementNames returns the inames a raw instruction uses, split inames
// replaced by their parts, and those that are the last subscript of one
// of its references.
func (r *resolver) statementNames(s rawStatement) (names, unit []string) {
	add := func(dst []string, n string) []string {
		parts := []string{n}
		if e, ok := r.expand[n]; ok {
			parts = parts[:0]
			for _, t := range e.Terms {
				parts = append(parts, t.Name)
			}
		}
		for _, p := range parts {
			if r.k.inameIndex[p] != nil && !slices.Contains(dst, p) {
				dst = append(dst, p)
			}
		}
		return dst
	}
	var walk func(e rexpr)
	walk = func(e rexpr) {
		switch e := e.(type) {
		case *rName:
			names = add(names, e.t.text)
		case *rSub:
			for _, x := range e.idx {
				walk(x)
			}
			if len(e.idx) == 0 {
				break
			}
			if last, ok := e.idx[len(e.idx)-1].(*rName); ok {
				unit = add(unit, last.t.text)
			}
		case *rBin:
			walk(e.x)
			walk(e.y)
		case *rNeg:
			walk(e.x)
		case *rUnary:
			walk(e.x)
		case *rCall:
			for _, x := range e.args {
				walk(x)
			}
		case *rReduce:
			for _, t := range e.inames {
				names = add(names, t.text)
			}
			walk(e.body)
		}
	}
	walk(s.lhs)
	walk(s.rhs)
	for _, p := range s.preds {
		walk(p)
	}
	for _, t := range append(statementInames(s), s.condNames...) {
		names = add(names, t.text)
	}
	return names, unit
}
