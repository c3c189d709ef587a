package hierarchy

import "github.com/uniperf/uniperf/counts"

// containsReduce reports whether e has a reduction: the register chains
// count its points, and Scalar runs its instruction one work-item at a
// time.
func containsReduce(e counts.Expr) bool {
	return containsReduceWhere(e, func(*counts.Reduce) bool { return true })
}

// containsReduceWhere reports whether e holds a reduction that keep
// accepts.
func containsReduceWhere(e counts.Expr, keep func(*counts.Reduce) bool) bool {
	found := false
	counts.Walk(e, func(e counts.Expr) bool {
		if r, ok := e.(*counts.Reduce); ok && keep(r) {
			found = true
		}
		return !found
	})
	return found
}

// unrolledOnly reports whether every iname of r is unrolled (unr or
// ilp): the reduction is straight-line code, no loop of its own.
func unrolledOnly(k *counts.Kernel, r *counts.Reduce) bool {
	for _, name := range r.Inames {
		if in := k.Iname(name); in == nil || in.Tag.Kind != counts.Unroll && in.Tag.Kind != counts.ILP {
			return false
		}
	}
	return true
}

// loopReduce accepts the reductions of k over some iname that is not
// unrolled (unrolledOnly): a loop through one accumulator.
func loopReduce(k *counts.Kernel) func(*counts.Reduce) bool {
	return func(r *counts.Reduce) bool { return !unrolledOnly(k, r) }
}

// hasLoopReduce reports whether an instruction of k holds a reduction
// that loopReduce accepts.
func hasLoopReduce(k *counts.Kernel, s *counts.Instruction) bool {
	loop := loopReduce(k)
	return containsReduceWhere(s.RHS, loop) || s.Pred != nil && containsReduceWhere(s.Pred, loop)
}
