package codegen

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// dialect is what differs between OpenCL C and CUDA C.
type dialect struct {
	backend gpu.Backend
	// prologue opens the kernel function, given its name and parameters.
	prologue   func(name string, params []string) string
	global     string // qualifier of a global pointer parameter
	local      string // qualifier of a local array declaration
	groupID    [3]string
	localID    [3]string
	barrier    string
	i64        string // the 64-bit integer type
	i64Suffix  string // suffix of a 64-bit integer literal
	floatFuncs bool   // float (f32) math functions carry an f suffix: expf, powf
	restrict   string // the restrict qualifier and a space
	ldg        bool   // a readonly array is read with __ldg
}

var openCL = dialect{
	backend: gpu.OpenCL,
	prologue: func(name string, params []string) string {
		return fmt.Sprintf("__kernel void %s(%s)", name, strings.Join(params, ", "))
	},
	global:    "__global",
	local:     "__local",
	groupID:   [3]string{"get_group_id(0)", "get_group_id(1)", "get_group_id(2)"},
	localID:   [3]string{"get_local_id(0)", "get_local_id(1)", "get_local_id(2)"},
	barrier:   "barrier(CLK_LOCAL_MEM_FENCE);",
	i64:       "long",
	i64Suffix: "L",
	restrict:  "restrict ",
}

var cudaC = dialect{
	backend: gpu.CUDA,
	prologue: func(name string, params []string) string {
		return fmt.Sprintf("extern \"C\" __global__ void %s(%s)", name, strings.Join(params, ", "))
	},
	global:     "",
	local:      "__shared__",
	groupID:    [3]string{"blockIdx.x", "blockIdx.y", "blockIdx.z"},
	localID:    [3]string{"threadIdx.x", "threadIdx.y", "threadIdx.z"},
	barrier:    "__syncthreads();",
	i64:        "long long",
	i64Suffix:  "LL",
	floatFuncs: true,
	restrict:   "__restrict__ ",
	ldg:        true,
}

// pointer declares a global array's parameter: a readonly array's is a
// const restrict pointer (const __global float *restrict a in OpenCL C,
// const float *__restrict__ a in CUDA C), which tells the compiler that
// nothing else writes the elements it reads.
func (d dialect) pointer(a *counts.Array) string {
	s := strings.TrimSpace(d.global+" "+d.ctype(a.DType)) + " *"
	if !a.ReadOnly {
		return s + a.Name
	}
	return "const " + s + d.restrict + a.Name
}

func dialectFor(b gpu.Backend) (dialect, error) {
	switch b {
	case gpu.OpenCL:
		return openCL, nil
	case gpu.CUDA:
		return cudaC, nil
	}
	return dialect{}, fmt.Errorf("codegen: unknown backend %q", b)
}

// ctype is the C type of a counts type.
func (d dialect) ctype(t counts.DType) string {
	switch t {
	case counts.F32:
		return "float"
	case counts.F64:
		return "double"
	case counts.I32, counts.Bool:
		return "int"
	case counts.I8, counts.U8, counts.I16, counts.U16:
		return narrowTypes[d.backend][t]
	case counts.U32:
		return map[gpu.Backend]string{gpu.OpenCL: "uint", gpu.CUDA: "unsigned int"}[d.backend]
	case counts.F16:
		return map[gpu.Backend]string{gpu.OpenCL: "half", gpu.CUDA: "__half"}[d.backend]
	default:
		return d.i64
	}
}

// narrowTypes are the C types of the 8- and 16-bit integers: OpenCL C's
// char is signed, C++'s need not be.
var narrowTypes = map[gpu.Backend]map[counts.DType]string{
	gpu.OpenCL: {counts.I8: "char", counts.U8: "uchar", counts.I16: "short", counts.U16: "ushort"},
	gpu.CUDA:   {counts.I8: "signed char", counts.U8: "unsigned char", counts.I16: "short", counts.U16: "unsigned short"},
}

// function is the name of a math function at type t.
func (d dialect) function(name string, t counts.DType) string {
	if d.floatFuncs && t == counts.F32 {
		return name + "f"
	}
	return name
}

// infinity is +inf at a floating-point type.
func (d dialect) infinity(t counts.DType) string {
	switch {
	case d.backend == gpu.CUDA && t == counts.F32:
		return "__int_as_float(0x7f800000)"
	case d.backend == gpu.CUDA:
		return "__longlong_as_double(0x7ff0000000000000LL)"
	case t == counts.F32:
		return "INFINITY"
	default:
		return "((double)INFINITY)"
	}
}
