package codegen

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Code is a kernel generated for one backend.
type Code struct {
	Backend gpu.Backend
	Entry   string // the kernel function's name
	Source  string
	// Args are the kernel function's parameters in order: the global
	// arrays (as buffers) and the size parameters (as 32-bit integers).
	Args []Arg
}

// Arg is one parameter of a generated kernel.
type Arg struct {
	Name  string
	Array *counts.Array // the global array, or nil for a size parameter
}

// Generate writes kernel k for backend b: OpenCL C for gpu.OpenCL, CUDA C
// for gpu.CUDA. Loops follow k's schedule with bounds from the kernel
// domain (package polyhedra); parallel inames come from the work-group and
// work-item indices; each instruction is guarded by its execution domain,
// so that the generated kernel executes exactly what the counts reference
// interpreter does.
func Generate(k *counts.Kernel, b gpu.Backend) (*Code, error) {
	if err := checkSizes(k); err != nil {
		return nil, fmt.Errorf("codegen: %s: %w", k.Name, err)
	}
	dom, err := newPolyDomain(k)
	if err != nil {
		return nil, fmt.Errorf("codegen: %s: %w", k.Name, err)
	}
	return generate(k, b, dom)
}
