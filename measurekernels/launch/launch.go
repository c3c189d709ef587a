// Package launch runs a generated kernel on a device: it sizes the
// kernel's global arrays at given parameters, allocates and fills them,
// binds the kernel's arguments, computes its launch grid, and checks its
// results against the counts reference interpreter on random inputs with
// the outputs poisoned.
//
// [Build] compiles a kernel for a device; the [Kernel] it returns sizes
// ([Kernel.Sizes]), allocates ([Kernel.Alloc]), fills
// ([Kernel.FillInputs]), binds ([Kernel.Bind]) and runs ([Kernel.Grid],
// [Kernel.Run]) it, and [Kernel.Check] compares its results with the
// interpreter's.
package launch

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Kernel is a generated kernel compiled for a device.
type Kernel struct {
	IR   *counts.Kernel
	Code *codegen.Code
	dev  gpu.Device
	prog gpu.Program
	fn   gpu.Kernel
	uses arrayUse
}

// Build compiles code (generated from ir) on dev. A compiler failure is
// a *gpu.CompileError with the log.
func Build(dev gpu.Device, ir *counts.Kernel, code *codegen.Code) (*Kernel, error) {
	prog, err := dev.Compile(code.Source)
	if err != nil {
		return nil, err
	}
	fn, err := prog.Kernel(code.Entry)
	if err != nil {
		prog.Close()
		return nil, err
	}
	return &Kernel{IR: ir, Code: code, dev: dev, prog: prog, fn: fn, uses: usesOf(ir)}, nil
}

// Close releases the kernel and its program.
func (k *Kernel) Close() error {
	return errors.Join(k.fn.Close(), k.prog.Close())
}

// EmptyGridError is a launch grid with no work-item on some axis: the
// kernel's domain is empty at the parameters, so there is nothing to run
// or time. It is the parameters' fault, not the device's.
type EmptyGridError struct {
	Axis          int
	Global, Local int64
}

func (e *EmptyGridError) Error() string {
	return fmt.Sprintf("the launch grid is empty (axis %d: global size %d, local size %d): the domain has no points at these parameters; give parameters where it has some",
		e.Axis, e.Global, e.Local)
}

// Grid is the launch grid at params, without trailing axes of size one;
// an empty grid is an *EmptyGridError.
func (k *Kernel) Grid(params map[string]int64) (global, local []int64, err error) {
	return Grid(k.IR, params)
}

// Grid is the launch grid of ir at params, as [Kernel.Grid] gives it,
// known before the kernel is compiled.
func Grid(ir *counts.Kernel, params map[string]int64) (global, local []int64, err error) {
	g, l, err := ir.Launch(params)
	if err != nil {
		return nil, nil, err
	}
	for ax := range g {
		if g[ax] <= 0 || l[ax] <= 0 {
			return nil, nil, &EmptyGridError{Axis: ax, Global: g[ax], Local: l[ax]}
		}
	}
	n := 3
	for n > 1 && g[n-1] == 1 && l[n-1] == 1 {
		n--
	}
	return g[:n], l[:n], nil
}

// Sizes returns the element count of every global array at params and
// their total size in bytes. Arrays beyond 32-bit indexing are an error.
func (k *Kernel) Sizes(params map[string]int64) (map[string]int64, int64, error) {
	sizes := map[string]int64{}
	total := int64(0)
	for _, a := range k.IR.Arrays {
		if a.Space != counts.Global {
			continue
		}
		n, err := elements(a, params)
		if err != nil {
			return nil, 0, err
		}
		if n > math.MaxInt32 {
			return nil, 0, fmt.Errorf("array %s has %d elements, more than 32-bit indexing reaches", a.Name, n)
		}
		sizes[a.Name] = n
		total += n * int64(a.DType.Size())
	}
	return sizes, total, nil
}

// Buffers holds a device buffer per global array.
type Buffers map[string]gpu.Buffer

// Close releases every buffer.
func (b Buffers) Close() {
	for _, buf := range b {
		buf.Close()
	}
}

// Alloc creates a buffer for every global array, of the sizes Sizes gave.
func (k *Kernel) Alloc(sizes map[string]int64) (Buffers, error) {
	bufs := Buffers{}
	for _, a := range k.IR.Arrays {
		if a.Space != counts.Global {
			continue
		}
		b, err := k.dev.Alloc(sizes[a.Name] * int64(a.DType.Size()))
		if err != nil {
			bufs.Close()
			return nil, fmt.Errorf("array %s: %w", a.Name, err)
		}
		bufs[a.Name] = b
	}
	return bufs, nil
}

