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
