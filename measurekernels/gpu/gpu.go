// Package gpu is the backend-neutral face of the compute runtimes uniperf
// measures on. A [Runtime] (OpenCL or CUDA, loaded at run time without cgo
// by the opencl and cuda subpackages) lists its devices; an open [Device]
// compiles kernel source into a [Program], allocates buffers ([Buffer]),
// and runs a [Kernel] over a global and local size, timing each launch with
// the device's own event timers.
//
// The types here carry no driver state; they exist so that the measurement
// harness and the command line are written once for both backends.
package gpu

import (
	"fmt"
	"strings"
)

// Backend names a runtime: "opencl" or "cuda", as recorded in measurement
// tables.
type Backend string

// The runtimes uniperf knows.
const (
	OpenCL Backend = "opencl"
	CUDA   Backend = "cuda"
)

// Info describes a device as its runtime reports it.
type Info struct {
	Backend  Backend
	Index    int    // position in the runtime's device list, across platforms
	Platform string // OpenCL platform name; "CUDA" for CUDA
	// PlatformVendor is the OpenCL platform's vendor (e.g. "The pocl
	// project"); "NVIDIA" for CUDA.
	PlatformVendor string
	Name           string
	Vendor         string
	Driver         string // driver version string

	ComputeUnits   int   // OpenCL compute units or CUDA multiprocessors
	ClockMHz       int   // maximum core clock
	GlobalMemBytes int64 // device memory
	LocalMemBytes  int64 // local (shared) memory per work-group
	MaxAllocBytes  int64 // largest single buffer
	MaxGroupSize   int64 // largest work-group, in work-items
	MaxGroupDims   [3]int64
	Float64        bool // double precision supported
}

// ID is the selector that names this device unambiguously, e.g. "opencl:0".
func (i Info) ID() string { return fmt.Sprintf("%s:%d", i.Backend, i.Index) }

// Runtime is a loaded driver library and the devices it found.
type Runtime interface {
	Backend() Backend
	// Version describes the driver library, e.g. the CUDA driver version.
	Version() string
	Devices() []Info
	// Open creates a context and queue (or stream) on device index.
	Open(index int) (Device, error)
}

// Device is an open device. Its methods are not safe for concurrent use.
type Device interface {
	Info() Info
	// Compile builds source (OpenCL C or CUDA C) for this device. A build
	// failure is a *CompileError carrying the compiler's log.
	Compile(source string) (Program, error)
	// Alloc allocates a device buffer of the given size in bytes.
	Alloc(bytes int64) (Buffer, error)
	Close() error
}

// Program is compiled device code.
type Program interface {
	// Kernel looks up an entry point by name.
	Kernel(name string) (Kernel, error)
	Close() error
}

// Buffer is device memory.
type Buffer interface {
	Size() int64
	// WriteAt copies src into the buffer from byte off on (all of it, or
	// an error: unlike io.WriterAt it returns no count); Read copies the
	// start of the buffer into dst. Both block until the copy is complete.
	WriteAt(src []byte, off int64) error
	Read(dst []byte) error
	Close() error
}

// Kernel is one entry point of a Program.
type Kernel interface {
	Name() string
	// SetArgs binds the kernel's arguments in order. Each is a Buffer or
	// one of int32, int64, float32, float64.
	SetArgs(args ...any) error
	// Run launches the kernel over global work-items in work-groups of
	// local work-items per axis (1 to 3 axes; global a multiple of local),
	// waits for it, and returns its run time in seconds as the device's
	// event timers measured it.
	Run(global, local []int64) (float64, error)
	// MaxGroup is the most work-items a work-group of this kernel may
	// have on its device, which can be below the device's limit: NVIDIA's
	// OpenCL allows 256 for every library kernel on an H100, CUDA 1024.
	MaxGroup() int64
	Close() error
}

// CompileError is a failed build, with the compiler's log.
type CompileError struct {
	Backend Backend
	Device  string
	Status  string // the runtime's error code, e.g. CL_BUILD_PROGRAM_FAILURE
	Log     string
}

func (e *CompileError) Error() string {
	log := strings.TrimSpace(e.Log)
	if log == "" {
		log = "(the compiler gave no log)"
	}
	return fmt.Sprintf("%s: compiling for %s failed (%s):\n%s", e.Backend, e.Device, e.Status, log)
}

// CheckGrid validates a launch grid: 1 to 3 axes, the same number for
// global and local, positive sizes, global a multiple of local, and a
// work-group that fits the device.
func CheckGrid(info Info, global, local []int64) error {
	if len(global) < 1 || len(global) > 3 || len(global) != len(local) {
		return fmt.Errorf("launch grid: global %v and local %v must have the same number of axes, 1 to 3", global, local)
	}
	group := int64(1)
	for ax := range global {
		if global[ax] < 1 || local[ax] < 1 {
			return fmt.Errorf("launch grid: axis %d: sizes must be positive (global %d, local %d)", ax, global[ax], local[ax])
		}
		if global[ax]%local[ax] != 0 {
			return fmt.Errorf("launch grid: axis %d: global size %d is not a multiple of local size %d", ax, global[ax], local[ax])
		}
		if d := info.MaxGroupDims[ax]; d > 0 && local[ax] > d {
			return fmt.Errorf("launch grid: axis %d: local size %d exceeds the device's limit %d", ax, local[ax], d)
		}
		group *= local[ax]
	}
	if info.MaxGroupSize > 0 && group > info.MaxGroupSize {
		return fmt.Errorf("launch grid: work-group of %d work-items exceeds the device's limit %d", group, info.MaxGroupSize)
	}
	return nil
}

// CheckAlloc rejects a buffer the device cannot hold, before the driver is
// asked (some drivers allocate lazily and fail only at first use).
func CheckAlloc(info Info, bytes int64) error {
	if bytes <= 0 {
		return fmt.Errorf("%s: allocating %d bytes: size must be positive", info.ID(), bytes)
	}
	if info.MaxAllocBytes > 0 && bytes > info.MaxAllocBytes {
		return fmt.Errorf("%s (%s): out of memory: a buffer of %d bytes exceeds the device's largest allocation of %d bytes", info.ID(), info.Name, bytes, info.MaxAllocBytes)
	}
	return nil
}

// CheckCopy rejects a copy of n bytes at byte off to or from a buffer of
// size bytes that would leave the buffer.
func CheckCopy(backend Backend, n int, off, size int64) error {
	if off < 0 || int64(n) > size-off {
		return fmt.Errorf("%s: copying %d bytes at offset %d to or from a buffer of %d", backend, n, off, size)
	}
	return nil
}
