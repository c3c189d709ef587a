package hierarchy

import "github.com/uniperf/uniperf/counts"

// containsReduce reports whether e has a reduction: the register chains
// count its points, and Scalar runs its instruction one work-item at a
// time.
func containsReduce(e counts.Expr) bool {
	found := false
	counts.Walk(e, func(e counts.Expr) bool {
		_, r := e.(*counts.Reduce)
		found = found || r
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

// hasLoopReduce reports whether an instruction of k holds a reduction
// over some iname that is not unrolled (unrolledOnly).
func hasLoopReduce(k *counts.Kernel, s *counts.Instruction) bool {
	found := false
	visit := func(e counts.Expr) bool {
		if r, ok := e.(*counts.Reduce); ok && !unrolledOnly(k, r) {
			found = true
		}
		return !found
	}
	counts.Walk(s.RHS, visit)
	if s.Pred != nil {
		counts.Walk(s.Pred, visit)
	}
	return found
}
