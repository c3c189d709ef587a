package measurekernels

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
	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// program is a library kernel at one binding of its consts, generated and
// compiled for the device.
type program struct {
	name    string
	consts  map[string]int64
	kern    *counts.Kernel
	code    *codegen.Code
	prog    gpu.Program
	fn      gpu.Kernel
	uses    arrayUse
	checked map[string]bool // variants whose correctness check passed
}

func (p *program) close() error {
	var errs []error
	if p.fn != nil {
		errs = append(errs, p.fn.Close())
	}
	if p.prog != nil {
		errs = append(errs, p.prog.Close())
	}
	return errors.Join(errs...)
}

// programKey identifies a program: kernel name and const bindings.
func programKey(name string, consts map[string]int64) string {
	var b strings.Builder
	b.WriteString(name)
	for _, k := range slices.Sorted(maps.Keys(consts)) {
		fmt.Fprintf(&b, " %s=%d", k, consts[k])
	}
	return b.String()
}

// Generator turns a kernel into source for a backend.
type Generator func(k *counts.Kernel, backend gpu.Backend) (*codegen.Code, error)

// buildProgram parses the library kernel with consts, generates code and
// compiles it.
func buildProgram(dev gpu.Device, gen Generator, name string, consts map[string]int64) (*program, error) {
	src, err := library.Source(name)
	if err != nil {
		return nil, err
	}
	kern, err := counts.ParseKernel(library.FileName(name), src, consts)
	if err != nil {
		return nil, err
	}
	code, err := gen(kern, dev.Info().Backend)
	if err != nil {
		return nil, fmt.Errorf("generating %s code for %s: %w", dev.Info().Backend, programKey(name, consts), err)
	}
	prog, err := dev.Compile(code.Source)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", programKey(name, consts), err)
	}
	fn, err := prog.Kernel(code.Entry)
	if err != nil {
		prog.Close()
		return nil, err
	}
	return &program{name: name, consts: consts, kern: kern, code: code, prog: prog, fn: fn,
		uses: usesOf(kern), checked: map[string]bool{}}, nil
}

// grid is the launch grid at params, without trailing axes of size one.
func (p *program) grid(params map[string]int64) (global, local []int64, err error) {
	g, l, err := p.kern.Launch(params)
	if err != nil {
		return nil, nil, err
	}
	n := 3
	for n > 1 && g[n-1] == 1 && l[n-1] == 1 {
		n--
	}
	return g[:n], l[:n], nil
}

// footprint returns the element count of every global array at params and
// their total size in bytes.
func (p *program) footprint(params map[string]int64) (map[string]int64, int64, error) {
	sizes := map[string]int64{}
	total := int64(0)
	for _, a := range p.kern.Arrays {
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

// bind sets the kernel's arguments: buffers for arrays, 32-bit integers for
// parameters.
func (p *program) bind(bufs map[string]gpu.Buffer, params map[string]int64) error {
	args := make([]any, len(p.code.Args))
	for i, a := range p.code.Args {
		if a.Array != nil {
			args[i] = bufs[a.Name]
			continue
		}
		v, ok := params[a.Name]
		if !ok {
			return fmt.Errorf("%s: no value for parameter %s", p.name, a.Name)
		}
		if v < math.MinInt32 || v > math.MaxInt32 {
			return fmt.Errorf("%s: parameter %s=%d does not fit the kernel's 32-bit argument", p.name, a.Name, v)
		}
		args[i] = int32(v)
	}
	return p.fn.SetArgs(args...)
}

// check runs the variant at its correctness-check size on random inputs,
// with the outputs poisoned, and compares every output array with the
// reference interpreter's. It runs once per program and variant.
func (p *program) check(dev gpu.Device, entry *suite.Kernel, v *suite.Variant) error {
	if p.checked[v.Name] {
		return nil
	}
	params, err := entry.CheckParams(v)
	if err != nil {
		return err
	}
	sizes, _, err := p.footprint(params)
	if err != nil {
		return err
	}
	r := rng(0x9E3779B97F4A7C15)
	host := map[string]hostArray{}
	ref := map[string]hostArray{}
	var names []string
	for _, a := range p.kern.Arrays {
		if a.Space != counts.Global {
			continue
		}
		h := newHostArray(a.DType, sizes[a.Name])
		if p.uses.read[a.Name] {
			h.fill(&r)
		} else {
			h.poison()
		}
		host[a.Name] = h
		ref[a.Name] = h.clone()
		names = append(names, a.Name)
	}
	refData := map[string]any{}
	for n, h := range ref {
		refData[n] = h.slice()
	}
	if _, err := counts.Run(p.kern, params, refData, nil); err != nil {
		return fmt.Errorf("reference interpreter: %w", err)
	}
	bufs, err := allocate(dev, p.kern, sizes)
	if err != nil {
		return err
	}
	defer release(bufs)
	for _, n := range names {
		if err := bufs[n].Write(host[n].bytes()); err != nil {
			return err
		}
	}
	global, local, err := p.grid(params)
	if err != nil {
		return err
	}
	if err := p.bind(bufs, params); err != nil {
		return err
	}
	if _, err := p.fn.Run(global, local); err != nil {
		return err
	}
	for _, n := range names {
		if !p.uses.written[n] {
			continue
		}
		out := make([]byte, len(host[n].bytes()))
		if err := bufs[n].Read(out); err != nil {
			return err
		}
		if err := compare(n, p.kern.Array(n).DType, host[n].decode(out), ref[n]); err != nil {
			return fmt.Errorf("wrong result at %s: %w", paramString(params), err)
		}
	}
	p.checked[v.Name] = true
	return nil
}

// allocate creates a buffer for every global array.
func allocate(dev gpu.Device, k *counts.Kernel, sizes map[string]int64) (map[string]gpu.Buffer, error) {
	bufs := map[string]gpu.Buffer{}
	for _, a := range k.Arrays {
		if a.Space != counts.Global {
			continue
		}
		b, err := dev.Alloc(sizes[a.Name] * int64(a.DType.Size()))
		if err != nil {
			release(bufs)
			return nil, fmt.Errorf("array %s: %w", a.Name, err)
		}
		bufs[a.Name] = b
	}
	return bufs, nil
}

func release(bufs map[string]gpu.Buffer) {
	for _, b := range bufs {
		b.Close()
	}
}

func paramString(params map[string]int64) string {
	keys := slices.Sorted(maps.Keys(params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, params[k])
	}
	return strings.Join(parts, ",")
}
