// Package opencl runs kernels through the system's OpenCL ICD loader
// (libOpenCL.so.1), loaded at run time with purego so that uniperf builds
// without cgo.
//
// [Load] opens the library and returns its [Runtime], which implements
// [gpu.Runtime]: [Runtime.Devices] lists the devices of every platform and
// [Runtime.Open] opens one as a [Device], with one context and profiling
// queue. A Device builds OpenCL C into a [Program] (the compiler log on
// failure), allocates buffers ([Buffer]) and creates a [Kernel], whose [Kernel.Run]
// launches it and times the launch from its event's device-side start and
// end timestamps. A failed OpenCL call is an [*Error].
package opencl

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/gpu/internal/dl"
)

// libraryNames are tried in order; the versioned soname is what the ICD
// loader package installs, the bare name what development packages add.
var libraryNames = []string{"libOpenCL.so.1", "libOpenCL.so"}

// Runtime is the loaded OpenCL library and the devices of every platform.
type Runtime struct {
	api     *api
	devices []device
}

type device struct {
	id   uintptr
	info gpu.Info
}

var (
	loadOnce sync.Once
	loaded   *Runtime
	loadErr  error
)

// Load opens the OpenCL library and enumerates its devices. It loads once
// per process; later calls return the same result.
func Load() (*Runtime, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

func load() (*Runtime, error) {
	lib, err := dl.Open(libraryNames...)
	if err != nil {
		return nil, fmt.Errorf("opencl: %w; install an OpenCL driver (e.g. pocl-opencl-icd)", err)
	}
	a := new(api)
	if err := lib.Bind(a.funcs()); err != nil {
		return nil, fmt.Errorf("opencl: %w", err)
	}
	r := &Runtime{api: a}
	platforms, err := r.platforms()
	if err != nil {
		return nil, err
	}
	for _, p := range platforms {
		if err := r.addDevices(p); err != nil {
			return nil, err
		}
	}
	if len(r.devices) == 0 {
		return nil, fmt.Errorf("opencl: the ICD loader found no devices")
	}
	return r, nil
}

func (r *Runtime) platforms() ([]uintptr, error) {
	var n uint32
	code := r.api.getPlatformIDs(0, nil, &n)
	if code == platformNotFoundKHR || (code == success && n == 0) {
		return nil, fmt.Errorf("opencl: no OpenCL platform is installed (no ICD in /etc/OpenCL/vendors)")
	}
	if err := check("clGetPlatformIDs", code); err != nil {
		return nil, err
	}
	ids := make([]uintptr, n)
	if err := check("clGetPlatformIDs", r.api.getPlatformIDs(n, &ids[0], nil)); err != nil {
		return nil, err
	}
	return ids, nil
}

func (r *Runtime) addDevices(platform uintptr) error {
	pname, err := r.platformString(platform, platformName)
	if err != nil {
		return err
	}
	pvendor, err := r.platformString(platform, platformVendor)
	if err != nil {
		return err
	}
	var n uint32
	code := r.api.getDeviceIDs(platform, deviceTypeAll, 0, nil, &n)
	if code == deviceNotFound || n == 0 {
		return nil
	}
	if err := check("clGetDeviceIDs", code); err != nil {
		return err
	}
	ids := make([]uintptr, n)
	if err := check("clGetDeviceIDs", r.api.getDeviceIDs(platform, deviceTypeAll, n, &ids[0], nil)); err != nil {
		return err
	}
	for _, id := range ids {
		info, err := r.describe(id)
		if err != nil {
			return err
		}
		info.Platform, info.PlatformVendor = pname, pvendor
		info.Index = len(r.devices)
		r.devices = append(r.devices, device{id: id, info: info})
	}
	return nil
}

func (r *Runtime) describe(id uintptr) (gpu.Info, error) {
	q := deviceQuery{api: r.api, id: id}
	info := gpu.Info{
		Backend:        gpu.OpenCL,
		Name:           q.str(deviceName),
		Vendor:         q.str(deviceVendor),
		Driver:         q.str(driverVersion),
		ComputeUnits:   int(q.u32(deviceMaxComputeUnits)),
		ClockMHz:       int(q.u32(deviceMaxClock)),
		GlobalMemBytes: int64(q.u64(deviceGlobalMemSize)),
		LocalMemBytes:  int64(q.u64(deviceLocalMemSize)),
		MaxAllocBytes:  int64(q.u64(deviceMaxMemAlloc)),
		MaxGroupSize:   int64(q.size(deviceMaxWorkGroupSize)),
		Float64:        q.u64(deviceDoubleFPConfig) != 0,
	}
	dims := q.u32(deviceMaxWorkItemDims)
	if q.err == nil && dims > 0 {
		sizes := make([]uintptr, dims)
		q.raw(deviceMaxWorkItemSizes, unsafe.Pointer(&sizes[0]), uintptr(len(sizes))*unsafe.Sizeof(sizes[0]))
		for i := 0; i < 3 && i < len(sizes); i++ {
			info.MaxGroupDims[i] = int64(sizes[i])
		}
	}
	return info, q.err
}

// deviceQuery reads device properties, keeping the first error so that a
// description is read in one pass and checked once.
type deviceQuery struct {
	api *api
	id  uintptr
	err error
}

func (q *deviceQuery) raw(param uint32, value unsafe.Pointer, size uintptr) {
	if q.err != nil {
		return
	}
	q.err = check(fmt.Sprintf("clGetDeviceInfo(0x%04x)", param), q.api.getDeviceInfo(q.id, param, size, value, nil))
}

func (q *deviceQuery) u32(param uint32) uint32 {
	var v uint32
	q.raw(param, unsafe.Pointer(&v), 4)
	return v
}

func (q *deviceQuery) u64(param uint32) uint64 {
	var v uint64
	q.raw(param, unsafe.Pointer(&v), 8)
	return v
}

func (q *deviceQuery) size(param uint32) uintptr {
	var v uintptr
	q.raw(param, unsafe.Pointer(&v), unsafe.Sizeof(v))
	return v
}

func (q *deviceQuery) str(param uint32) string {
	if q.err != nil {
		return ""
	}
	var n uintptr
	q.err = check("clGetDeviceInfo", q.api.getDeviceInfo(q.id, param, 0, nil, &n))
	if q.err != nil || n == 0 {
		return ""
	}
	b := make([]byte, n)
	q.raw(param, unsafe.Pointer(&b[0]), n)
	return dl.CString(b)
}

func (r *Runtime) platformString(p uintptr, param uint32) (string, error) {
	var n uintptr
	if err := check("clGetPlatformInfo", r.api.getPlatformInfo(p, param, 0, nil, &n)); err != nil || n == 0 {
		return "", err
	}
	b := make([]byte, n)
	if err := check("clGetPlatformInfo", r.api.getPlatformInfo(p, param, n, unsafe.Pointer(&b[0]), nil)); err != nil {
		return "", err
	}
	return dl.CString(b), nil
}

// Backend is gpu.OpenCL.
func (r *Runtime) Backend() gpu.Backend { return gpu.OpenCL }

// Version lists the platforms' version strings.
func (r *Runtime) Version() string {
	platforms, err := r.platforms()
	if err != nil {
		return ""
	}
	v := ""
	for i, p := range platforms {
		s, _ := r.platformString(p, platformVersion)
		if i > 0 {
			v += "; "
		}
		v += s
	}
	return v
}

// Devices lists every device of every platform.
func (r *Runtime) Devices() []gpu.Info {
	out := make([]gpu.Info, len(r.devices))
	for i, d := range r.devices {
		out[i] = d.info
	}
	return out
}

var _ gpu.Runtime = (*Runtime)(nil)
