package cuda

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/gpu/gputest"
)

const axpySource = `
extern "C" __global__ void axpy(float *y, const float *x, float a, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}
`

// On a machine without the NVIDIA driver, Load must fail with one clear
// line; on a GPU machine the same test runs the shared device checks.
func TestLoadOrRun(t *testing.T) {
	rt, err := Load()
	if err != nil {
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "cuda: ") ||
			!(strings.Contains(msg, "libcuda.so.1") || strings.Contains(msg, "no device")) {
			t.Errorf("a missing driver should be one clear line naming the library or the lack of a device, got %q", msg)
		}
		// Skipped, not passed: a report must show that CUDA went untested.
		t.Skipf("no CUDA driver or device (%s): the CUDA runtime is untested", msg)
	}
	if len(rt.Devices()) == 0 {
		t.Fatal("Load succeeded with no devices")
	}
	dev, err := rt.Open(0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	gputest.Axpy(t, dev, axpySource)
	gputest.CompileError(t, dev, `extern "C" __global__ void broken(float *y) { y[0] = undeclared_name + ; }`, "undeclared_name")
	gputest.Misuse(t, dev, axpySource)
}
