// Package cuda runs kernels through the NVIDIA driver API (libcuda.so.1),
// compiling CUDA C to PTX with NVRTC (libnvrtc), both loaded at run time
// with purego so that uniperf builds without cgo.
//
// [Load] initializes the driver (cuInit) and returns its [Runtime], which
// implements [gpu.Runtime]: [Runtime.Devices] lists the devices and
// [Runtime.Open] opens one, in its primary context, as a [Device]. A Device
// compiles CUDA C into a [Program], a module loaded from PTX (the JIT log
// on failure), allocates buffers ([Buffer]) and binds a [Kernel], whose
// [Kernel.Run] launches it and times the launch with CUDA events. A failed
// driver or NVRTC call is an [*Error].
//
// The driver binds a context to the calling OS thread, so every method
// locks its goroutine to its thread and makes the device's context current
// for the duration of the call.
package cuda

import (
	"fmt"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/gpu/internal/dl"
)

// Runtime is the loaded driver and its devices.
type Runtime struct {
	drv     *driver
	version int32
	devices []device
}

type device struct {
	ordinal      int32
	info         gpu.Info
	major, minor int32 // compute capability
}

var (
	loadOnce sync.Once
	loaded   *Runtime
	loadErr  error
)

// Load opens libcuda.so.1, initializes the driver and lists its devices.
// It loads once per process.
func Load() (*Runtime, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

func load() (*Runtime, error) {
	lib, err := dl.Open("libcuda.so.1", "libcuda.so")
	if err != nil {
		return nil, fmt.Errorf("cuda: no NVIDIA driver: %w", err)
	}
	// CUDA 12.8 added a versioned elapsed-time entry point; older drivers
	// export only the original.
	elapsed := "cuEventElapsedTime"
	if lib.Has("cuEventElapsedTime_v2") {
		elapsed = "cuEventElapsedTime_v2"
	}
	drv := new(driver)
	if err := lib.Bind(drv.funcs(elapsed)); err != nil {
		return nil, fmt.Errorf("cuda: %w", err)
	}
	code := drv.init(0)
	if code == errNoDevice {
		return nil, fmt.Errorf("cuda: the driver is installed but found no device (CUDA_ERROR_NO_DEVICE)")
	}
	if err := drv.check("cuInit", code); err != nil {
		return nil, err
	}
	r := &Runtime{drv: drv}
	if err := drv.check("cuDriverGetVersion", drv.driverGetVersion(&r.version)); err != nil {
		return nil, err
	}
	var n int32
	if err := drv.check("cuDeviceGetCount", drv.deviceGetCount(&n)); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("cuda: the driver is installed but found no device")
	}
	for i := range n {
		d, err := r.describe(i)
		if err != nil {
			return nil, err
		}
		r.devices = append(r.devices, d)
	}
	return r, nil
}

func (r *Runtime) describe(ordinal int32) (device, error) {
	drv := r.drv
	var dev int32
	if err := drv.check("cuDeviceGet", drv.deviceGet(&dev, ordinal)); err != nil {
		return device{}, err
	}
	name := make([]byte, 256)
	if err := drv.check("cuDeviceGetName", drv.deviceGetName(&name[0], int32(len(name)), dev)); err != nil {
		return device{}, err
	}
	var total uintptr
	if err := drv.check("cuDeviceTotalMem", drv.deviceTotalMem(&total, dev)); err != nil {
		return device{}, err
	}
	var firstErr error
	attr := func(a int32) int64 {
		var v int32
		if err := drv.check(fmt.Sprintf("cuDeviceGetAttribute(%d)", a), drv.deviceGetAttribute(&v, a, dev)); err != nil && firstErr == nil {
			firstErr = err
		}
		return int64(v)
	}
	d := device{ordinal: dev}
	d.info = gpu.Info{
		Backend:        gpu.CUDA,
		Index:          int(ordinal),
		Platform:       "CUDA",
		PlatformVendor: "NVIDIA",
		Name:           dl.CString(name),
		Vendor:         "NVIDIA",
		Driver:         r.Version(),
		ComputeUnits:   int(attr(attrSMCount)),
		ClockMHz:       int(attr(attrClockKHz) / 1000),
		GlobalMemBytes: int64(total),
		LocalMemBytes:  attr(attrSharedMem),
		MaxAllocBytes:  int64(total),
		MaxGroupSize:   attr(attrMaxThreads),
		Float64:        true,
	}
	for ax := range 3 {
		d.info.MaxGroupDims[ax] = attr(attrMaxBlockDimX + int32(ax))
	}
	d.major, d.minor = int32(attr(attrCCMajor)), int32(attr(attrCCMinor))
	return d, firstErr
}

// Backend is gpu.CUDA.
func (r *Runtime) Backend() gpu.Backend { return gpu.CUDA }

// Version is the driver's CUDA version, e.g. "CUDA 12.4".
func (r *Runtime) Version() string {
	return fmt.Sprintf("CUDA %d.%d", r.version/1000, r.version%1000/10)
}

// Devices lists the driver's devices in ordinal order.
func (r *Runtime) Devices() []gpu.Info {
	out := make([]gpu.Info, len(r.devices))
	for i, d := range r.devices {
		out[i] = d.info
	}
	return out
}

func (drv *driver) check(op string, code int32) error {
	if code == success {
		return nil
	}
	name := fmt.Sprintf("CUDA error %d", code)
	var p *byte
	if drv.getErrorName(code, &p) == success && p != nil {
		name = dl.GoString(p)
	}
	return &Error{Op: op, Code: code, Name: name}
}

var (
	nvrtcOnce sync.Once
	nvrtcLib  *nvrtc
	nvrtcErr  error
)

// nvrtcNames covers the sonames of CUDA 11.2 to 13 and the default toolkit
// location, which is often not on the linker's search path.
var nvrtcNames = func() []string {
	var names []string
	for _, dir := range []string{"", "/usr/local/cuda/lib64/"} {
		for _, v := range []string{"", ".13", ".12", ".11.2"} {
			names = append(names, dir+"libnvrtc.so"+v)
		}
	}
	return names
}()

func loadNVRTC() (*nvrtc, error) {
	nvrtcOnce.Do(func() {
		lib, err := dl.Open(nvrtcNames...)
		if err != nil {
			nvrtcErr = fmt.Errorf("cuda: NVRTC, which compiles CUDA C, is missing: %w; install the CUDA toolkit's nvrtc library", err)
			return
		}
		n := new(nvrtc)
		if err := lib.Bind(n.funcs()); err != nil {
			nvrtcErr = fmt.Errorf("cuda: %w", err)
			return
		}
		nvrtcLib = n
	})
	return nvrtcLib, nvrtcErr
}

func (n *nvrtc) check(op string, code int32) error {
	if code == success {
		return nil
	}
	return &Error{Op: op, Code: code, Name: strings.TrimSpace(n.getErrorString(code))}
}

var _ gpu.Runtime = (*Runtime)(nil)
