package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// nodes emits schedule nodes inside the sequential loops fixed.
// Consecutive instructions with the same guard share one if block, as a
// person writes them: a guard tests inames and parameters only, which no
// instruction changes.
func (e *emitter) nodes(nodes []counts.Node, fixed []string, depth int) error {
	open := "" // the guard of the if block still open
	closeGuard := func() {
		if open != "" {
			e.line(depth, "}")
			open = ""
		}
	}
	for _, n := range nodes {
		var err error
		switch n := n.(type) {
		case *counts.Loop:
			closeGuard()
			err = e.loop(n, fixed, depth)
		case *counts.Barrier:
			closeGuard()
			e.line(depth, "%s", e.d.barrier)
		case *counts.Instruction:
			var guard string
			if guard, err = e.dom.member(e.affineInames(n.Within), fixed); err != nil {
				return fmt.Errorf("instruction %s: %w", n.ID, err)
			}
			if guard != open {
				closeGuard()
				if guard != "" {
					e.line(depth, "if (%s) {", guard)
					open = guard
				}
			}
			body := depth
			if open != "" {
				body++
			}
			err = e.instruction(n, body)
		default:
			err = fmt.Errorf("unknown schedule node %T", n)
		}
		if err != nil {
			return err
		}
	}
	closeGuard()
	return nil
}

// loop emits a loop over a sequential iname. Where the domain bounds it
// by an affine function of a parallel iname that every instruction inside
// runs in, and no barrier stands inside, its bounds are those of each
// work-item: a loop
// "for j2 = j1 + 1 ..." of work-item j1 starts at j1 + 1, as the user
// wrote it, rather than at the least value of any work-item with the
// others masked; inside, those inames' values lie in the domain projected
// onto them with the loop's, which simplifies the guards. Otherwise the
// bounds depend on sequential inames only: every work-item of a group
// reaches the barriers inside, and a CPU OpenCL runs a loop that all
// work-items share with the work-items' loop inside it, vectorized.
func (e *emitter) loop(l *counts.Loop, fixed []string, depth int) error {
	if d := e.k.Iname(l.Iname).Data; d != nil {
		return e.dataLoop(l, d, fixed, depth)
	}
	lanes := e.lanes(l.Body, fixed)
	lb, err := e.dom.loop(l.Iname, fixed, lanes)
	if err == nil && len(lanes) > 0 && !perLane(lb, lanes) {
		lanes = nil
		lb, err = e.dom.loop(l.Iname, fixed, nil)
	}
	if err != nil {
		return fmt.Errorf("loop over %s: %w", l.Iname, err)
	}
	body, closeLoop := e.openLoop(l.Iname, lb, depth)
	inner := append(slices.Concat(fixed, lanes), l.Iname)
	if err := e.nodes(l.Body, inameOrder(e.k, inner), body); err != nil {
		return err
	}
	closeLoop()
	return nil
}

// dataLoop emits a data-bounded loop as C's plain loop over its bounds,
// for (j = LO; j < HI; ++j), j being the private temporary that holds its
// value (or for (int j = L; ...) where the iname is j), inside the guard of the work-items that every statement inside
// runs on (the bounds are theirs: C's if (row < dim) { ... }). Its iname,
// the trip that counts bound by the loop's max, never reaches the code:
// the statements inside are guarded by their other inames
// (affineInames), as the trips the domain allows are the ones the loop
// runs.
func (e *emitter) dataLoop(l *counts.Loop, d *counts.DataBounds, fixed []string, depth int) error {
	lanes := e.lanes(l.Body, fixed)
	guard, err := e.dom.member(lanes, fixed)
	if err != nil {
		return fmt.Errorf("loop over %s: %w", l.Iname, err)
	}
	if guard != "" {
		e.line(depth, "if (%s) {", guard)
		defer e.line(depth, "}")
		depth++
	}
	lo, err := e.expr(d.Lo, fixed, depth)
	if err != nil {
		return fmt.Errorf("loop over %s: %w", l.Iname, err)
	}
	hi, err := e.expr(d.Hi, fixed, depth)
	if err != nil {
		return fmt.Errorf("loop over %s: %w", l.Iname, err)
	}
	j := l.Iname
	if d.Value == nil {
		j = "int " + j // the iname is j itself, declared by the loop
	}
	e.line(depth, "for (%s = %s; %s < %s; ++%s) {", j, unwrapped(lo), l.Iname, hi, l.Iname)
	if err := e.nodes(l.Body, inameOrder(e.k, slices.Concat(fixed, lanes)), depth+1); err != nil {
		return err
	}
	e.line(depth, "}")
	return nil
}

