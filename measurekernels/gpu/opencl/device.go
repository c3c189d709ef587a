package opencl

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Open creates a context and an in-order profiling queue on device index.
func (r *Runtime) Open(index int) (gpu.Device, error) {
	if index < 0 || index >= len(r.devices) {
		return nil, fmt.Errorf("opencl: no device %d (there are %d)", index, len(r.devices))
	}
	d := r.devices[index]
	var code int32
	id := d.id
	ctx := r.api.createContext(nil, 1, &id, 0, 0, &code)
	if err := check("clCreateContext("+d.info.Name+")", code); err != nil {
		return nil, err
	}
	queue := r.api.createCommandQueue(ctx, d.id, queueProfilingEnable, &code)
	if err := check("clCreateCommandQueue("+d.info.Name+")", code); err != nil {
		r.api.releaseContext(ctx)
		return nil, err
	}
	return &Device{api: r.api, id: d.id, info: d.info, ctx: ctx, queue: queue}, nil
}

// Device is an open OpenCL device: a context and one in-order queue with
// profiling enabled.
type Device struct {
	api   *api
	id    uintptr
	info  gpu.Info
	ctx   uintptr
	queue uintptr
}

// Info describes the device.
func (d *Device) Info() gpu.Info { return d.info }

// Close releases the queue and the context. Programs, kernels and buffers
// must be closed first.
func (d *Device) Close() error {
	if d.queue == 0 {
		return nil
	}
	err := errors.Join(
		check("clFinish", d.api.finish(d.queue)),
		check("clReleaseCommandQueue", d.api.releaseCommandQueue(d.queue)),
		check("clReleaseContext", d.api.releaseContext(d.ctx)))
	d.queue, d.ctx = 0, 0
	return err
}

// Compile builds OpenCL C source. On failure the error is a
// *gpu.CompileError with the build log.
func (d *Device) Compile(source string) (gpu.Program, error) {
	src := append([]byte(source), 0)
	var pin runtime.Pinner
	defer pin.Unpin()
	p := &src[0]
	pin.Pin(p)
	var code int32
	prog := d.api.createProgram(d.ctx, 1, &p, nil, &code)
	if err := check("clCreateProgramWithSource", code); err != nil {
		return nil, err
	}
	id := d.id
	code = d.api.buildProgram(prog, 1, &id, "", 0, 0)
	if code != success {
		log := d.buildLog(prog)
		d.api.releaseProgram(prog)
		return nil, &gpu.CompileError{Backend: gpu.OpenCL, Device: d.info.Name, Status: codeName(code), Log: log}
	}
	return &Program{dev: d, handle: prog}, nil
}

func (d *Device) buildLog(prog uintptr) string {
	var n uintptr
	if d.api.getProgramBuildInfo(prog, d.id, programBuildLog, 0, nil, &n) != success || n == 0 {
		return ""
	}
	b := make([]byte, n)
	if d.api.getProgramBuildInfo(prog, d.id, programBuildLog, n, unsafe.Pointer(&b[0]), nil) != success {
		return ""
	}
	if i := len(b) - 1; i >= 0 && b[i] == 0 {
		b = b[:i]
	}
	return string(b)
}

// Alloc allocates a read-write buffer.
func (d *Device) Alloc(bytes int64) (gpu.Buffer, error) {
	if err := gpu.CheckAlloc(d.info, bytes); err != nil {
		return nil, err
	}
	var code int32
	mem := d.api.createBuffer(d.ctx, memReadWrite, uintptr(bytes), nil, &code)
	if code == memAllocationFailure || code == invalidBufferSize || code == outOfHostMemory || code == outOfResources {
		return nil, fmt.Errorf("%s (%s): out of memory: allocating %d bytes failed (%s)", d.info.ID(), d.info.Name, bytes, codeName(code))
	}
	if err := check(fmt.Sprintf("clCreateBuffer(%d bytes)", bytes), code); err != nil {
		return nil, err
	}
	return &Buffer{dev: d, mem: mem, size: bytes}, nil
}

// Program is a built OpenCL program.
type Program struct {
	dev    *Device
	handle uintptr
}

// Kernel creates the kernel named name.
func (p *Program) Kernel(name string) (gpu.Kernel, error) {
	var code int32
	k := p.dev.api.createKernel(p.handle, name, &code)
	if err := check(fmt.Sprintf("clCreateKernel(%q)", name), code); err != nil {
		return nil, err
	}
	var wg uintptr
	if err := check("clGetKernelWorkGroupInfo", p.dev.api.getKernelGroupInfo(k, p.dev.id, kernelWorkGroupSize, unsafe.Sizeof(wg), unsafe.Pointer(&wg), nil)); err != nil {
		p.dev.api.releaseKernel(k)
		return nil, err
	}
	return &Kernel{dev: p.dev, handle: k, name: name, maxGroup: int64(wg)}, nil
}

// Close releases the program.
func (p *Program) Close() error {
	if p.handle == 0 {
		return nil
	}
	err := check("clReleaseProgram", p.dev.api.releaseProgram(p.handle))
	p.handle = 0
	return err
}

// Buffer is an OpenCL buffer object.
type Buffer struct {
	dev  *Device
	mem  uintptr
	size int64
}

// Size is the buffer's size in bytes.
func (b *Buffer) Size() int64 { return b.size }

