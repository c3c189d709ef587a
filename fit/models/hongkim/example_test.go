package hongkim_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hongkim"
)

// Hong and Kim's model with the Quadro FX 5600's published memory
// parameters predicts the library's tiled matrix multiplication: per
// work-item 544 adds, 512 muls, 1024 local loads, 64 local stores and 64
// barriers (2208 computation instructions), 64 loads and a store, all
// unit-stride; the bandwidth limits MWP to 11.67 warps. The paper's
// traffic makes every global access a memory instruction.
func ExampleModel() {
	d, err := gpus.Lookup("quadro-fx5600")
	if err != nil {
		fmt.Println(err)
		return
	}
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	m := hongkim.Model{Traffic: hongkim.TrafficPaper}
	if err := m.Calibrate(env, nil); err != nil { // no rows: the file's Table 6 values
		fmt.Println(err)
		return
	}
	p, err := m.Predict(env, models.Case{Kernel: "matmul_tiled", Params: map[string]int64{"n": 512, "m": 512, "ell": 512}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range p.Explain {
		switch q.Name {
		case "#Comp_insts", "#Coal_Mem_insts", "MWP", "CWP":
			fmt.Printf("%s %.4g %s\n", q.Name, q.Value, q.Note)
		}
	}
	fmt.Printf("predicted %.3g ms\n", p.Seconds*1e3)
	// Output:
	// #Comp_insts 2208 flops, integer ops, local loads and stores, barriers
	// #Coal_Mem_insts 65 global accesses of stride 0 and 1
	// MWP 11.67 (5)
	// CWP 4.003 (9)
	// predicted 3.58 ms
}

// The bounds an H100 SXM5's file implies for the memory parameters: one
// coalesced warp access of 128 bytes at an SM's share of 3.35 TB/s takes
// 9.99 cycles at 1.98 GHz, and 64 warps of them in flight cover 639.
func ExampleBoundsOf() {
	d, err := gpus.Lookup("h100-sxm5")
	if err != nil {
		fmt.Println(err)
		return
	}
	b := hongkim.BoundsOf(d, 0.25)
	fmt.Printf("Mem_LD %.4g to %.4g cycles, departure delays from %g\n", b.MemLDMin, b.MemLDMax, b.DepartureMin)
	// Output:
	// Mem_LD 9.986 to 639.1 cycles, departure delays from 0.25
}
