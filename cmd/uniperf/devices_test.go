package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// fakeRuntime answers with fixed devices.
type fakeRuntime struct{ infos []gpu.Info }

func (f fakeRuntime) Backend() gpu.Backend         { return f.infos[0].Backend }
func (f fakeRuntime) Version() string              { return "fake 1.0" }
func (f fakeRuntime) Devices() []gpu.Info          { return f.infos }
func (f fakeRuntime) Open(int) (gpu.Device, error) { return nil, errors.New("fake") }

var fakeGPU = gpu.Info{Backend: gpu.CUDA, Index: 0, Name: "Fake GPU 9000", Driver: "CUDA 12.4",
	ComputeUnits: 108, ClockMHz: 1410, GlobalMemBytes: 40 << 30, LocalMemBytes: 48 << 10,
	MaxAllocBytes: 40 << 30, MaxGroupSize: 1024, Float64: true}

func TestListDevicesTable(t *testing.T) {
	var out bytes.Buffer
	rts := []devices.Runtime{
		{Backend: gpu.OpenCL, Err: errors.New("opencl: libOpenCL.so.1 not found (gone)")},
		{Backend: gpu.CUDA, Runtime: fakeRuntime{[]gpu.Info{fakeGPU}}},
	}
	if err := listDevices(&out, rts, false); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"cuda:0", "Fake GPU 9000", "CUDA 12.4", "108", "1410 MHz", "40.0 GiB", "48.0 KiB", "1024",
		"opencl: libOpenCL.so.1 not found (gone)\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("listing lacks %q:\n%s", want, s)
		}
	}
}

func TestListDevicesNoneAnswered(t *testing.T) {
	var out bytes.Buffer
	rts := []devices.Runtime{
		{Backend: gpu.OpenCL, Err: errors.New("opencl: missing")},
		{Backend: gpu.CUDA, Err: errors.New("cuda: missing")},
	}
	err := listDevices(&out, rts, false)
	var f *failure
	if !errors.As(err, &f) || !errors.Is(err, devices.ErrNoRuntime) {
		t.Fatalf("got %v, want a system failure (exit 1) saying no runtime answered", err)
	}
	if !strings.Contains(out.String(), "opencl: missing\ncuda: missing\n") {
		t.Errorf("each missing runtime should be one line:\n%s", out.String())
	}
}

func TestListDevicesJSON(t *testing.T) {
	var out bytes.Buffer
	rts := []devices.Runtime{{Backend: gpu.CUDA, Runtime: fakeRuntime{[]gpu.Info{fakeGPU}}}}
	if err := listDevices(&out, rts, true); err != nil {
		t.Fatal(err)
	}
	var got []runtimeJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Version != "fake 1.0" || len(got[0].Devices) != 1 ||
		got[0].Devices[0].ID != "cuda:0" || got[0].Devices[0].GlobalMemBytes != 40<<30 {
		t.Errorf("JSON = %+v", got)
	}
}

// On this machine PoCL answers, so the real command succeeds.
func TestDevicesCommandOnPoCL(t *testing.T) {
	var out bytes.Buffer
	devicesCmd.SetOut(&out)
	defer devicesCmd.SetOut(nil)
	if code := run([]string{"devices"}); code != 0 {
		t.Fatalf("uniperf devices exited %d:\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "opencl:0") {
		t.Errorf("no OpenCL device listed:\n%s", out.String())
	}
}
