package codegen_test

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// example parses a kernel of examples/ with its default consts.
func example(t *testing.T, name string) *counts.Kernel {
	t.Helper()
	return exampleWith(t, name, nil)
}

// exampleWith parses a kernel of examples/ with consts cs bound.
func exampleWith(t *testing.T, name string, cs consts) *counts.Kernel {
	t.Helper()
	src, err := os.ReadFile("../../examples/" + name + ".knl")
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(name+".knl", src, cs)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A data-bounded loop is generated as C's plain loop over its bounds, in
// OpenCL C and CUDA C alike, with no loop to its max and no mask: SHOC's
// for (int j = start; j < end; j++) and for (int i = 0; i < max; i++).
// The CUDA C compiles to PTX.
func TestDataLoopIsCsLoop(t *testing.T) {
	clang, prelude := cudaTools(t)
	for name, head := range map[string]string{"spmv_csr_scalar": "for (j = start; j < end; ++j) {", "spmv_ellpackr": "for (int i = 0; i < rl; ++i) {"} {
		k := example(t, name)
		for _, b := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
			code, err := codegen.Generate(k, b)
			if err != nil {
				t.Fatal(err)
			}
			body := code.Source[strings.Index(code.Source, "{"):]
			if !strings.Contains(body, head) || strings.Contains(body, "maxrl") {
				t.Errorf("%s, %v: no %q, or a loop or test on maxrl, in\n%s", name, b, head, code.Source)
			}
		}
		if _, err := compileCUDA(clang, prelude, t.TempDir(), k); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The generated scalar CSR SpMV, on PoCL, computes a Go SpMV's product on
// random matrices whose rows hold 0 to maxrl entries.
func TestDataLoopSpMVOnPoCL(t *testing.T) {
	k := example(t, "spmv_csr_scalar")
	rng := rand.New(rand.NewPCG(7, 42))
	for _, size := range [][2]int{{301, 7}, {129, 1}, {5, 12}} {
		dim, maxrl := size[0], size[1]
		rowptr := []int32{0}
		var val []float32
		var cols []int32
		for range dim {
			for range rng.IntN(maxrl + 1) {
				val = append(val, float32(rng.IntN(17)-8)/4)
				cols = append(cols, int32(rng.IntN(dim)))
			}
			rowptr = append(rowptr, int32(len(val)))
		}
		if len(val) == 0 {
			val, cols = []float32{0}, []int32{0}
		}
		vec := make([]float32, dim)
		for i := range vec {
			vec[i] = float32(rng.IntN(9)) / 8
		}
		params := map[string]int64{"dim": int64(dim), "nnz": int64(len(val)), "maxrl": int64(maxrl)}
		out := runOnPoCL(t, k, params, map[string]any{"val": val, "cols": cols, "rowDelimiters": rowptr, "vec": vec, "out": make([]float32, dim)})
		got := out["out"].([]float32)
		for r := range dim {
			var want float32
			for j := rowptr[r]; j < rowptr[r+1]; j++ {
				want += val[j] * vec[cols[j]]
			}
			if !near(float64(got[r]), float64(want)) {
				t.Errorf("%v: out[%d] = %g, want %g", size, r, got[r], want)
			}
		}
	}
}
