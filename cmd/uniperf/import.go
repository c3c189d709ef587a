package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/counts/cimport"
	"github.com/uniperf/uniperf/datasets/inputfile"
)

// importOptions are the flags of uniperf import.
type importOptions struct {
	kernel                string
	defines               []string
	local, global, groups string
	arrays                []string
	trips                 []string
	assume                []string
	out                   string
	json                  bool
}

var importOpts importOptions

var importCmd = &cobra.Command{
	Use:   "import FILE.cu|FILE.cl",
	Short: "Translate a CUDA or OpenCL C kernel into .knl, to count and predict it",
	Long: `import reads a kernel function as its author wrote it, in CUDA C (.cu) or
OpenCL C (.cl), and writes the same kernel in .knl, which count, predict and
measure take. Nothing is ported by hand: the preprocessor runs (#define, #if,
#ifdef, -D), the work-item and group indices (threadIdx, blockIdx,
blockDim, get_global_id, get_local_id, get_group_id) become tagged inames,
for loops with affine bounds and constant steps become loop domains, an
affine guard around the body (if (i < n) {...}, or if (i >= n) return;)
becomes the launch's domain, other ifs predicate what they guard,
__shared__ and __local arrays become local arrays, __syncthreads(),
barrier() and cg::sync() barriers, and flat subscripts and compound
assignments stay as written. Atomic additions become atomic_add,
subscripts computed from data gathers and scatters, const __restrict__
arguments (and those read only with __ldg) readonly arrays, char and short
i8/u8/i16/u16, __half and half f16 (stored through __float2half_rn or
vstore_half, read through __half2float or vload_half; half arithmetic is
refused), and calls of __device__ functions (in OpenCL C, of the
file's functions that are not kernels) are inlined. Headers are not
read.

What C does not say comes from the flags, or from a comment in the source
in the same syntax, "// uniperf: --local 256 --global n --array a=n*n"
(the flags win): the work-group size (--local, blockDim or the local work
size, constant expressions that may use the source's macros), the grid
(--global, the work-items launched along each axis as the host's global
work size, rounded up to whole groups; or --groups, gridDim, as the host
computes it in C, whose division truncates: paste the host's
--groups '(n+255)/256'; n/256 launches one group fewer unless 256
divides n, and where the kernel's guard admits work-items such a launch
may leave out, a warning says so on standard error; without either, the
kernel's guard bounds it), and the number of elements of each pointer
argument (--array NAME=EXTENT, in the kernel's integer arguments; a name
that is no argument, nnz, becomes a size parameter). A loop whose bounds
are data (a CSR row: for (j = start; j < end; j++)) needs the most
iterations it runs, --trips j=maxrl: it becomes the .knl's data-bounded
loop (for j = start .. end max maxrl), generated as C's loop, and counts
as an upper bound; one that loop cannot say (a step other than 1, an end
read in the condition, j <= end) is a masked loop over its trips, as the
header says.
--assume COND states what the host guarantees of the integer arguments,
in C (--assume 't >= 0 && t < Size - 1', --assume 'width % 32 == 0'):
the .knl assumes it, which counts need where a flattened subscript's
row index must stay inside its row (a[(x + t + 1)*Size + y + t] needs
t >= 0), and under which an if around a barrier may hold at every
work-item launched (--assume 'dim % 4 == 0' for SHOC's
spmv_csr_vector_kernel at --global dim*32: every row of 4 a group
launched is then below dim), which the .knl then takes as reached by every work-item. A
work-item index used through its lane and run, t & 31 and t / 32, is
split into inames of their own (split l0 32 l0_run l0_lane). The .knl's
first comments say where each came from. -D NAME=VALUE defines a
macro (-D 'UMAD(a,b,c)=(a)*(b)+(c)' a function-like one, as a header
that is not read would define it); a positive integer is a tunable
(-D BLOCK_SIZE=128), which the
.knl keeps as a const (const BLOCK_SIZE = 128) that predict --const and
tune vary, or as a literal where the translation needs its value (an
#if reads it, a loop is unrolled over it), as its header says. Where
NAME is a floating-point argument of the kernel (alpha, beta), which is
a .knl scalar argument, it gives it that value (scalar alpha f32 = 1.5;
without -D, 1), with which the generated code is launched. Integer
arguments are the .knl's size parameters; a -D naming one fixes it
(-D iteration=1). Casts become the
.knl's casts, integer min and max (and a ?: that is exactly one, i < m ?
i : m) its min and max; a comparison with a min or max of affine values
(Rodinia's clamps) is affine. A bool flag set under an if (computed =
true) is that if's condition. A loop with a break is unrolled at import:
its bounds must be constants, and the break must stand at the top of
its body, bare or as if (C) break; with C known at import (Rodinia's
if (i == iteration - 1) break; with -D iteration=1).

What is not affine is refused with its line and column and what to write
instead: integer variables changed inside a loop or an if, while loops
(but one whose body ends by updating the variable its condition tests,
while (s > 0) { ...; s = s / 2; }, which is read as that for loop),
continue, other breaks, loop bounds read from data without --trips, products
of two indices, inexact integer divisions, bounds computed by min, max or
casts, assignments to scalar arguments, atomics other than additions,
pointers other than the arguments and pointers into them set where
declared (p = s + off: then p[i] is s[off + i]), recursion, and vector
types and structs other than as below.

Vector types (float2, int4) and structs of scalar fields of one type
(typedef struct { float lat, lng; } LatLong) are scalars, as hand ports
write them: an array of them is a scalar array of N times its length
(--array gives the extent in elements), field f of element i at
N*i + f; a private one is one scalar a field; make_float2(a, b) builds
one. Swizzles, arithmetic on whole vectors and mixed-type structs are
refused. A device function's float &x parameter is the caller's
variable, and for (j = 0; j < n; k = j++) peels its first iteration.

--kernel names the kernel where the file has several. --out writes the
.knl to a file (never the input) instead of standard output. With --json
it prints one object with the fields file, kernel and knl (the .knl
source), out where --out is given, and warnings where there are any.

Exit status 2 for a missing or unreadable file, a syntax error or a
refusal (with file:line:col), or bad flags.`,
	Example: `  uniperf import gemm.cl --local 32,8 --global nj,ni -D alpha=32412.0f -D beta=2123.0f \
      --array a=ni*nk --array b=nk*nj --array c=ni*nj --out gemm.knl
  uniperf count gemm.knl --param ni=1024 --param nj=1024 --param nk=1024
  uniperf import transpose.cu --kernel transposeNoBankConflicts --local TILE_DIM,BLOCK_ROWS \
      --groups width/TILE_DIM,height/TILE_DIM --array idata=width*height --array odata=width*height`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return importKernel(cmd.OutOrStdout(), args[0], importOpts)
	},
}

