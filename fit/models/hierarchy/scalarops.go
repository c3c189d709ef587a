package hierarchy

import (
	"fmt"
	"math"
	"strings"

	"github.com/uniperf/uniperf/fit/models"
)

// ScalarOps is the feature of Config.ScalarOps: the floating-point
// operations (the flop.* counts, as the option was declared; the int.*
// counts are left out) of the instructions a CPU runs one work-item at
// a time (Scalar). It was declared on the premise that the flop weights
// are fitted mostly on code PoCL vectorises across the work-items, one
// instruction for a vector of lanes, so that a scalar instruction,
// issued for one work-item alone, costs more than its flop weight says.
// The premise does not hold: the arithmetic classes' instructions are
// sums, which Scalar marks too, so the feature nearly repeats their flop
// counts and takes weight from them (docs/model.md).
const ScalarOps = "scalar.ops"

// isScalarOps reports Config.ScalarOps's feature.
func isScalarOps(p string) bool { return p == ScalarOps }

// scalarOpsOf returns the floating-point operations of a launch that
// run one work-item at a time (scalarProperties' flop.* counts), with
// unrolledSums the form's Config.UnrolledSums, which the form's scalar
// accesses (Config.ScalarLoops) read as well.
func scalarOpsOf(env *models.Env, c models.Case, unrolledSums bool) (int64, error) {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return 0, err
	}
	props, err := scalarProperties(k, c.Params, unrolledSums)
	if err != nil {
		return 0, err
	}
	var n int64
	for p, v := range props {
		if !strings.HasPrefix(p, "flop.") {
			continue
		}
		if v > math.MaxInt64-n {
			return 0, fmt.Errorf("kernel %s: the operations run one work-item at a time exceed int64 at %v", k.Kernel().Name, c.Params)
		}
		n += v
	}
	return n, nil
}
