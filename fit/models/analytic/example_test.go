package analytic_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
)

// The trace of the tiled matrix multiplication: per region, its
// executions per work-item and instruction-level parallelism.
func ExampleTraceOf() {
	env := &models.Env{Counter: models.NewCounter(nil)}
	tr, err := analytic.TraceOf(env, models.Case{Kernel: "matmul_tiled", Params: map[string]int64{"n": 64, "m": 64, "ell": 64}}, 32)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tr.Regions {
		fmt.Printf("%-28s %3g× ILP %.2g %v\n", r.Name, r.Count, r.ILP, r.Ops)
	}
	// Output:
	// barrier_1 (27:1)               4× ILP 1 []
	// insn_2 (28:1)                  4× ILP 1 []
	// insn_3 (29:1)                  4× ILP 1 []
	// barrier_4 (30:1)               4× ILP 1 []
	// insn_5 (31:1) sum(k_in)       64× ILP 1.5 [{f32.fma 1}]
	// insn_5 (31:1)                  4× ILP 1 [{f32.add 1}]
	// insn_6 (32:1)                  1× ILP 1 []
}
