package codegen_test

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// A readonly array is a const restrict pointer in both languages and is
// read with __ldg in CUDA C; the other arrays are plain pointers.
// (TestLangOnPoCL runs testdata/lang/readonly.knl against the
// interpreter, and TestLangCUDACompiles compiles its CUDA C.)
func TestReadOnlyQualifiers(t *testing.T) {
	k := langKernel(t, "readonly", consts{"LX": 16})
	want := map[gpu.Backend][]string{
		gpu.OpenCL: {"const __global float *restrict a", "const __global int *restrict m", "__global float *b,", "= ((a["},
		gpu.CUDA:   {"const float *__restrict__ a", "const int *__restrict__ m", "float *b,", "__ldg(&a[", "__ldg(&c[k])", "__ldg(&m["},
	}
	for b, subs := range want {
		code, err := codegen.Generate(k, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range subs {
			if !strings.Contains(code.Source, s) {
				t.Errorf("%s lacks %q:\n%s", b, s, code.Source)
			}
		}
		if b == gpu.OpenCL && strings.Contains(code.Source, "__ldg") {
			t.Errorf("OpenCL C calls __ldg:\n%s", code.Source)
		}
	}
}
