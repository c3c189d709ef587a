package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/gpu/internal/dl"
)

// Open retains device index's primary context and creates the two events
// that time launches.
func (r *Runtime) Open(index int) (gpu.Device, error) {
	if index < 0 || index >= len(r.devices) {
		return nil, fmt.Errorf("cuda: no device %d (there are %d)", index, len(r.devices))
	}
	d := &Device{drv: r.drv, dev: r.devices[index]}
	if err := r.drv.check("cuDevicePrimaryCtxRetain", r.drv.primaryCtxRetain(&d.ctx, d.dev.ordinal)); err != nil {
		return nil, err
	}
	err := d.do(func() error {
		return errors.Join(
			d.drv.check("cuEventCreate", d.drv.eventCreate(&d.start, eventDefault)),
			d.drv.check("cuEventCreate", d.drv.eventCreate(&d.end, eventDefault)))
	})
	if err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Device is an open CUDA device: its primary context, and the start and end
// events that time launches on the default stream.
type Device struct {
	drv        *driver
	dev        device
	ctx        uintptr
	start, end uintptr
}

// do runs f with the device's context current on a locked OS thread.
func (d *Device) do(f func() error) error {
	if d.ctx == 0 {
		return fmt.Errorf("cuda: device %s is closed", d.dev.info.Name)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := d.drv.check("cuCtxSetCurrent", d.drv.ctxSetCurrent(d.ctx)); err != nil {
		return err
	}
	return f()
}

// Info describes the device.
func (d *Device) Info() gpu.Info { return d.dev.info }

// Close destroys the events and releases the primary context.
func (d *Device) Close() error {
	if d.ctx == 0 {
		return nil
	}
	err := d.do(func() error {
		var errs []error
		for _, ev := range []uintptr{d.start, d.end} {
			if ev != 0 {
				errs = append(errs, d.drv.check("cuEventDestroy", d.drv.eventDestroy(ev)))
			}
		}
		return errors.Join(errs...)
	})
	err = errors.Join(err, d.drv.check("cuDevicePrimaryCtxRelease", d.drv.primaryCtxRelease(d.dev.ordinal)))
	d.ctx = 0
	return err
}

// Compile compiles CUDA C to PTX with NVRTC for the device's compute
// capability and loads it as a module. Entry points must be declared
// extern "C". Compiler and JIT failures are *gpu.CompileError with the log.
func (d *Device) Compile(source string) (gpu.Program, error) {
	nv, err := loadNVRTC()
	if err != nil {
		return nil, err
	}
	ptx, err := d.toPTX(nv, source)
	if err != nil {
		return nil, err
	}
	var mod uintptr
	err = d.do(func() error {
		logBuf := make([]byte, 16<<10)
		var pin runtime.Pinner
		defer pin.Unpin()
		pin.Pin(&logBuf[0])
		opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSize}
		vals := []uintptr{uintptr(unsafe.Pointer(&logBuf[0])), uintptr(len(logBuf))}
		code := d.drv.moduleLoadDataEx(&mod, unsafe.Pointer(&ptx[0]), uint32(len(opts)), &opts[0], &vals[0])
		if code != success {
			return &gpu.CompileError{Backend: gpu.CUDA, Device: d.dev.info.Name, Status: d.drv.check("cuModuleLoadDataEx", code).Error(), Log: dl.CString(logBuf)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Program{dev: d, mod: mod}, nil
}

// toPTX returns NUL-terminated PTX.
func (d *Device) toPTX(nv *nvrtc, source string) ([]byte, error) {
	var prog uintptr
	if err := nv.check("nvrtcCreateProgram", nv.createProgram(&prog, source, "uniperf.cu", 0, nil, nil)); err != nil {
		return nil, err
	}
	defer nv.destroyProgram(&prog)
	var pin runtime.Pinner
	defer pin.Unpin()
	var opts []*byte
	for _, o := range append([]string{fmt.Sprintf("--gpu-architecture=compute_%d%d", d.dev.major, d.dev.minor)}, includeOptions(source)...) {
		b := append([]byte(o), 0)
		pin.Pin(&b[0])
		opts = append(opts, &b[0])
	}
	pin.Pin(&opts[0])
	code := nv.compileProgram(prog, int32(len(opts)), &opts[0])
	if code != success {
		return nil, &gpu.CompileError{Backend: gpu.CUDA, Device: d.dev.info.Name, Status: nv.check("nvrtcCompileProgram", code).Error(), Log: nv.log(prog)}
	}
	var n uintptr
	if err := nv.check("nvrtcGetPTXSize", nv.getPTXSize(prog, &n)); err != nil {
		return nil, err
	}
	ptx := make([]byte, n+1)
	if err := nv.check("nvrtcGetPTX", nv.getPTX(prog, &ptx[0])); err != nil {
		return nil, err
	}
	return ptx, nil
}

func (nv *nvrtc) log(prog uintptr) string {
	var n uintptr
	if nv.getLogSize(prog, &n) != success || n == 0 {
		return ""
	}
	b := make([]byte, n)
	if nv.getLog(prog, &b[0]) != success {
		return ""
	}
	return dl.CString(b)
}

// Alloc allocates device memory.
func (d *Device) Alloc(bytes int64) (gpu.Buffer, error) {
	if err := gpu.CheckAlloc(d.dev.info, bytes); err != nil {
		return nil, err
	}
	b := &Buffer{dev: d, size: bytes}
	err := d.do(func() error {
		code := d.drv.memAlloc(&b.ptr, uintptr(bytes))
		if code == errOutOfMemory {
			return fmt.Errorf("%s (%s): out of memory: allocating %d bytes failed (CUDA_ERROR_OUT_OF_MEMORY)", d.dev.info.ID(), d.dev.info.Name, bytes)
		}
		return d.drv.check(fmt.Sprintf("cuMemAlloc(%d bytes)", bytes), code)
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Program is a loaded CUDA module.
type Program struct {
	dev *Device
	mod uintptr
}

// Kernel looks up an extern "C" entry point.
func (p *Program) Kernel(name string) (gpu.Kernel, error) {
	k := &Kernel{dev: p.dev, name: name}
	err := p.dev.do(func() error {
		if err := p.dev.drv.check(fmt.Sprintf("cuModuleGetFunction(%q)", name), p.dev.drv.moduleGetFunction(&k.fn, p.mod, name)); err != nil {
			return err
		}
		var maxThreads int32
		err := p.dev.drv.check("cuFuncGetAttribute", p.dev.drv.funcGetAttribute(&maxThreads, funcAttrMaxThreads, k.fn))
		k.maxGroup = int64(maxThreads)
		return err
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// Close unloads the module.
func (p *Program) Close() error {
	if p.mod == 0 {
		return nil
	}
	err := p.dev.do(func() error { return p.dev.drv.check("cuModuleUnload", p.dev.drv.moduleUnload(p.mod)) })
	p.mod = 0
	return err
}

// Buffer is a device allocation.
type Buffer struct {
	dev  *Device
	ptr  uint64
	size int64
}

// Size is the allocation's size in bytes.
func (b *Buffer) Size() int64 { return b.size }

// WriteAt copies src to the device, from byte off of the buffer on.
func (b *Buffer) WriteAt(src []byte, off int64) error {
	if err := gpu.CheckCopy(gpu.CUDA, len(src), off, b.size); err != nil || len(src) == 0 {
		return err
	}
	return b.dev.do(func() error {
		return b.dev.drv.check("cuMemcpyHtoD", b.dev.drv.memcpyHtoD(b.ptr+uint64(off), unsafe.Pointer(&src[0]), uintptr(len(src))))
	})
}

// Read copies from the device into dst.
func (b *Buffer) Read(dst []byte) error {
	if err := gpu.CheckCopy(gpu.CUDA, len(dst), 0, b.size); err != nil || len(dst) == 0 {
		return err
	}
	return b.dev.do(func() error {
		return b.dev.drv.check("cuMemcpyDtoH", b.dev.drv.memcpyDtoH(unsafe.Pointer(&dst[0]), b.ptr, uintptr(len(dst))))
	})
}

// Close frees the allocation.
func (b *Buffer) Close() error {
	if b.ptr == 0 {
		return nil
	}
	err := b.dev.do(func() error { return b.dev.drv.check("cuMemFree", b.dev.drv.memFree(b.ptr)) })
	b.ptr = 0
	return err
}

// Kernel is a module function with its bound arguments.
type Kernel struct {
	dev      *Device
	fn       uintptr
	name     string
	maxGroup int64
	// args holds one 8-byte slot per argument; the driver reads each
	// argument's size from the slot's start (little-endian).
	args []uint64
}

// Name is the entry point's name.
func (k *Kernel) Name() string { return k.name }

// SetArgs binds arguments: *Buffer from the same device, int32, int64,
// float32 or float64.
func (k *Kernel) SetArgs(args ...any) error {
	slots := make([]uint64, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case *Buffer:
			if v.dev != k.dev || v.ptr == 0 {
				return fmt.Errorf("cuda: kernel %s argument %d: buffer is closed or belongs to another device", k.name, i)
			}
			slots[i] = v.ptr
		case int32:
			slots[i] = uint64(uint32(v))
		case int64:
			slots[i] = uint64(v)
		case float32:
			slots[i] = uint64(*(*uint32)(unsafe.Pointer(&v)))
		case float64:
			slots[i] = *(*uint64)(unsafe.Pointer(&v))
		default:
			return fmt.Errorf("cuda: kernel %s argument %d: unsupported type %T", k.name, i, a)
		}
	}
	k.args = slots
	return nil
}

// MaxGroup is CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK.
func (k *Kernel) MaxGroup() int64 { return k.maxGroup }

// Run launches the kernel on a grid of global/local blocks of local threads
// and returns the time between events recorded before and after it.
func (k *Kernel) Run(global, local []int64) (float64, error) {
	if err := gpu.CheckGrid(k.dev.dev.info, global, local); err != nil {
		return 0, fmt.Errorf("cuda: kernel %s: %w", k.name, err)
	}
	grid, block := [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}
	threads := int64(1)
	for ax := range global {
		grid[ax], block[ax] = uint32(global[ax]/local[ax]), uint32(local[ax])
		threads *= local[ax]
	}
	if threads > k.maxGroup {
		return 0, fmt.Errorf("cuda: kernel %s: block of %d threads exceeds this kernel's limit %d on %s", k.name, threads, k.maxGroup, k.dev.dev.info.Name)
	}
	var secs float64
	err := k.dev.do(func() error {
		var pin runtime.Pinner
		defer pin.Unpin()
		var pp *unsafe.Pointer
		if len(k.args) > 0 {
			pin.Pin(&k.args[0])
			params := make([]unsafe.Pointer, len(k.args))
			for i := range k.args {
				params[i] = unsafe.Pointer(&k.args[i])
			}
			pp = &params[0]
		}
		drv := k.dev.drv
		op := fmt.Sprintf("cuLaunchKernel(%s, grid %v, block %v)", k.name, grid, block)
		if err := drv.check("cuEventRecord", drv.eventRecord(k.dev.start, 0)); err != nil {
			return err
		}
		if err := drv.check(op, drv.launchKernel(k.fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0, 0, pp, nil)); err != nil {
			return err
		}
		if err := drv.check("cuEventRecord", drv.eventRecord(k.dev.end, 0)); err != nil {
			return err
		}
		if err := drv.check("cuEventSynchronize("+k.name+")", drv.eventSynchronize(k.dev.end)); err != nil {
			return err
		}
		var ms float32
		if err := drv.check("cuEventElapsedTime", drv.eventElapsedTime(&ms, k.dev.start, k.dev.end)); err != nil {
			return err
		}
		secs = float64(ms) * 1e-3
		return nil
	})
	return secs, err
}

// Close forgets the kernel; its code belongs to the module.
func (k *Kernel) Close() error {
	k.fn, k.args = 0, nil
	return nil
}

var (
	_ gpu.Device  = (*Device)(nil)
	_ gpu.Program = (*Program)(nil)
	_ gpu.Buffer  = (*Buffer)(nil)
	_ gpu.Kernel  = (*Kernel)(nil)
)
