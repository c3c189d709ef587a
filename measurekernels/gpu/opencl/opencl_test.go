package opencl

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/gpu"
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

func floats(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func bytesOf(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func TestDevicesDescribed(t *testing.T) {
	rt, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rt.Devices() {
		if d.Name == "" || d.Driver == "" || d.ComputeUnits < 1 || d.GlobalMemBytes <= 0 ||
			d.MaxAllocBytes <= 0 || d.MaxGroupSize < 1 || d.MaxGroupDims[0] < 1 {
			t.Errorf("incomplete description: %+v", d)
		}
		if d.ID() != "opencl:"+string(rune('0'+d.Index)) && d.Index < 10 {
			t.Errorf("ID %q for index %d", d.ID(), d.Index)
		}
	}
}

func TestAxpyRunsAndTimes(t *testing.T) {
	dev := openFirst(t)
	prog, err := dev.Compile(axpySource)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	k, err := prog.Kernel("axpy")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()

	// n is not a multiple of the group size, so the guard matters.
	const n, group = 1000, 64
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i+1)
	}
	xb, err := dev.Alloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer xb.Close()
	yb, err := dev.Alloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer yb.Close()
	if err := xb.Write(bytesOf(x)); err != nil {
		t.Fatal(err)
	}
	if err := yb.Write(bytesOf(y)); err != nil {
		t.Fatal(err)
	}
	if err := k.SetArgs(yb, xb, float32(3), int32(n)); err != nil {
		t.Fatal(err)
	}
	global := int64((n + group - 1) / group * group)
	secs, err := k.Run([]int64{global}, []int64{group})
	if err != nil {
		t.Fatal(err)
	}
	if !(secs > 0) || secs > 10 {
		t.Errorf("device time %g s, want positive and plausible", secs)
	}
	out := make([]byte, 4*n)
	if err := yb.Read(out); err != nil {
		t.Fatal(err)
	}
	for i, got := range floats(out) {
		// y = 3*i + (2*i+1) = 5*i + 1, exact in float32 for these sizes.
		if want := float32(5*i + 1); got != want {
			t.Fatalf("y[%d] = %g, want %g", i, got, want)
		}
	}
}

func TestCompileErrorCarriesLog(t *testing.T) {
	dev := openFirst(t)
	_, err := dev.Compile("__kernel void broken(__global float *y) { y[0] = undeclared_name + ; }")
	var ce *gpu.CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a *gpu.CompileError", err)
	}
	if !strings.Contains(err.Error(), "undeclared_name") || !strings.Contains(ce.Log, "error") {
		t.Errorf("error does not carry the compiler log:\n%v", err)
	}
}

func TestBadLaunchesAndAllocations(t *testing.T) {
	dev := openFirst(t)
	info := dev.Info()
	if _, err := dev.Alloc(info.MaxAllocBytes + 1); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("oversized allocation: got %v, want an out-of-memory error", err)
	}
	prog, err := dev.Compile(axpySource)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	if _, err := prog.Kernel("no_such_kernel"); err == nil || !strings.Contains(err.Error(), "CL_INVALID_KERNEL_NAME") {
		t.Errorf("unknown kernel name: got %v", err)
	}
	k, err := prog.Kernel("axpy")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	if err := k.SetArgs("text"); err == nil {
		t.Error("a string argument was accepted")
	}
	for _, grid := range [][2][]int64{
		{{100}, {64}},          // not a multiple
		{{64, 64}, {64}},       // axes differ
		{{0}, {1}},             // empty
		{{1 << 20}, {1 << 20}}, // group too large for any device here
	} {
		if _, err := k.Run(grid[0], grid[1]); err == nil {
			t.Errorf("launch global %v local %v was accepted", grid[0], grid[1])
		}
	}
}
