package resios_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/resios"
)

// The thesis's §6.2 example: e = a + b; f = c + d; g = e * f.
func ExampleILP() {
	ilp, err := resios.ILP(resios.DAG{Deps: [][]int{{}, {}, {0, 1}}})
	fmt.Println(ilp, err)
	// Output: 1.5 <nil>
}

func ExampleStrideBankConflicts() {
	for _, stride := range []int64{1, 2, 3, 8, 32} {
		c, _ := resios.StrideBankConflicts(stride, 4, 32, 32, 4)
		fmt.Printf("stride %2d: %2d-way\n", stride, c)
	}
	// Output:
	// stride  1:  1-way
	// stride  2:  2-way
	// stride  3:  1-way
	// stride  8:  8-way
	// stride 32: 32-way
}

// A transpose on the GTX 460: the coalesced load and the strided store of
// §7.2, each thread computing its indices with two madds.
func ExampleDevice_Predict() {
	g, err := gpus.Lookup("gtx460")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := resios.FromDevice(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	index, _ := d.Compute("index", "madd", 1, 2)
	load, _ := d.Global("load idata", 1, 4, 1, 1)
	store, _ := d.Global("store odata", 1024, 4, 1, 1)
	p, err := d.Predict([]resios.Instr{index, load, store}, 1024, gpus.Resources{ThreadsPerBlock: 256, RegsPerThread: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(p.Explain())
	// Output:
	// time 0.000425176 s = overhead 4e-06 s + execution 0.000421176 s (4.1)
	// occupancy: 6 blocks of 8 warps per SM (limited by warps)
	// simulated 12 of 147 blocks per SM: 46415.3 cycles, 46023.3 idle; extrapolated 568588 cycles
	// hotspot store odata                     95.3% of idle time
	// hotspot load idata                       4.7% of idle time
}