// FillInputs writes random values (floats in [0.5, 1.5), integers in
// [0, 16)) into the arrays the kernel reads at params (sizes the arrays'
// element counts), from generators seeded with seed and each array's
// position; an index array (perm of x[perm[i]]) gets random permutations
// of the subscripts it may hold, and an array that a data-bounded loop's
// bounds come from of 0 to its max N.
func (k *Kernel) FillInputs(bufs Buffers, sizes, params map[string]int64, seed uint64) error {
	for i, a := range k.IR.Arrays {
		if b, ok := bufs[a.Name]; ok && k.uses.read[a.Name] {
			e, err := k.uses.valueRange(a.Name, sizes, params)
			if err == nil && e > 0 {
				h := newHostArray(a.DType, sizes[a.Name])
				r := rng(splitmix(seed^uint64(i)<<40) | 1)
				fillIndices(h, e, &r)
				err = b.WriteAt(h.bytes(), 0)
			} else if err == nil {
				err = writeRandom(b, a.DType, sizes[a.Name], splitmix(seed^uint64(i)<<40))
			}
			if err != nil {
				return fmt.Errorf("array %s: %w", a.Name, err)
			}
		}
	}
	return nil
}

// Bind sets the arguments: buffers for arrays, their declared values
// for scalar arguments, 32-bit integers for parameters.
func (k *Kernel) Bind(bufs Buffers, params map[string]int64) error {
	args := make([]any, len(k.Code.Args))
	for i, a := range k.Code.Args {
		if a.Array != nil && a.Array.Space == counts.Argument {
			args[i] = scalarArg(a.Array)
			continue
		}
		if a.Array != nil {
			args[i] = bufs[a.Name]
			continue
		}
		v, ok := params[a.Name]
		if !ok {
			return fmt.Errorf("%s: no value for parameter %s", k.IR.Name, a.Name)
		}
		if v < math.MinInt32 || v > math.MaxInt32 {
			return fmt.Errorf("%s: parameter %s=%d does not fit the kernel's 32-bit argument", k.IR.Name, a.Name, v)
		}
		args[i] = int32(v)
	}
	return k.fn.SetArgs(args...)
}

// MaxGroup is the most work-items a work-group of the kernel may have on
// its device.
func (k *Kernel) MaxGroup() int64 { return k.fn.MaxGroup() }

// Run launches the bound kernel and returns its device time in seconds.
func (k *Kernel) Run(global, local []int64) (float64, error) { return k.fn.Run(global, local) }

// Check runs the kernel at params on random inputs, with every array it
// writes poisoned (NaN) first, and compares each written array with what
// the counts reference interpreter computes from the same inputs.
func (k *Kernel) Check(params map[string]int64) error {
	sizes, _, err := k.Sizes(params)
	if err != nil {
		return err
	}
	r := rng(0x9E3779B97F4A7C15)
	host, ref, refData := map[string]hostArray{}, map[string]hostArray{}, map[string]any{}
	for _, a := range k.IR.Arrays {
		if a.Space != counts.Global {
			continue
		}
		h := newHostArray(a.DType, sizes[a.Name])
		e, err := k.uses.valueRange(a.Name, sizes, params)
		switch {
		case err != nil:
			return err
		case e > 0:
			fillIndices(h, e, &r)
		case k.uses.read[a.Name]:
			h.fill(&r)
		default:
			h.poison()
		}
		host[a.Name] = h
		ref[a.Name] = h.clone()
		refData[a.Name] = ref[a.Name].slice() // Run writes the reference's outputs here
	}
	if _, err := counts.Run(k.IR, params, refData, nil); err != nil {
		return fmt.Errorf("reference interpreter: %w", err)
	}
	bufs, err := k.Alloc(sizes)
	if err != nil {
		return err
	}
	defer bufs.Close()
	for name, h := range host {
		if err := bufs[name].WriteAt(h.bytes(), 0); err != nil {
			return err
		}
	}
	global, local, err := k.Grid(params)
	if err != nil {
		return err
	}
	if err := k.Bind(bufs, params); err != nil {
		return err
	}
	if _, err := k.Run(global, local); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(host)) {
		if !k.uses.written[name] {
			continue
		}
		h := host[name]
		out := make([]byte, h.len()*int64(k.IR.Array(name).DType.Size()))
		if err := bufs[name].Read(out); err != nil {
			return err
		}
		if err := compare(name, k.IR.Array(name).DType, h.decode(out), ref[name]); err != nil {
			return fmt.Errorf("wrong result at %s: %w", ParamString(params), err)
		}
	}
	return nil
}

// ParamString renders parameter values as "m=4,n=8", sorted by name.
func ParamString(params map[string]int64) string {
	keys := slices.Sorted(maps.Keys(params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, params[k])
	}
	return strings.Join(parts, ",")
}

// SizeString renders a launch size as "16x16".
func SizeString(size []int64) string {
	parts := make([]string, len(size))
	for i, v := range size {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, "x")
}
