// Package pocltest holds the steps that tests repeat to run a generated
// kernel on the OpenCL device (PoCL in CI): open the device, build the
// kernel, fill its global arrays, run it once and read them back. It is
// for tests only: each step fails the test it is given rather than
// returning an error.
package pocltest

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
)

// Open opens the OpenCL device and closes it when t ends. Without one the
// test fails: PoCL is the device CI runs on.
func Open(t testing.TB) gpu.Device {
	t.Helper()
	dev, err := devices.Open("opencl")
	if err != nil {
		t.Fatalf("an OpenCL device is needed (PoCL in CI): %v", err)
	}
	t.Cleanup(func() { dev.Close() })
	return dev
}

// Build builds code, generated from k, on dev and closes the kernel when
// t ends. A build failure shows the source it came from.
func Build(t testing.TB, dev gpu.Device, k *counts.Kernel, code *codegen.Code) *launch.Kernel {
	t.Helper()
	lk, err := launch.Build(dev, k, code)
	if err != nil {
		t.Fatalf("%v\n%s", err, code.Source)
	}
	t.Cleanup(func() { lk.Close() })
	return lk
}

// Run generates k for dev, runs it once at params with the global arrays
// of in holding the bytes given (the others as allocated) and returns the
// bytes of every global array after the run, each its full size at params.
// The kernel and its buffers are released before Run returns, so a test
// may call it many times.
func Run(t testing.TB, dev gpu.Device, k *counts.Kernel, params map[string]int64, in map[string][]byte) map[string][]byte {
	t.Helper()
	code, err := codegen.Generate(k, dev.Info().Backend)
	if err != nil {
		t.Fatal(err)
	}
	lk, err := launch.Build(dev, k, code)
	if err != nil {
		t.Fatalf("%v\n%s", err, code.Source)
	}
	defer lk.Close()
	sizes, _, err := lk.Sizes(params)
	if err != nil {
		t.Fatal(err)
	}
	bufs, err := lk.Alloc(sizes)
	if err != nil {
		t.Fatal(err)
	}
	defer bufs.Close()
	for name, b := range in {
		if err := bufs[name].WriteAt(b, 0); err != nil {
			t.Fatal(err)
		}
	}
	global, local, err := lk.Grid(params)
	if err != nil {
		t.Fatal(err)
	}
	if err := lk.Bind(bufs, params); err != nil {
		t.Fatal(err)
	}
	if _, err := lk.Run(global, local); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for name, b := range bufs {
		out[name] = make([]byte, int64(k.Array(name).DType.Size())*sizes[name])
		if err := b.Read(out[name]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