func init() {
	f := importCmd.Flags()
	f.StringVar(&importOpts.kernel, "kernel", "", "the kernel function to import, where the file has several")
	f.StringArrayVarP(&importOpts.defines, "define", "D", nil, "NAME=VALUE: a macro, or the value of a floating-point argument (repeatable)")
	f.StringVar(&importOpts.local, "local", "", "the work-group size X[,Y[,Z]] (blockDim)")
	f.StringVar(&importOpts.global, "global", "", "the work-items launched X[,Y[,Z]] (the global work size, rounded up to whole groups)")
	f.StringVar(&importOpts.groups, "groups", "", "the work-groups launched X[,Y[,Z]] (gridDim), in C's arithmetic: n/256 truncates, the host's (n+255)/256 rounds up")
	f.StringArrayVar(&importOpts.arrays, "array", nil, "NAME=EXTENT: the number of elements of a pointer argument (repeatable)")
	f.StringArrayVar(&importOpts.trips, "trips", nil, "VAR=BOUND: the most iterations of the loop over VAR, whose bounds are data (CSR's rows): it counts as an upper bound (repeatable)")
	f.StringArrayVar(&importOpts.assume, "assume", nil, "COND: a condition on the integer arguments that the host guarantees, in C (--assume 't >= 0 && t < Size - 1'); the .knl assumes it (repeatable)")
	f.StringVar(&importOpts.out, "out", "", "write the .knl to this file instead of standard output")
	f.BoolVar(&importOpts.json, "json", false, "print one JSON object")
	rootCmd.AddCommand(importCmd)
}

// importKernel translates the kernel of path and writes its .knl.
func importKernel(stdout io.Writer, path string, o importOptions) error {
	var flags []string
	if o.kernel != "" {
		flags = append(flags, "--kernel", o.kernel)
	}
	for _, d := range o.defines {
		flags = append(flags, "-D", d)
	}
	for name, v := range map[string]string{"--local": o.local, "--global": o.global, "--groups": o.groups} {
		if v != "" {
			flags = append(flags, name, v)
		}
	}
	for _, a := range o.arrays {
		flags = append(flags, "--array", a)
	}
	for _, a := range o.trips {
		flags = append(flags, "--trips", a)
	}
	for _, a := range o.assume {
		flags = append(flags, "--assume", a)
	}
	opts, err := cimport.ParseFlags(flags)
	if err != nil {
		return err
	}
	src, err := inputfile.ReadText(path)
	if err != nil {
		return err
	}
	if o.out != "" {
		if err := notTheInput(path, o.out); err != nil {
			return err
		}
	}
	res, err := cimport.Import(path, src, opts)
	if err != nil {
		var ce *cimport.Error
		if errors.As(err, &ce) {
			ce.File = path
		}
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "warning: %s: %s\n", path, w)
	}
	if o.json {
		v := map[string]any{"file": path, "kernel": res.Kernel, "knl": string(res.Knl)}
		if len(res.Warnings) > 0 {
			v["warnings"] = res.Warnings
		}
		if o.out != "" {
			v["out"] = o.out
			if err := writeOutput(stdout, o.out, res.Knl); err != nil {
				return err
			}
		}
		return writeJSON(stdout, v)
	}
	return writeOutput(stdout, o.out, res.Knl)
}

// notTheInput refuses an output that is the input file itself.
func notTheInput(in, out string) error {
	a, err := os.Stat(in)
	if err != nil {
		return err
	}
	if b, err := os.Stat(out); err == nil && os.SameFile(a, b) {
		return fmt.Errorf("--out %s is the input file; name another file", out)
	}
	return nil
}
