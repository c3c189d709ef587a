package opencl

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/gpu/gputest"
)

// openFirst opens the first OpenCL device (PoCL in CI).
func openFirst(t *testing.T) gpu.Device {
	t.Helper()
	rt, err := Load()
	if err != nil {
		t.Fatalf("OpenCL must be present for these tests (PoCL in CI): %v", err)
	}
	dev, err := rt.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := dev.Close(); err != nil {
			t.Error(err)
		}
	})
	return dev
}

const axpySource = `
__kernel void axpy(__global float *y, __global const float *x, float a, int n) {
	int i = get_global_id(0);
	if (i < n)
		y[i] = a * x[i] + y[i];
}
`

func TestDevicesDescribed(t *testing.T) {
	rt, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range rt.Devices() {
		if d.Name == "" || d.Driver == "" || d.Platform == "" || d.ComputeUnits < 1 || d.GlobalMemBytes <= 0 ||
			d.MaxAllocBytes <= 0 || d.MaxGroupSize < 1 || d.MaxGroupDims[0] < 1 || d.ClockMHz < 1 {
			t.Errorf("incomplete description: %+v", d)
		}
		if d.Backend != gpu.OpenCL || d.Index != i {
			t.Errorf("device %d is %s", i, d.ID())
		}
	}
	if !strings.Contains(rt.Version(), "OpenCL") {
		t.Errorf("version %q", rt.Version())
	}
}

func TestAxpy(t *testing.T) { gputest.Axpy(t, openFirst(t), axpySource) }

func TestCompileError(t *testing.T) {
	gputest.CompileError(t, openFirst(t), "__kernel void broken(__global float *y) { y[0] = undeclared_name + ; }", "undeclared_name")
}

func TestMisuse(t *testing.T) { gputest.Misuse(t, openFirst(t), axpySource) }
