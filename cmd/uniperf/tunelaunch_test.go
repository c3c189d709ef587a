package main

import (
	"os"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// TestFitsDevice checks the launch limits against matmul_kernel at its
// defaults (BX = 32, BY = 8, TX = 2, TY = 4): a 32 × 8 work-group of 256
// work-items, and local arrays sA [32, 32] and sB [32, 64] of f32, so
// (1024 + 2048)·4 = 12,288 bytes, derived by hand from the declarations.
func TestFitsDevice(t *testing.T) {
	text, err := os.ReadFile("../../examples/matmul_kernel.knl")
	if err != nil {
		t.Fatal(err)
	}
	ir, err := counts.ParseKernel("matmul_kernel.knl", text, nil)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 256}
	for _, c := range []struct {
		info gpu.Info
		want string
	}{
		{gpu.Info{MaxGroupSize: 256, LocalMemBytes: 12288}, ""},
		{gpu.Info{MaxGroupSize: 255, LocalMemBytes: 12288}, "work-group of 256 work-items exceeds the device's limit 255"},
		{gpu.Info{MaxGroupSize: 256, MaxGroupDims: [3]int64{16, 1024, 64}}, "axis 0: local size 32 exceeds the device's limit 16"},
		{gpu.Info{MaxGroupSize: 256, LocalMemBytes: 12287}, "local arrays of 12288 bytes exceed the device's 12287 bytes"},
	} {
		err := fitsDevice(c.info, ir, params)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.info, err, c.want)
		}
	}
}
