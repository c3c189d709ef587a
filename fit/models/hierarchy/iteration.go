package hierarchy

import (
	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
)

// IterWindow is the iterations over which a work-group's per-iteration
// working set must stay in L1 for its cells to be reused: a 128-byte line
// holds 32 f32 cells of a walk along the loop (a row of a in gemm, read
// one k at a time), so a line is reused over 32 iterations. It is taken
// from the line size, not fitted.
const IterWindow = 32

// L1Loads is the feature of Config.IterL1: the loads a group's
// work-items share within an iteration, served by L1.
const L1Loads = "mem.l1.loads"

// IterFootprints are the per-iteration counts of one launch (package
// counts, Counted.IterFootprintsAt), summed over its global arrays.
type IterFootprints struct {
	// Bytes is the distinct bytes each work-group touches in each
	// iteration, summed (counts.FootprintGroupIter); Loads the distinct
	// cells its loads touch, summed alike (counts.LoadCellsGroupIter);
	// Iterations the (work-group, iteration) pairs
	// (counts.GroupIterations).
	Bytes, Loads, Iterations float64
	// Shared is, by load property, the loads that repeat a cell their
	// reference loaded in the same work-group and iteration
	// (Counted.SharedLoadsAt).
	Shared map[string]float64
}

// fits reports whether a group's working set over IterWindow iterations
// fits L1 (bytes).
func (it *IterFootprints) fits(l1 int64) bool {
	return it != nil && it.Iterations > 0 && IterWindow*it.Bytes/it.Iterations <= float64(l1)
}

// iterFootprintsOf returns the per-iteration counts of a launch, or nil
// where they are refused (the launch is then priced without them).
func iterFootprintsOf(env *models.Env, c models.Case) *IterFootprints {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return nil
	}
	hs, vals, err := k.IterFootprintsAt(c.Params)
	if err != nil {
		return nil
	}
	shared, err := k.SharedLoadsAt(c.Params)
	if err != nil {
		return nil
	}
	it := IterFootprints{Shared: map[string]float64{}}
	for p, n := range shared {
		it.Shared[p] = float64(n)
	}
	for i, h := range hs {
		if h.Array != "" {
			continue
		}
		switch h.Name {
		case counts.FootprintGroupIter:
			it.Bytes = float64(vals[i])
		case counts.LoadCellsGroupIter:
			it.Loads = float64(vals[i])
		case counts.GroupIterations:
			it.Iterations = float64(vals[i])
		}
	}
	return &it
}
