package cuda

import (
	"unsafe"

	"github.com/uniperf/uniperf/measurekernels/gpu/internal/dl"
)

// driver holds the CUDA driver API entry points uniperf uses (libcuda.so.1),
// by their exported, versioned symbol names. Handles are opaque pointers
// kept as uintptr; device pointers are 64-bit integers.
type driver struct {
	init               func(flags uint32) int32
	driverGetVersion   func(v *int32) int32
	deviceGetCount     func(n *int32) int32
	deviceGet          func(dev *int32, ordinal int32) int32
	deviceGetName      func(name *byte, n int32, dev int32) int32
	deviceTotalMem     func(bytes *uintptr, dev int32) int32
	deviceGetAttribute func(v *int32, attr int32, dev int32) int32
	primaryCtxRetain   func(ctx *uintptr, dev int32) int32
	primaryCtxRelease  func(dev int32) int32
	ctxSetCurrent      func(ctx uintptr) int32
	ctxSynchronize     func() int32
	moduleLoadDataEx   func(mod *uintptr, image unsafe.Pointer, n uint32, options *int32, values *uintptr) int32
	moduleUnload       func(mod uintptr) int32
	moduleGetFunction  func(fn *uintptr, mod uintptr, name string) int32
	funcGetAttribute   func(v *int32, attr int32, fn uintptr) int32
	memAlloc           func(ptr *uint64, bytes uintptr) int32
	memFree            func(ptr uint64) int32
	memcpyHtoD         func(dst uint64, src unsafe.Pointer, n uintptr) int32
	memcpyDtoH         func(dst unsafe.Pointer, src uint64, n uintptr) int32
	launchKernel       func(fn uintptr, gx, gy, gz, bx, by, bz uint32, shared uint32, stream uintptr, params *unsafe.Pointer, extra unsafe.Pointer) int32
	eventCreate        func(ev *uintptr, flags uint32) int32
	eventRecord        func(ev uintptr, stream uintptr) int32
	eventSynchronize   func(ev uintptr) int32
	eventElapsedTime   func(ms *float32, start, end uintptr) int32
	eventDestroy       func(ev uintptr) int32
	getErrorName       func(code int32, name **byte) int32
}

func (d *driver) funcs(elapsed string) []dl.Func {
	return []dl.Func{
		{Name: "cuInit", Ptr: &d.init},
		{Name: "cuDriverGetVersion", Ptr: &d.driverGetVersion},
		{Name: "cuDeviceGetCount", Ptr: &d.deviceGetCount},
		{Name: "cuDeviceGet", Ptr: &d.deviceGet},
		{Name: "cuDeviceGetName", Ptr: &d.deviceGetName},
		{Name: "cuDeviceTotalMem_v2", Ptr: &d.deviceTotalMem},
		{Name: "cuDeviceGetAttribute", Ptr: &d.deviceGetAttribute},
		{Name: "cuDevicePrimaryCtxRetain", Ptr: &d.primaryCtxRetain},
		{Name: "cuDevicePrimaryCtxRelease_v2", Ptr: &d.primaryCtxRelease},
		{Name: "cuCtxSetCurrent", Ptr: &d.ctxSetCurrent},
		{Name: "cuCtxSynchronize", Ptr: &d.ctxSynchronize},
		{Name: "cuModuleLoadDataEx", Ptr: &d.moduleLoadDataEx},
		{Name: "cuModuleUnload", Ptr: &d.moduleUnload},
		{Name: "cuModuleGetFunction", Ptr: &d.moduleGetFunction},
		{Name: "cuFuncGetAttribute", Ptr: &d.funcGetAttribute},
		{Name: "cuMemAlloc_v2", Ptr: &d.memAlloc},
		{Name: "cuMemFree_v2", Ptr: &d.memFree},
		{Name: "cuMemcpyHtoD_v2", Ptr: &d.memcpyHtoD},
		{Name: "cuMemcpyDtoH_v2", Ptr: &d.memcpyDtoH},
		{Name: "cuLaunchKernel", Ptr: &d.launchKernel},
		{Name: "cuEventCreate", Ptr: &d.eventCreate},
		{Name: "cuEventRecord", Ptr: &d.eventRecord},
		{Name: "cuEventSynchronize", Ptr: &d.eventSynchronize},
		{Name: elapsed, Ptr: &d.eventElapsedTime},
		{Name: "cuEventDestroy_v2", Ptr: &d.eventDestroy},
		{Name: "cuGetErrorName", Ptr: &d.getErrorName},
	}
}

// nvrtc holds the NVRTC entry points (libnvrtc), which compile CUDA C to PTX.
type nvrtc struct {
	createProgram  func(prog *uintptr, src string, name string, nheaders int32, headers, names unsafe.Pointer) int32
	compileProgram func(prog uintptr, nopts int32, opts **byte) int32
	getLogSize     func(prog uintptr, n *uintptr) int32
	getLog         func(prog uintptr, log *byte) int32
	getPTXSize     func(prog uintptr, n *uintptr) int32
	getPTX         func(prog uintptr, ptx *byte) int32
	destroyProgram func(prog *uintptr) int32
	getErrorString func(code int32) string
}

func (n *nvrtc) funcs() []dl.Func {
	return []dl.Func{
		{Name: "nvrtcCreateProgram", Ptr: &n.createProgram},
		{Name: "nvrtcCompileProgram", Ptr: &n.compileProgram},
		{Name: "nvrtcGetProgramLogSize", Ptr: &n.getLogSize},
		{Name: "nvrtcGetProgramLog", Ptr: &n.getLog},
		{Name: "nvrtcGetPTXSize", Ptr: &n.getPTXSize},
		{Name: "nvrtcGetPTX", Ptr: &n.getPTX},
		{Name: "nvrtcDestroyProgram", Ptr: &n.destroyProgram},
		{Name: "nvrtcGetErrorString", Ptr: &n.getErrorString},
	}
}

// Enumerations from cuda.h.
const (
	success          = 0
	errOutOfMemory   = 2
	errNoDevice      = 100
	attrMaxThreads   = 1  // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK
	attrMaxBlockDimX = 2  // ... _Y = 3, _Z = 4
	attrSharedMem    = 8  // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK
	attrClockKHz     = 13 // CU_DEVICE_ATTRIBUTE_CLOCK_RATE
	attrSMCount      = 16 // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
	attrCCMajor      = 75
	attrCCMinor      = 76

	funcAttrMaxThreads = 0 // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK

	jitErrorLogBuffer     = 5 // CU_JIT_ERROR_LOG_BUFFER
	jitErrorLogBufferSize = 6 // CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES

	eventDefault = 0
)
