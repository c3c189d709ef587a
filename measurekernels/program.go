package measurekernels

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// program is a library kernel at one binding of its consts, generated and
// compiled for the device.
type program struct {
	name string
	*launch.Kernel
	checked map[string]bool // variants whose correctness check passed
}

// programKey identifies a program: kernel name and const bindings (arrays
// uses it for a kernel name and array sizes).
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

// buildProgram generates code for ir, the library kernel name parsed
// with consts, and compiles it; local arrays beyond the device's local
// memory are a *localLimitError.
func buildProgram(dev gpu.Device, gen Generator, ir *counts.Kernel, name string, consts map[string]int64) (*program, error) {
	if info := dev.Info(); info.LocalMemBytes > 0 {
		if n := ir.LocalBytes(); n > info.LocalMemBytes {
			return nil, &localLimitError{key: programKey(name, consts), bytes: n, limit: info.LocalMemBytes, device: info.Name}
		}
	}
	code, err := gen(ir, dev.Info().Backend)
	if err != nil {
		return nil, fmt.Errorf("generating %s code for %s: %w", dev.Info().Backend, programKey(name, consts), err)
	}
	k, err := launch.Build(dev, ir, code)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", programKey(name, consts), err)
	}
	return &program{name: name, Kernel: k, checked: map[string]bool{}}, nil
}

// check runs the variant's correctness check once per program.
func (p *program) check(entry *suite.Kernel, v *suite.Variant) error {
	if p.checked[v.Name] {
		return nil
	}
	params, err := entry.CheckParams(v)
	if err != nil {
		return err
	}
	if err := p.Check(params); err != nil {
		return err
	}
	p.checked[v.Name] = true
	return nil
}

// parseLibrary parses the library kernel name with consts bound.
func parseLibrary(name string, consts map[string]int64) (*counts.Kernel, error) {
	src, err := library.Source(name)
	if err != nil {
		return nil, err
	}
	return counts.ParseKernel(library.FileName(name), src, consts)
}