// WriteAt copies src into the buffer from byte off on and waits for the
// copy.
func (b *Buffer) WriteAt(src []byte, off int64) error {
	if err := gpu.CheckCopy(gpu.OpenCL, len(src), off, b.size); err != nil || len(src) == 0 {
		return err
	}
	return check("clEnqueueWriteBuffer", b.dev.api.enqueueWriteBuffer(b.dev.queue, b.mem, clTrue, uintptr(off), uintptr(len(src)), unsafe.Pointer(&src[0]), 0, nil, nil))
}

// Read copies the buffer's first len(dst) bytes into dst and waits.
func (b *Buffer) Read(dst []byte) error {
	if err := gpu.CheckCopy(gpu.OpenCL, len(dst), 0, b.size); err != nil || len(dst) == 0 {
		return err
	}
	return check("clEnqueueReadBuffer", b.dev.api.enqueueReadBuffer(b.dev.queue, b.mem, clTrue, 0, uintptr(len(dst)), unsafe.Pointer(&dst[0]), 0, nil, nil))
}

// Close releases the buffer.
func (b *Buffer) Close() error {
	if b.mem == 0 {
		return nil
	}
	err := check("clReleaseMemObject", b.dev.api.releaseMemObject(b.mem))
	b.mem = 0
	return err
}

// Kernel is an OpenCL kernel object with its arguments.
type Kernel struct {
	dev      *Device
	handle   uintptr
	name     string
	maxGroup int64 // CL_KERNEL_WORK_GROUP_SIZE: the device limit for this kernel
}

// Name is the kernel's entry-point name.
func (k *Kernel) Name() string { return k.name }

// SetArgs binds arguments: *Buffer from the same device, int32, int64,
// float32 or float64.
func (k *Kernel) SetArgs(args ...any) error {
	for i, a := range args {
		var code int32
		switch v := a.(type) {
		case *Buffer:
			if v.dev != k.dev || v.mem == 0 {
				return fmt.Errorf("opencl: kernel %s argument %d: buffer is closed or belongs to another device", k.name, i)
			}
			mem := v.mem
			code = k.dev.api.setKernelArg(k.handle, uint32(i), unsafe.Sizeof(mem), unsafe.Pointer(&mem))
		case int32:
			code = k.dev.api.setKernelArg(k.handle, uint32(i), 4, unsafe.Pointer(&v))
		case int64:
			code = k.dev.api.setKernelArg(k.handle, uint32(i), 8, unsafe.Pointer(&v))
		case float32:
			code = k.dev.api.setKernelArg(k.handle, uint32(i), 4, unsafe.Pointer(&v))
		case float64:
			code = k.dev.api.setKernelArg(k.handle, uint32(i), 8, unsafe.Pointer(&v))
		default:
			return fmt.Errorf("opencl: kernel %s argument %d: unsupported type %T", k.name, i, a)
		}
		if err := check(fmt.Sprintf("clSetKernelArg(%s, %d)", k.name, i), code); err != nil {
			return err
		}
	}
	return nil
}

// MaxGroup is CL_KERNEL_WORK_GROUP_SIZE.
func (k *Kernel) MaxGroup() int64 { return k.maxGroup }

// Run launches the kernel, waits for it, and returns the time between the
// event's CL_PROFILING_COMMAND_START and CL_PROFILING_COMMAND_END.
func (k *Kernel) Run(global, local []int64) (float64, error) {
	if err := gpu.CheckGrid(k.dev.info, global, local); err != nil {
		return 0, fmt.Errorf("opencl: kernel %s: %w", k.name, err)
	}
	g, l := make([]uintptr, len(global)), make([]uintptr, len(local))
	group := int64(1)
	for i := range global {
		g[i], l[i] = uintptr(global[i]), uintptr(local[i])
		group *= local[i]
	}
	if group > k.maxGroup {
		return 0, fmt.Errorf("opencl: kernel %s: work-group of %d work-items exceeds this kernel's limit %d on %s", k.name, group, k.maxGroup, k.dev.info.Name)
	}
	var ev uintptr
	op := fmt.Sprintf("clEnqueueNDRangeKernel(%s, global %v, local %v)", k.name, global, local)
	if err := check(op, k.dev.api.enqueueNDRangeKernel(k.dev.queue, k.handle, uint32(len(g)), nil, &g[0], &l[0], 0, nil, &ev)); err != nil {
		return 0, err
	}
	defer k.dev.api.releaseEvent(ev)
	if err := check("clWaitForEvents("+k.name+")", k.dev.api.waitForEvents(1, &ev)); err != nil {
		return 0, err
	}
	var start, end uint64
	if err := check("clGetEventProfilingInfo", k.dev.api.getEventProfilingInfo(ev, profilingStart, 8, unsafe.Pointer(&start), nil)); err != nil {
		return 0, err
	}
	if err := check("clGetEventProfilingInfo", k.dev.api.getEventProfilingInfo(ev, profilingEnd, 8, unsafe.Pointer(&end), nil)); err != nil {
		return 0, err
	}
	if end < start {
		return 0, fmt.Errorf("opencl: kernel %s: device timer went backwards (start %d ns, end %d ns)", k.name, start, end)
	}
	return float64(end-start) * 1e-9, nil
}

// Close releases the kernel.
func (k *Kernel) Close() error {
	if k.handle == 0 {
		return nil
	}
	err := check("clReleaseKernel", k.dev.api.releaseKernel(k.handle))
	k.handle = 0
	return err
}

var (
	_ gpu.Device  = (*Device)(nil)
	_ gpu.Program = (*Program)(nil)
	_ gpu.Buffer  = (*Buffer)(nil)
	_ gpu.Kernel  = (*Kernel)(nil)
)
