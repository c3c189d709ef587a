package gpus_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/gpus"
)

func ExampleLookup() {
	d, err := gpus.Lookup("GTX280")
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := d.HongKimParams()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d SMs at %.2f GHz, Mem_LD %g cycles\n", d.Name, d.SMs, d.ClockHz/1e9, h.MemLD)

	h100, _ := gpus.Lookup("NVIDIA H100 80GB HBM3")
	_, err = h100.HongKimParams()
	fmt.Println(err)
	// Output:
	// GeForce GTX 280: 30 SMs at 1.30 GHz, Mem_LD 450 cycles
	// device file devices/h100-sxm5.json: hongkim.mem_ld is missing or not positive; the hongkim model needs it
}

func ExampleActiveBlocks() {
	d, err := gpus.Lookup("h100-sxm5")
	if err != nil {
		fmt.Println(err)
		return
	}
	o, err := gpus.ActiveBlocks(d.Limits, gpus.Resources{ThreadsPerBlock: 128, RegsPerThread: 64, SharedPerBlock: 48 << 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d blocks, %d warps, occupancy %.2f, limited by %v\n", o.BlocksPerSM, o.ActiveWarps, o.Fraction, o.Limiters)
	// Output: 4 blocks, 16 warps, occupancy 0.25, limited by [shared memory]
}
