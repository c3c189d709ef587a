package measurekernels_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/measurekernels"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/measurekernels/suite"
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
	bufs, err := measurekernels.Inputs(k, sizes, params)
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

// A measurement run: a suite of one library kernel, global_copy, at two
// sizes (N = 2^10 and 2^11) and one work-group size, measured on a device
// into a new table with the generated code, as uniperf measure runs a
// suite. Each case is checked against the reference interpreter before it
// is timed; the table gets a row per case. It needs an OpenCL device (PoCL
// in CI), as the package's tests do.
func ExampleMeasure() {
	dev, err := devices.Open("opencl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dev.Close()
	s, err := suite.Parse("example.json", []byte(`{"name": "example", "group_consts": ["LX"],
	 "group_sets": {"small": {"1d": [[64]]}},
	 "kernels": [{"kernel": "global_copy", "class": "global_stride1", "role": "measurement", "groups": "1d",
	  "variants": [{"name": "copy", "params": {"n": "N"}}], "sizes": {"p": [10], "t": [0, 1], "step": 1}, "check": {"N": 1000}}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "example.arrow")
	opts := measurekernels.Options{Suite: s, Generate: codegen.Generate, SizeClass: "small", Runs: 5, Discard: 1}
	w, err := datasets.OpenWriter(path, measurekernels.Meta(dev.Info(), opts))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := measurekernels.Measure(dev, w, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows measured, %d kernels failed\n", rep.Rows, len(rep.Failures))
	tab, err := datasets.Read(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tab.Rows {
		fmt.Printf("%s %s: n=%d in groups of %d, %d runs, %d kept, time > 0: %t\n",
			r.Kernel, r.Variant, r.Params["n"], r.LocalSize[0], len(r.RawTimesS), r.RunsKept, r.TimeS > 0)
	}
	// Output:
	// 2 rows measured, 0 kernels failed
	// global_copy copy: n=1024 in groups of 64, 5 runs, 4 kept, time > 0: true
	// global_copy copy: n=2048 in groups of 64, 5 runs, 4 kept, time > 0: true
}
