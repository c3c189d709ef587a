package codegen

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// Halves (f16) are storage, as C programs use them without native half
// arithmetic. OpenCL C without cl_khr_fp16 may only point at halves:
// vload_half reads one as a float and vstore_half rounds a float (or
// double) to one, to nearest even; a local array of halves is declared
// as ushort, its storage, and cast to a half pointer where it is read or
// written. CUDA C includes cuda_fp16.h and converts with __half2float,
// __float2half_rn and __double2half (round to nearest even), reading a
// readonly array's halves with __ldg.

// halfStorage is the C type of the elements of a local array of halves.
func (d dialect) halfStorage() string {
	if d.backend == gpu.OpenCL {
		return "ushort"
	}
	return d.ctype(counts.F16)
}

// halfLoad reads the half at s, the C element of access a, as a float.
func (e *emitter) halfLoad(a *counts.Access, s string, ldg bool) string {
	if e.d.backend == gpu.CUDA {
		if ldg {
			s = "__ldg(&" + s + ")"
		}
		return "__half2float(" + s + ")"
	}
	off, ptr := e.halfPointer(a.Array, s)
	return fmt.Sprintf("vload_half(%s, %s)", off, ptr)
}

// halfStore writes rhs, a float or (for an f64 value) a double, rounded
// to a half into s, the C element of access a.
func (e *emitter) halfStore(a *counts.Access, s, rhs string, t counts.DType) string {
	if e.d.backend == gpu.CUDA {
		conv := "__float2half_rn"
		if t == counts.F64 {
			conv = "__double2half"
		}
		return fmt.Sprintf("%s = %s(%s);", s, conv, unwrapped(rhs))
	}
	off, ptr := e.halfPointer(a.Array, s)
	return fmt.Sprintf("vstore_half(%s, %s, %s);", unwrapped(rhs), off, ptr)
}

// halfPointer splits s, an element of the array of halves arr, into the
// offset and pointer that vload_half and vstore_half take: a[off] is off
// from a, any other element 0 from its address. A local array's storage
// is cast to a pointer to halves.
func (e *emitter) halfPointer(arr *counts.Array, s string) (off, ptr string) {
	cast := ""
	if arr.Space == counts.Local {
		cast = "(__local half *)"
	}
	if inner, ok := oneSubscript(s, arr.Name); ok {
		return unwrapped(inner), cast + arr.Name
	}
	return "0", cast + "&" + s
}

// oneSubscript returns x where s is name[x] with one subscript.
func oneSubscript(s, name string) (string, bool) {
	inner, ok := strings.CutPrefix(s, name+"[")
	if !ok || !strings.HasSuffix(inner, "]") {
		return "", false
	}
	inner = inner[:len(inner)-1]
	depth := 0
	for _, c := range inner {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
			if depth < 0 {
				return "", false // name[i][j]
			}
		}
	}
	return inner, depth == 0
}
