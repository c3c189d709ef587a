package counts

import (
	"slices"
	"strings"
)

// The generated kernel is OpenCL C or CUDA C (C++), and names a kernel, an
// iname, a parameter or an array as the .knl file does. A name that is a
// word of one of those languages, or one the generated code uses itself,
// would make the generated source fail to build with errors that point
// into it, so the parser refuses such names where they are declared.

// cReserved lists the keywords and reserved type names of C, C++, OpenCL C
// and CUDA, the predeclared names and macros a kernel sees, and the
// functions and helpers the generated code calls.
var cReserved = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range []string{
		// C
		"auto break case char const continue default do double else enum extern float for goto if inline int long " +
			"register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while",
		// C++ (CUDA C is C++)
		"alignas alignof and and_eq asm bitand bitor bool catch char16_t char32_t class compl constexpr const_cast " +
			"decltype delete dynamic_cast explicit export false friend mutable namespace new noexcept not not_eq " +
			"nullptr operator or or_eq private protected public reinterpret_cast static_assert static_cast template " +
			"this thread_local throw true try typeid typename using virtual wchar_t xor xor_eq",
		// OpenCL C
		"global local constant kernel read_only write_only read_write uniform pipe half quad complex imaginary " +
			"uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t sampler_t event_t image1d_t image1d_array_t " +
			"image1d_buffer_t image2d_t image2d_array_t image3d_t get_group_id get_local_id get_global_id " +
			"get_local_size get_global_size get_num_groups get_work_dim CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE",
		// CUDA
		"dim3 threadIdx blockIdx blockDim gridDim warpSize",
		// macros
		"NULL INFINITY NAN HUGE_VAL HUGE_VALF MAXFLOAT FLT_MAX FLT_MIN FLT_EPSILON DBL_MAX DBL_MIN DBL_EPSILON " +
			"INT_MAX INT_MIN UINT_MAX LONG_MAX LONG_MIN CHAR_BIT M_PI M_E M_PI_F M_E_F",
		// functions the generated code calls, and its helpers
		"min max expf logf sqrtf rsqrtf sinf cosf fabsf powf fminf fmaxf fmodf " +
			"floordiv floordiv_i32 floordiv_i64 floormod_i32 floormod_i64 imin imax",
	} {
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
	}
	// Vector types of OpenCL C (2 to 16 lanes) and CUDA (1 to 4).
	for _, t := range []string{"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half", "bool", "quad",
		"longlong", "ulonglong"} {
		for _, n := range []string{"1", "2", "3", "4", "8", "16"} {
			m[t+n] = true
		}
	}
	return m
}()

// ReservedInC reports whether name cannot name anything in the
// generated C (the parser refuses it; cimport renames a C name that is
// one): a word of cReserved, or an identifier C reserves to the
// implementation (two leading underscores, or one and a capital letter).
func ReservedInC(name string) bool {
	return cReserved[name] || strings.HasPrefix(name, "__") ||
		len(name) > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z'
}

// targetNames refuses a kernel, iname, parameter or array name that the
// generated OpenCL C or CUDA C cannot use.
func (r *resolver) targetNames() error {
	refuse := func(pos Pos, what, name string) error {
		return r.errf(pos, "%s %s: %q is reserved in the OpenCL C or CUDA C that uniperf generates from the kernel "+
			"(a keyword, type or built-in there); rename it, for example to %s_k", what, name, name, strings.TrimLeft(name, "_"))
	}
	if ReservedInC(r.k.Name) {
		return refuse(r.b.name.pos, "kernel", r.k.Name)
	}
	for _, in := range r.k.Inames {
		if ReservedInC(in.Name) {
			return refuse(r.namePos(in.Name), "iname", in.Name)
		}
	}
	for _, p := range r.k.Params {
		if ReservedInC(p) {
			return refuse(r.namePos(p), "parameter", p)
		}
	}
	for _, a := range r.k.Arrays {
		if ReservedInC(a.Name) {
			what := "array"
			switch {
			case a.Space == Argument:
				what = "scalar"
			case a.Space != Global && len(a.Shape) == 0:
				what = "temporary"
			}
			return refuse(a.Pos, what, a.Name)
		}
	}
	return nil
}

// namePos is where an iname or a parameter is declared: its domain's
// tuple or parameter list, the split that makes it, or the first domain
// that mentions it.
func (r *resolver) namePos(name string) Pos {
	if p, ok := r.inamePos[name]; ok {
		return p
	}
	for _, s := range r.b.splits {
		if s.outer == name || s.inner == name {
			return s.iname.pos
		}
	}
	for di, d := range r.b.domains {
		for _, p := range d.params {
			if p.text == name {
				return p.pos
			}
		}
		if di < len(r.k.Domains) && slices.Contains(r.k.Domains[di].Outer, name) {
			return d.pos
		}
	}
	return Pos{}
}
