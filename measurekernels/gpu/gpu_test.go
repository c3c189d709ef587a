package gpu

import (
	"strings"
	"testing"
)

var testDevices = []Info{
	{Backend: OpenCL, Index: 0, Platform: "Portable Computing Language", PlatformVendor: "The pocl project", Name: "pthread-cpu", Vendor: "AuthenticAMD"},
	{Backend: OpenCL, Index: 1, Platform: "NVIDIA CUDA", PlatformVendor: "NVIDIA Corporation", Name: "NVIDIA A100", Vendor: "NVIDIA Corporation"},
	{Backend: CUDA, Index: 0, Platform: "CUDA", PlatformVendor: "NVIDIA", Name: "NVIDIA A100", Vendor: "NVIDIA"},
}

func TestSelect(t *testing.T) {
	for _, c := range []struct{ sel, want string }{
		{"opencl:1", "opencl:1"},
		{"CUDA:0", "cuda:0"},
		{"cuda", "cuda:0"},
		{"opencl", "opencl:0"},
		{"PoCL", "opencl:0"}, // through the platform vendor
		{"pthread", "opencl:0"},
	} {
		got, err := Select(testDevices, c.sel)
		if err != nil || got.ID() != c.want {
			t.Errorf("Select(%q) = %s, %v; want %s", c.sel, got.ID(), err, c.want)
		}
	}
	_, err := Select(testDevices, "a100")
	if err == nil || !strings.Contains(err.Error(), "ambiguous") || !strings.Contains(err.Error(), "cuda:0") {
		t.Errorf("ambiguous selector: %v", err)
	}
	_, err = Select(testDevices, "radeon")
	if err == nil || !strings.Contains(err.Error(), "opencl:0 (pthread-cpu)") {
		t.Errorf("unknown selector should list the devices: %v", err)
	}
	if _, err := Select(nil, "cuda"); err == nil || !strings.Contains(err.Error(), "no cuda device") {
		t.Errorf("missing backend: %v", err)
	}
}

func TestCheckGrid(t *testing.T) {
	info := Info{MaxGroupSize: 256, MaxGroupDims: [3]int64{256, 256, 64}}
	ok := [][2][]int64{{{256}, {128}}, {{32, 48}, {16, 12}}, {{4, 4, 4}, {1, 2, 4}}}
	for _, g := range ok {
		if err := CheckGrid(info, g[0], g[1]); err != nil {
			t.Errorf("CheckGrid(%v, %v): %v", g[0], g[1], err)
		}
	}
	bad := map[string][2][]int64{
		"not a multiple":                 {{100}, {64}},
		"same number":                    {{64, 64}, {64}},
		"must be positive":               {{0}, {1}},
		"exceeds the device's limit 256": {{512}, {512}},
		"exceeds the device's limit 64":  {{1, 1, 128}, {1, 1, 128}},
		"1 to 3":                         {{1, 1, 1, 1}, {1, 1, 1, 1}},
	}
	for want, g := range bad {
		err := CheckGrid(info, g[0], g[1])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckGrid(%v, %v) = %v, want an error containing %q", g[0], g[1], err, want)
		}
	}
}

func TestCheckAlloc(t *testing.T) {
	info := Info{Backend: OpenCL, Name: "dev", MaxAllocBytes: 1024}
	if err := CheckAlloc(info, 1024); err != nil {
		t.Error(err)
	}
	if err := CheckAlloc(info, 1025); err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Errorf("got %v", err)
	}
	if err := CheckAlloc(info, 0); err == nil {
		t.Error("zero-byte allocation accepted")
	}
}
