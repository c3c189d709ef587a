// Package gputest holds the checks that every gpu.Device implementation
// passes in its tests, so that the OpenCL and CUDA backends are held to the
// same behaviour.
//
// Each check takes a test and an open [gpu.Device]: [Axpy] compiles, runs
// and times a small kernel and checks its every result, [CompileError]
// checks that a compiler failure is a [*gpu.CompileError] with the log,
// and [Misuse] checks that bad allocations, launches and arguments are
// errors.
package gputest

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Axpy compiles source, which must define a kernel
// axpy(float *y, const float *x, float a, int n) computing y[i] = a*x[i] +
// y[i] for i < n, runs it on n = 1000 elements in groups of 64 (so the
// guard matters), and checks every element against the exact answer and
// the device time for being positive.
func Axpy(t testing.TB, dev gpu.Device, source string) {
	t.Helper()
	prog, err := dev.Compile(source)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	k, err := prog.Kernel("axpy")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	const n, group = 1000, 64
	x, y := make([]byte, 4*n), make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(x[4*i:], math.Float32bits(float32(i)))
		binary.LittleEndian.PutUint32(y[4*i:], math.Float32bits(float32(2*i+1)))
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
	// y goes over in two writes, the second at an offset.
	half := 4 * (n / 2)
	if err := errors.Join(xb.WriteAt(x, 0), yb.WriteAt(y[:half], 0), yb.WriteAt(y[half:], int64(half)), k.SetArgs(yb, xb, float32(3), int32(n))); err != nil {
		t.Fatal(err)
	}
	secs, err := k.Run([]int64{(n + group - 1) / group * group}, []int64{group})
	if err != nil {
		t.Fatal(err)
	}
	if !(secs > 0) || secs > 10 {
		t.Errorf("device time %g s, want positive and plausible", secs)
	}
	if err := yb.Read(y); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		// 3*i + 2*i + 1 is exact in float32 at these sizes.
		if got, want := math.Float32frombits(binary.LittleEndian.Uint32(y[4*i:])), float32(5*i+1); got != want {
			t.Fatalf("y[%d] = %g, want %g", i, got, want)
		}
	}
}

// CompileError compiles source, which has a syntax error mentioning the
// identifier name, and checks that the error is a *gpu.CompileError whose
// message carries the compiler's log.
func CompileError(t testing.TB, dev gpu.Device, source, name string) {
	t.Helper()
	_, err := dev.Compile(source)
	var ce *gpu.CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a *gpu.CompileError", err)
	}
	if !strings.Contains(ce.Log, name) || !strings.Contains(err.Error(), ce.Log[:min(len(ce.Log), 40)]) {
		t.Errorf("the error does not carry the compiler log:\n%v", err)
	}
}

// Misuse checks that bad allocations, launches and arguments are errors.
func Misuse(t testing.TB, dev gpu.Device, source string) {
	t.Helper()
	info := dev.Info()
	if _, err := dev.Alloc(info.MaxAllocBytes + 1); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("oversized allocation: got %v, want an out-of-memory error", err)
	}
	prog, err := dev.Compile(source)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	if _, err := prog.Kernel("no_such_kernel"); err == nil {
		t.Error("an unknown kernel name was accepted")
	}
	k, err := prog.Kernel("axpy")
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	buf, err := dev.Alloc(16)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	for _, off := range []int64{-4, 12, 17} {
		if err := buf.WriteAt(make([]byte, 8), off); err == nil {
			t.Errorf("writing 8 bytes at offset %d of a 16-byte buffer was accepted", off)
		}
	}
	if err := k.SetArgs("text"); err == nil {
		t.Error("a string argument was accepted")
	}
	for _, grid := range [][2][]int64{
		{{100}, {64}},          // not a multiple
		{{64, 64}, {64}},       // axes differ
		{{0}, {1}},             // empty
		{{1 << 20}, {1 << 20}}, // larger than any work-group limit
	} {
		if _, err := k.Run(grid[0], grid[1]); err == nil {
			t.Errorf("launch global %v local %v was accepted", grid[0], grid[1])
		}
	}
}