// affineInames are inames without those of data-bounded loops, whose
// values are the loops' and lie in no domain.
func (e *emitter) affineInames(inames []string) []string {
	return slices.DeleteFunc(slices.Clone(inames), func(n string) bool { return e.k.Iname(n).Data != nil })
}

// lanes are the parallel inames, not among known, that every instruction
// in nodes runs in; none where a barrier stands among them.
func (e *emitter) lanes(nodes []counts.Node, known []string) []string {
	var common []string
	first := true
	var walk func(nodes []counts.Node) bool
	walk = func(nodes []counts.Node) bool {
		for _, n := range nodes {
			switch n := n.(type) {
			case *counts.Barrier:
				return false
			case *counts.Loop:
				if !walk(n.Body) {
					return false
				}
			case *counts.Instruction:
				var par []string
				for _, x := range n.Within {
					if in := e.k.Iname(x); in != nil && in.Tag.Parallel() && !slices.Contains(known, x) {
						par = append(par, x)
					}
				}
				if first {
					common, first = par, false
				} else {
					common = slices.DeleteFunc(common, func(x string) bool { return !slices.Contains(par, x) })
				}
			}
		}
		return true
	}
	if !walk(nodes) {
		return nil
	}
	return common
}

// instruction emits an assignment, inside its guard (see nodes), guarded
// by its predicate, with its reductions hoisted into loops before it.
func (e *emitter) instruction(ins *counts.Instruction, depth int) error {
	var closers []int
	body := depth
	e.line(body, "/* %s */", ins.ID)
	if ins.Pred != nil {
		pred, err := e.expr(ins.Pred, ins.Within, body)
		if err != nil {
			return fmt.Errorf("instruction %s: %w", ins.ID, err)
		}
		e.line(body, "if (%s) {", unwrapped(pred))
		closers = append(closers, body)
		body++
	}
	rhs, err := e.expr(ins.RHS, ins.Within, body)
	if err != nil {
		return fmt.Errorf("instruction %s: %w", ins.ID, err)
	}
	lhs, err := e.subscripted(ins.LHS, ins.Within, body)
	if err != nil {
		return fmt.Errorf("instruction %s: %w", ins.ID, err)
	}
	switch {
	case ins.Atomic:
		e.line(body, "%s", e.atomicAdd(ins.LHS, lhs, rhs))
	case ins.LHS.Array.DType == counts.F16:
		e.line(body, "%s", e.halfStore(ins.LHS, lhs, rhs, ins.RHS.Type()))
	default:
		e.line(body, "%s = %s;", lhs, rhs)
	}
	for i := len(closers) - 1; i >= 0; i-- {
		e.line(closers[i], "}")
	}
	return nil
}

// perLane reports whether bounds computed with the lanes known are the
// ones a person writes for each work-item: one range, without divisions
// (a prefetch's split, whose per-lane bounds read -floordiv(r_in, 16)) or
// conditionals, that depends on the lanes.
func perLane(lb loopBounds, lanes []string) bool {
	b := lb.lo + " " + lb.hi
	return lb.filter == "" && !strings.ContainsAny(b, "/?") && !strings.Contains(b, "floordiv(") && mentions(b, lanes)
}

// mentions reports whether C source s names any of names.
func mentions(s string, names []string) bool {
	return anyIdent(s, func(name string, _ bool) bool { return slices.Contains(names, name) })
}

// inameOrder sorts names by their position among the kernel's inames.
func inameOrder(k *counts.Kernel, names []string) []string {
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int {
		return slices.IndexFunc(k.Inames, func(x *counts.Iname) bool { return x.Name == a }) -
			slices.IndexFunc(k.Inames, func(x *counts.Iname) bool { return x.Name == b })
	})
	return out
}
