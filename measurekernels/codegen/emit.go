package codegen

import (
	"fmt"
	"slices"

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
			if guard, err = e.dom.member(n.Within, fixed); err != nil {
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

func (e *emitter) loop(l *counts.Loop, fixed []string, depth int) error {
	lb, err := e.dom.loop(l.Iname, fixed)
	if err != nil {
		return fmt.Errorf("loop over %s: %w", l.Iname, err)
	}
	// The bounds depend only on sequential inames, so every work-item
	// takes the same branches and barriers inside stay legal.
	body, closeLoop := e.openLoop(l.Iname, lb, depth)
	if err := e.nodes(l.Body, append(slices.Clone(fixed), l.Iname), body); err != nil {
		return err
	}
	closeLoop()
	return nil
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
	lhs, err := e.access(ins.LHS)
	if err != nil {
		return fmt.Errorf("instruction %s: %w", ins.ID, err)
	}
	e.line(body, "%s = %s;", lhs, rhs)
	for i := len(closers) - 1; i >= 0; i-- {
		e.line(closers[i], "}")
	}
	return nil
}
