package cuda

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// On a machine without the NVIDIA driver, Load must fail with one clear
// line; on a GPU machine the same test runs a kernel and checks its answer.
func TestLoadOrRun(t *testing.T) {
	rt, err := Load()
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "cuda: ") ||
			!(strings.Contains(msg, "libcuda.so.1") || strings.Contains(msg, "no device")) {
			t.Errorf("missing driver should be one clear line naming the library or the lack of a device, got %q", msg)
		}
		return
	}
	if len(rt.Devices()) == 0 {
		t.Fatal("Load succeeded with no devices")
	}
	runAxpy(t, rt)
}

const axpySource = `
extern "C" __global__ void axpy(float *y, const float *x, float a, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}
`

func runAxpy(t *testing.T, rt *Runtime) {
	dev, err := rt.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if _, err := dev.Compile("extern \"C\" __global__ void broken(float *y) { y[0] = undeclared_name + ; }"); err != nil {
		var ce *gpu.CompileError
		if !errors.As(err, &ce) || !strings.Contains(ce.Log, "undeclared_name") {
			t.Errorf("compile error without the log: %v", err)
		}
	} else {
		t.Error("a kernel with a syntax error compiled")
	}
	prog, err := dev.Compile(axpySource)
	if err != nil {
		t.Fatal(err)
	}
	defer prog.Close()
	k, err := prog.Kernel("axpy")
	if err != nil {
		t.Fatal(err)
	}
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
	if err := errors.Join(xb.Write(x), yb.Write(y), k.SetArgs(yb, xb, float32(3), int32(n))); err != nil {
		t.Fatal(err)
	}
	secs, err := k.Run([]int64{(n + group - 1) / group * group}, []int64{group})
	if err != nil {
		t.Fatal(err)
	}
	if !(secs > 0) {
		t.Errorf("event time %g s, want positive", secs)
	}
	if err := yb.Read(y); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if got, want := math.Float32frombits(binary.LittleEndian.Uint32(y[4*i:])), float32(5*i+1); got != want {
			t.Fatalf("y[%d] = %g, want %g", i, got, want)
		}
	}
}
