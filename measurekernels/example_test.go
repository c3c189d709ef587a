package measurekernels_test

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/measurekernels"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// The timing protocol on one library kernel, as uniperf measure KERNEL
// runs it: generate, build, check against the reference interpreter, fill
// the inputs, time back-to-back runs, keep the minimum after the first.
// It needs an OpenCL device (PoCL in CI), as the package's tests do.
func ExampleTimeRuns() {
	dev, err := devices.Open("opencl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Close()
	src, err := library.Source("global_copy")
	if err != nil {
		fmt.Println(err)
		return
	}
	ir, err := counts.ParseKernel("global_copy.knl", src, map[string]int64{"LX": 64})
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
	params := map[string]int64{"n": 1 << 16}
	if err := k.Check(params); err != nil {
		fmt.Println(err)
		return
	}
	sizes, _, err := k.Sizes(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	bufs, err := measurekernels.Inputs(k, sizes)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer bufs.Close()
	global, local, err := k.Grid(params)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := k.Bind(bufs, params); err != nil {
		fmt.Println(err)
		return
	}
	raw, err := measurekernels.TimeRuns(k, global, local, 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	best := datasets.MinKept(raw, 1)
	fmt.Printf("%d runs of %s work-items in groups of %s; the time kept is the minimum after the first: %t\n",
		len(raw), launch.SizeString(global), launch.SizeString(local), best > 0 && best == min(raw[1], raw[2], raw[3], raw[4]))
	// Output: 5 runs of 65536 work-items in groups of 64; the time kept is the minimum after the first: true
}
