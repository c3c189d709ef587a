package launch_test

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// Build compiles a generated kernel for a device, and Check runs it
// against the counts reference interpreter on random inputs, outputs
// poisoned. It needs an OpenCL device (PoCL in CI).
func ExampleBuild() {
	dev, err := devices.Open("opencl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Close()
	src, err := library.Source("vector_scale_add")
	if err != nil {
		fmt.Println(err)
		return
	}
	ir, err := counts.ParseKernel("vector_scale_add.knl", src, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	code, err := codegen.Generate(ir, dev.Info().Backend)
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := launch.Build(dev, ir, code)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer k.Close()
	params := map[string]int64{"n": 1000}
	global, local, err := k.Grid(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %s work-items in groups of %s\n", launch.ParamString(params), launch.SizeString(global), launch.SizeString(local))
	fmt.Println("check:", k.Check(params))
	// Output:
	// n=1000: 1024 work-items in groups of 256
	// check: <nil>
}
