package hierarchy

import (
	"fmt"
	"math"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
)

// ScalarOps is the feature of Config.ScalarOps: the arithmetic
// operations (every flop.* count) of the instructions a CPU runs one
// work-item at a time (Scalar). The flop weights are fitted mostly on
// straight-line code that PoCL vectorises across the work-items, where
// one instruction serves a vector of lanes; a scalar instruction takes
// its issue slot for one work-item alone, and this feature's weight is
// what each such operation costs beyond its flop weight.
const ScalarOps = "scalar.ops"

// isScalarOps reports Config.ScalarOps's feature.
func isScalarOps(p string) bool { return p == ScalarOps }

// scalarOpsOf returns the arithmetic operations of a launch that run
// one work-item at a time, counted once per launch and kernel.
func scalarOpsOf(env *models.Env, c models.Case, unrolledSums bool) (int64, error) {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return 0, err
	}
	name := "scalarops"
	if unrolledSums {
		name = "scalarops-unrolled-sums"
	}
	return once(name, k, c.Params, func() (int64, error) { return scalarOps(k, c.Params, unrolledSums) })
}

// scalarOps sums the flop counts of k's scalar instructions at params.
func scalarOps(k *counts.Counted, params map[string]int64, unrolledSums bool) (int64, error) {
	scalar := scalarOf(k.Kernel(), unrolledSums)
	parts, vals, err := k.BreakdownAt(counts.ByInstruction, params)
	if err != nil {
		return 0, err
	}
	var n int64
	for i, p := range parts {
		if !scalar[p.Source] || !strings.HasPrefix(p.Property, "flop.") {
			continue
		}
		if vals[i] > math.MaxInt64-n {
			return 0, fmt.Errorf("kernel %s: the operations run one work-item at a time exceed int64 at %v", k.Kernel().Name, params)
		}
		n += vals[i]
	}
	return n, nil
}
