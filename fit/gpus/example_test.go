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
