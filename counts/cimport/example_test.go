package cimport_test

import (
	"fmt"

	"github.com/uniperf/uniperf/counts/cimport"
)

// A CUDA kernel with its launch in a uniperf: comment: the global index
// names the axis, the guard becomes the domain, and the flat subscript
// stays as written.
func ExampleImport() {
	src := `// uniperf: --local 256 --array x=n --array y=n
__global__ void saxpy(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += 2.0f * x[i];
}
`
	r, err := cimport.Import("saxpy.cu", []byte(src), cimport.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(r.Knl))
	// Output:
	// # Imported by uniperf import from saxpy.cu, kernel saxpy.
	// # work-group size 256: --local, from the comment at line 1
	// # work-groups along axis 0: as many as the kernel's guard needs (no --global or --groups given)
	// # array x: --array x=n, from the comment at line 1
	// # array y: --array y=n, from the comment at line 1
	// # assumed: n >= 1 (factors of the arrays' extents)
	// kernel saxpy
	// domain [n] -> { [i] : 0 <= i and i < n }
	// assume n >= 1
	// array x f32 [n]
	// array y f32 [n]
	// split i 256 i_out i_in
	// tag i_in l.0, i_out g.0
	// y[i] += 2.0f * x[i]
}

// A refusal names the place and says what to write instead.
func ExampleImport_refused() {
	src := `__global__ void k(float *a, int *rows, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) for (int j = rows[i]; j < rows[i + 1]; j++) a[j] = 0.0f;
}
`
	_, err := cimport.Import("k.cu", []byte(src), cimport.Options{Local: []string{"128"}, Arrays: map[string]string{"a": "n", "rows": "n + 1"}})
	fmt.Println(err)
	// Output:
	// k.cu:4:29: the loop over j starts at a value read from data; write its bounds affine, or give the most iterations it runs, --trips j=BOUND, to count it as an upper bound
}

// A CSR row's loop, whose bounds are data, runs at most maxrl times
// (--trips): it is the language's data-bounded loop, generated as C's,
// and its body counts maxrl times, an upper bound. The column index is
// a gather, the sum an atomic addition, and the const __restrict__
// arguments are readonly. (Written j < row[i + 1], which C reads at
// every trip, the loop would be masked: an iname over the trips with
// the body under j < row[i + 1], as the header would say.)
func ExampleImport_gather() {
	src := `// uniperf: --local 128 --array val=nnz --array col=nnz --array row=n+1 --array x=n --array y=n --array total=1 --trips j=maxrl
__global__ void spmv(const float *__restrict__ val, const int *__restrict__ col, const int *__restrict__ row,
                     const float *__restrict__ x, float *y, float *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0.0f;
        int end = row[i + 1];
        for (int j = row[i]; j < end; j++) s += val[j] * x[col[j]];
        y[i] = s;
        atomicAdd(total, s);
    }
}
`
	r, err := cimport.Import("spmv.cu", []byte(src), cimport.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(r.Knl))
	// Output:
	// # Imported by uniperf import from spmv.cu, kernel spmv.
	// # size parameter maxrl: named by --trips j=maxrl, no argument of the kernel
	// # size parameter nnz: named by --array col=nnz, no argument of the kernel
	// # loop over j at line 9: from j_start to end_2 - 1, at most maxrl trips (--trips j=maxrl); its bounds are data, so what it does counts as an upper bound
	// # work-group size 128: --local, from the comment at line 1
	// # work-groups along axis 0: as many as the kernel's guard needs (no --global or --groups given)
	// # array val: --array val=nnz, from the comment at line 1; readonly: const and restrict, never stored
	// # array col: --array col=nnz, from the comment at line 1; readonly: const and restrict, never stored
	// # array row: --array row=n+1, from the comment at line 1; readonly: const and restrict, never stored
	// # array x: --array x=n, from the comment at line 1; readonly: const and restrict, never stored
	// # array y: --array y=n, from the comment at line 1
	// # array total: --array total=1, from the comment at line 1
	// # assumed: n, nnz >= 1 (factors of the arrays' extents)
	// kernel spmv
	// domain [n, nnz, maxrl] -> { [i] : 0 <= i and i < n }
	// assume n, nnz >= 1
	// array val f32 [nnz] readonly
	// array col i32 [nnz] readonly
	// array row i32 [n + 1] readonly
	// array x f32 [n] readonly
	// array y f32 [n]
	// array total f32 [1]
	// private s f32
	// private end_2 i32
	// private j_start i32
	// split i 128 i_out i_in
	// tag i_in l.0, i_out g.0
	// s = 0.0f
	// end_2 = row[i + 1]
	// j_start = row[i]
	// for j = j_start .. end_2 max maxrl
	//   s += val[j] * x[col[j]] {inames=i}
	// end
	// y[i] = s
	// atomic_add(total[0], s) {inames=i}
}
