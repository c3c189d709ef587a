package counts

import (
	"maps"
	"slices"

	"github.com/uniperf/uniperf/polyhedra"
)

// This file counts a kernel at one binding of its parameters, the way
// tune predicts a space of configurations at the same sizes: every set
// of the counting plan is counted with the parameters replaced by their
// values, a set without parameters, which package polyhedra counts
// without the chambers and simplifications a function of the parameters
// needs (about a quarter of the time for the tiled convolution).

// CountWithAt counts every property of k as CountWith does, with its
// parameters fixed at params (every parameter given): the values Eval
// returns there are CountWith's, exactly, and are counted several times
// faster. The result evaluates only at params: Eval and CheckBounds at
// other values are errors, and so is every method that returns counts as
// functions of the parameters (Properties, PropertiesAt, Breakdown,
// Footprints, Hierarchy, IterFootprints, Compile, Weighted);
// FootprintsAt, HierarchyAt, IterFootprintsAt and LinesAt at params count
// at those sizes, as they do where no symbolic count exists, and
// BreakdownAt splits the counts there. Values that violate the kernel's
// assumptions are refused by Eval, as CountWith's are.
func CountWithAt(k *Kernel, opts Options, params map[string]int64) (*Counted, error) {
	for _, p := range k.Params {
		if _, ok := params[p]; !ok {
			return nil, errorf(k.File, Pos{}, "kernel %s: counting at fixed sizes: missing parameter %s (the kernel's parameters are %s)", k.Name, p, listOrNone(k.Params))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(params)) {
		if !slices.Contains(k.Params, p) {
			return nil, errorf(k.File, Pos{}, "kernel %s: counting at fixed sizes: unknown parameter %s (the kernel's parameters are %s)", k.Name, p, listOrNone(k.Params))
		}
	}
	c, err := countWith(k, opts, maps.Clone(params))
	if err != nil {
		return nil, err
	}
	c.refuseFunctions()
	return c, nil
}

// refuseFunctions makes the counts that c forms as functions of the
// parameters on demand fail: counted at fixed parameters, they would be
// constants that hold there only.
func (c *Counted) refuseFunctions() {
	err := c.fixedErr("given as functions of its parameters")
	c.sums = func() ([]*polyhedra.PwQPolynomial, error) { return nil, err }
	c.footprints = func() ([]countedFootprint, error) { return nil, err }
	c.hierarchy = func() ([]countedHierarchy, error) { return nil, err }
	c.iterFootprints = func() (*iterCounts, error) { return nil, err }
}
