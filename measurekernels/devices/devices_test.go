package devices

import (
	"errors"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/gpu"
)

func TestDiscoverReportsEachBackend(t *testing.T) {
	rts := Discover()
	if len(rts) != 2 || rts[0].Backend != gpu.OpenCL || rts[1].Backend != gpu.CUDA {
		t.Fatalf("Discover() = %+v, want OpenCL then CUDA", rts)
	}
	for _, r := range rts {
		if (r.Runtime == nil) == (r.Err == nil) {
			t.Errorf("%s: exactly one of Runtime and Err must be set: %+v", r.Backend, r)
		}
	}
	// CI has PoCL.
	if rts[0].Err != nil {
		t.Fatalf("OpenCL must answer on this machine: %v", rts[0].Err)
	}
}

func TestOpenBySelector(t *testing.T) {
	dev, err := Open("opencl:0")
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if dev.Info().Backend != gpu.OpenCL || dev.Info().Index != 0 {
		t.Errorf("opened %+v", dev.Info())
	}
	_, err = Open("no-such-device-xyz")
	var se *SelectError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "opencl:0") {
		t.Errorf("unknown selector: %v", err)
	}
}

// oneDevice is a runtime that lists one device and opens none.
type oneDevice struct{ info gpu.Info }

func (o oneDevice) Backend() gpu.Backend         { return o.info.Backend }
func (o oneDevice) Version() string              { return "test" }
func (o oneDevice) Devices() []gpu.Info          { return []gpu.Info{o.info} }
func (o oneDevice) Open(int) (gpu.Device, error) { return nil, errors.New("not opened in tests") }

// Asking for cuda:0 where only OpenCL loaded names the device that is
// there and the reason CUDA is not.
func TestOpenSaysWhyARuntimeIsMissing(t *testing.T) {
	rts := []Runtime{
		{Backend: gpu.OpenCL, Runtime: oneDevice{gpu.Info{Backend: gpu.OpenCL, Name: "Some CPU"}}},
		{Backend: gpu.CUDA, Err: errors.New("cuda: no NVIDIA driver: libcuda.so.1 not found")},
	}
	_, err := open(rts, "cuda:0")
	var se *SelectError
	if !errors.As(err, &se) {
		t.Fatalf("open(cuda:0) = %v, want a *SelectError", err)
	}
	for _, want := range []string{`device "cuda:0"`, "opencl:0 (Some CPU)", "not loaded: cuda: no NVIDIA driver: libcuda.so.1 not found"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
