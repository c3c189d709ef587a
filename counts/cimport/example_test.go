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
	src := `__global__ void k(float *a, int *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[idx[i]] = 0.0f;
}
`
	_, err := cimport.Import("k.cu", []byte(src), cimport.Options{Local: []string{"128"}, Arrays: map[string]string{"a": "n", "idx": "n"}})
	fmt.Println(err)
	// Output:
	// k.cu:4:18: the subscript of a reads data (an indirect access): .knl needs affine subscripts; not translated
}
