package opencl

import (
	"unsafe"

	"github.com/uniperf/uniperf/measurekernels/gpu/internal/dl"
)

// The OpenCL 1.2 entry points uniperf uses, bound at run time. Handles
// (platforms, devices, contexts, queues, programs, kernels, buffers,
// events) are opaque pointers, kept as uintptr.
type api struct {
	getPlatformIDs        func(n uint32, platforms *uintptr, num *uint32) int32
	getPlatformInfo       func(p uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	getDeviceIDs          func(p uintptr, typ uint64, n uint32, devices *uintptr, num *uint32) int32
	getDeviceInfo         func(d uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	createContext         func(props *uintptr, n uint32, devices *uintptr, notify, user uintptr, err *int32) uintptr
	createCommandQueue    func(ctx, dev uintptr, props uint64, err *int32) uintptr
	createProgram         func(ctx uintptr, count uint32, sources **byte, lengths *uintptr, err *int32) uintptr
	buildProgram          func(prog uintptr, n uint32, devices *uintptr, options string, notify, user uintptr) int32
	getProgramBuildInfo   func(prog, dev uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	createKernel          func(prog uintptr, name string, err *int32) uintptr
	getKernelGroupInfo    func(k, dev uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	setKernelArg          func(k uintptr, index uint32, size uintptr, value unsafe.Pointer) int32
	createBuffer          func(ctx uintptr, flags uint64, size uintptr, host unsafe.Pointer, err *int32) uintptr
	enqueueWriteBuffer    func(q, mem uintptr, blocking uint32, offset, size uintptr, ptr unsafe.Pointer, nwait uint32, wait *uintptr, ev *uintptr) int32
	enqueueReadBuffer     func(q, mem uintptr, blocking uint32, offset, size uintptr, ptr unsafe.Pointer, nwait uint32, wait *uintptr, ev *uintptr) int32
	enqueueNDRangeKernel  func(q, k uintptr, dims uint32, offset, global, local *uintptr, nwait uint32, wait *uintptr, ev *uintptr) int32
	waitForEvents         func(n uint32, events *uintptr) int32
	getEventProfilingInfo func(ev uintptr, param uint32, size uintptr, value unsafe.Pointer, ret *uintptr) int32
	finish                func(q uintptr) int32
	releaseEvent          func(h uintptr) int32
	releaseKernel         func(h uintptr) int32
	releaseProgram        func(h uintptr) int32
	releaseMemObject      func(h uintptr) int32
	releaseCommandQueue   func(h uintptr) int32
	releaseContext        func(h uintptr) int32
}

func (a *api) funcs() []dl.Func {
	return []dl.Func{
		{Name: "clGetPlatformIDs", Ptr: &a.getPlatformIDs},
		{Name: "clGetPlatformInfo", Ptr: &a.getPlatformInfo},
		{Name: "clGetDeviceIDs", Ptr: &a.getDeviceIDs},
		{Name: "clGetDeviceInfo", Ptr: &a.getDeviceInfo},
		{Name: "clCreateContext", Ptr: &a.createContext},
		{Name: "clCreateCommandQueue", Ptr: &a.createCommandQueue},
		{Name: "clCreateProgramWithSource", Ptr: &a.createProgram},
		{Name: "clBuildProgram", Ptr: &a.buildProgram},
		{Name: "clGetProgramBuildInfo", Ptr: &a.getProgramBuildInfo},
		{Name: "clCreateKernel", Ptr: &a.createKernel},
		{Name: "clGetKernelWorkGroupInfo", Ptr: &a.getKernelGroupInfo},
		{Name: "clSetKernelArg", Ptr: &a.setKernelArg},
		{Name: "clCreateBuffer", Ptr: &a.createBuffer},
		{Name: "clEnqueueWriteBuffer", Ptr: &a.enqueueWriteBuffer},
		{Name: "clEnqueueReadBuffer", Ptr: &a.enqueueReadBuffer},
		{Name: "clEnqueueNDRangeKernel", Ptr: &a.enqueueNDRangeKernel},
		{Name: "clWaitForEvents", Ptr: &a.waitForEvents},
		{Name: "clGetEventProfilingInfo", Ptr: &a.getEventProfilingInfo},
		{Name: "clFinish", Ptr: &a.finish},
		{Name: "clReleaseEvent", Ptr: &a.releaseEvent},
		{Name: "clReleaseKernel", Ptr: &a.releaseKernel},
		{Name: "clReleaseProgram", Ptr: &a.releaseProgram},
		{Name: "clReleaseMemObject", Ptr: &a.releaseMemObject},
		{Name: "clReleaseCommandQueue", Ptr: &a.releaseCommandQueue},
		{Name: "clReleaseContext", Ptr: &a.releaseContext},
	}
}

// Parameter names and flags from the OpenCL 1.2 headers.
const (
	platformName    = 0x0902
	platformVersion = 0x0901
	platformVendor  = 0x0903

	deviceTypeAll = 0xFFFFFFFF

	deviceMaxComputeUnits  = 0x1002
	deviceMaxWorkItemDims  = 0x1003
	deviceMaxWorkGroupSize = 0x1004
	deviceMaxWorkItemSizes = 0x1005
	deviceMaxClock         = 0x100C
	deviceMaxMemAlloc      = 0x1010
	deviceGlobalMemSize    = 0x101F
	deviceLocalMemSize     = 0x1023
	deviceName             = 0x102B
	deviceVendor           = 0x102C
	driverVersion          = 0x102D
	deviceDoubleFPConfig   = 0x1032

	queueProfilingEnable = 1 << 1
	memReadWrite         = 1 << 0

	programBuildLog      = 0x1183
	kernelWorkGroupSize  = 0x11B0
	profilingStart       = 0x1282
	profilingEnd         = 0x1283
	clTrue               = 1
	success              = 0
	buildProgramFailure  = -11
	platformNotFoundKHR  = -1001
	deviceNotFound       = -1
	memAllocationFailure = -4
	outOfResources       = -5
	outOfHostMemory      = -6
	invalidBufferSize    = -61
)
