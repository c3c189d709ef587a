package codegen

import (
	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Code is a kernel generated for one backend.
type Code struct {
	Backend gpu.Backend
	Entry   string // the kernel function's name
	Source  string
	// Args are the kernel function's parameters in order: the global
	// arrays (as buffers), the scalar arguments (by value, of their
	// types) and the size parameters (as 32-bit integers).
	Args []Arg
}

// Arg is one parameter of a generated kernel.
type Arg struct {
	Name string
	// Array is the global array or scalar argument (Space
	// counts.Argument), or nil for a size parameter.
	Array *counts.Array
}
