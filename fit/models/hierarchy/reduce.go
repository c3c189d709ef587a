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
