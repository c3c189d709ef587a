package counts

import "github.com/uniperf/uniperf/polyhedra"

// The memory-hierarchy counts say where a kernel's global bytes can come
// from: how many distinct bytes the launch touches (what must come from
// DRAM at least once), how many each work-group touches (what enters the
// caches near the cores), and how many loads repeat an address the same
// work-item loaded before (what registers or L1 can serve). They are
// counted, shown and tested, but are not properties of the fitted model.
const (
	// FootprintLaunch is the number of distinct bytes of global memory
	// the launch loads or stores.
	FootprintLaunch = "global.footprint.launch.bytes"
	// FootprintGroup is the number of distinct bytes each work-group
	// loads or stores, summed over the work-groups.
	FootprintGroup = "global.footprint.group.bytes"
	// ReuseWorkItem is the number of global loads, at addresses no store
	// of the launch touches, that load an address the same work-item
	// loaded before.
	ReuseWorkItem = "global.load.reuse.workitem"
	// ReuseWorkItemStored is the number of global loads at addresses
	// some store of the launch touches that load an address the same
	// work-item loaded before, whatever came between.
	ReuseWorkItemStored = "global.load.reuse.workitem.stored"
)

// HierarchyCount is one memory-hierarchy count of a global array, or of
// all of them together.
type HierarchyCount struct {
	// Name is one of FootprintLaunch, FootprintGroup, ReuseWorkItem and
	// ReuseWorkItemStored, or of the per-iteration counts
	// (IterFootprints): FootprintGroupIter, LoadCellsGroupIter and
	// GroupIterations.
	Name string
	// Array is the array counted, "" for the sum over the arrays.
	Array string
	// Expression is the count, a piecewise quasi-polynomial in the
	// parameters in isl notation.
	Expression string
	// Approximate is set when a reference counted executes under a
	// condition that reads data: it is counted as if it always executed.
	// A footprint is then an upper bound; a repeat count, the difference
	// of two such counts, may err either way. It is set too on the
	// counts of an array with indirect accesses (counted at sizes only,
	// HierarchyAt): a footprint is then an upper bound, a repeat count a
	// lower bound (see HierarchyAt).
	Approximate bool
	// AtSizes is set when the count has no symbolic form and was counted
	// at the parameters given to Counted.HierarchyAt; Expression is then
	// its value there.
	AtSizes bool
}

// countedHierarchy is a hierarchy count with its function.
type countedHierarchy struct {
	HierarchyCount
	n *polyhedra.PwQPolynomial
}
