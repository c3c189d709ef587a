package cimport

import (
	"maps"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestFeatureCounts imports small kernels that use scalar arguments,
// casts, integer min and max and a ?: that is a min, Rodinia's clamps, prototypes, two
// early returns, pointer sums, --groups N/D - C, a loop stepped by a
// variable, an induction variable and a variable set in both branches
// of an if, and checks that the
// imported .knl parses and counts what hand derivation says the C
// executes.
func TestFeatureCounts(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		size map[string]int64
		want map[string]int64
	}{
		{"saxpy", "// uniperf: --local 64 --global n --array x=n --array y=n\n__global__ void saxpy(float *x, float *y, int n, float alpha)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) y[i] = alpha * x[i] + y[i];\n}\n", map[string]int64{"n": 200},
			// 200 work-items pass the guard (4 groups of 64); each does 1 mul,
			// 1 add, 2 loads and 1 store: alpha is a register.
			map[string]int64{"flop.f32.add": 200, "flop.f32.mul": 200, "global.load.f32.stride=1": 400,
				"global.store.f32.stride=1": 200, "global.minldst.f32.stride=1": 200, "launch.const": 1, "launch.groups": 4}},
		{"cast", "// uniperf: --local 64 --global n --array x=n --array b=n --array c=n\n__global__ void cast(float *x, float *b, int *c, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) { b[i] = (float)i * x[i] + (float)c[i]; c[i] = (int)x[i]; }\n}\n", map[string]int64{"n": 200},
			// The casts count nothing: 1 mul and 1 add per work-item, x read
			// twice, c once, b and c stored.
			map[string]int64{"flop.f32.add": 200, "flop.f32.mul": 200, "global.load.f32.stride=1": 400, "global.load.i32.stride=1": 200,
				"global.store.f32.stride=1": 200, "global.store.i32.stride=1": 200, "global.minldst.f32.stride=1": 200,
				"global.minldst.i32.stride=1": 200, "launch.const": 1, "launch.groups": 4}},
		{"clamp", "// uniperf: --local 64 --global n --array c=n --array d=n\n__global__ void clamp(int *c, int *d, int n, int m)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) {\n        int v = c[i];\n        c[i] = min(max(v, 0), m);\n        d[i] = (i < m) ? i : m;\n    }\n}\n", map[string]int64{"n": 200, "m": 150},
			// min, max and the ?: that is a min: 3 integer specials per
			// work-item.
			map[string]int64{"int.i32.special": 600, "global.load.i32.stride=1": 200, "global.store.i32.stride=1": 400,
				"global.minldst.i32.stride=1": 200, "launch.const": 1, "launch.groups": 4}},
		{"clamps", "// uniperf: --local 64 --global n --array c=n --array d=n\n__global__ void clamps(int *c, int *d, int n, int m)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) {\n        int lo = (i - m < 0) ? m - i : 0;\n        int w = i - 1;\n        w = (w < lo) ? lo : w;\n        d[i] = c[w] + lo;\n    }\n}\n", map[string]int64{"n": 200, "m": 150},
			// Rodinia's clamps: x < 0 ? -x : 0 is max(m - i, 0), and w, set
			// again to the max of itself and lo, is data from there on, so
			// c[w] is a gather. Per work-item 2 specials, 3 additions (m -
			// i, i - 1, c[w] + lo), 1 indirect load, 1 store.
			map[string]int64{"int.i32.special": 400, "int.i32.add": 600, "global.load.indirect.i32": 200, "global.store.i32.stride=1": 200,
				"launch.const": 1, "launch.groups": 4}},
		{"guards", guardsSrc, map[string]int64{"n": 200, "t": 3, "m": 300},
			// --groups (n+15)/16-1 launches 12 groups of 16: 192 work-items,
			// all inside both guards (i < 196, i < 300); each loads a[i],
			// multiplies once and stores b[i + t + 1].
			map[string]int64{"flop.f32.mul": 192, "global.load.f32.stride=1": 192, "global.store.f32.stride=1": 192,
				"global.minldst.f32.stride=1": 192, "launch.const": 1, "launch.groups": 12}},
		{"guards", guardsSrc, map[string]int64{"n": 64, "t": 0, "m": 40},
			// 3 groups (48 work-items); the second guard keeps i < 40.
			map[string]int64{"flop.f32.mul": 40, "global.load.f32.stride=1": 40, "global.store.f32.stride=1": 40,
				"global.minldst.f32.stride=1": 40, "launch.const": 1, "launch.groups": 3}},
		{"stride", "// uniperf: --local 16 --groups 4 --array a=n --array b=64\n__global__ void stride(float *a, float *b, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    int step = 4*16;\n    float s = 0.0f;\n    for (int k = i; k < n; k += step) s += a[k];\n    b[i] = s;\n}\n", map[string]int64{"n": 200},
			// A grid-stride loop whose step is a variable (64): the 64
			// work-items read each of the 200 elements once and add it,
			// and store one sum each.
			map[string]int64{"flop.f32.add": 200, "global.load.f32.stride=1": 200, "global.store.f32.stride=1": 64,
				"global.minldst.f32.stride=1": 64, "launch.const": 1, "launch.groups": 4}},
		{"walk", walkSrc, map[string]int64{"n": 40},
			// off, an induction variable, is tx + n*k in iteration k: 32
			// work-items load and add 8 elements each; idx, set in each
			// branch, stores 16 sums and 16 products.
			map[string]int64{"flop.f32.add": 256, "flop.f32.mul": 16, "global.load.f32.stride=1": 256, "global.store.f32.stride=1": 32,
				"global.minldst.f32.stride=1": 32, "launch.const": 1, "launch.groups": 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Import(c.name+".cu", []byte(c.src), Options{})
			if err != nil {
				t.Fatal(err)
			}
			k, err := counts.ParseKernel(c.name+".knl", r.Knl, nil)
			if err != nil {
				t.Fatalf("%v\n%s", err, r.Knl)
			}
			cs, err := counts.Count(k)
			if err != nil {
				t.Fatalf("%v\n%s", err, r.Knl)
			}
			got, err := cs.Eval(c.size)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(nonzero(got), c.want) {
				t.Errorf("counts\n%v\nwant\n%v\n%s", nonzero(got), c.want, r.Knl)
			}
		})
	}
}

// guardsSrc declares its kernel before defining it, returns early under
// two guards, as Rodinia's Fan2, addresses its arrays as *(a + i + t +
// 1), as Fan1, and launches (n + 15)/16 - 1 groups, one fewer than
// cover n, as lud's perimeter launches one fewer than cover its matrix
// (the launch leaves out work-items that the guard admits, which the
// import warns of).
const guardsSrc = "// uniperf: --local 16 --groups (n+15)/16-1 --array a=n --array b=n\n" +
	"__global__ void guards(float *a, float *b, int n, int t, int m);\n" +
	"__global__ void guards(float *a, float *b, int n, int t, int m)\n{\n" +
	"    if (threadIdx.x + blockIdx.x*blockDim.x >= n - 1 - t) return;\n" +
	"    if (threadIdx.x + blockIdx.x*blockDim.x >= m) return;\n" +
	"    *(b + blockIdx.x*blockDim.x + threadIdx.x + t + 1) = 2.0f * *(a + blockIdx.x*blockDim.x + threadIdx.x);\n}\n"

// walkSrc has an induction variable (off) and an index set in both
// branches of an if (idx), as Rodinia's lud kernels.
const walkSrc = "// uniperf: --local 32 --groups 1 --array a=n*8 --array b=64\n__global__ void walk(float *a, float *b, int n)\n{\n" +
	"    int off = threadIdx.x;\n    int idx;\n    float s = 0.0f;\n    for (int k = 0; k < 8; k++) { s += a[off]; off += n; }\n" +
	"    if (threadIdx.x < 16) { idx = threadIdx.x; b[idx] = s; } else { idx = threadIdx.x + 16; b[idx] = 2.0f * s; }\n}\n"

// TestScalarRenamed checks that a scalar argument named by a word of
// .knl is renamed, to no size parameter's name.
func TestScalarRenamed(t *testing.T) {
	src := "// uniperf: --local 64 --global n --array x=n\n__global__ void k(float *x, float sum, int n, int sum_2)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) x[i] = sum * x[i] + sum_2;\n}\n"
	r, err := Import("k.cu", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"scalar sum_3 f32\n", "x[i] = sum_3 * x[i] + sum_2\n"} {
		if !strings.Contains(string(r.Knl), want) {
			t.Errorf("no %q in\n%s", want, r.Knl)
		}
	}
}

// TestScalarValue checks that -D on a floating-point argument gives the
// .knl scalar argument that value, and that the body reads the argument
// rather than a literal (gemm's run in the interpreter and on PoCL
// checks that the value reaches what the kernel computes).
func TestScalarValue(t *testing.T) {
	src := "// uniperf: --local 64 --global n --array x=n\n__global__ void k(float *x, float alpha, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) x[i] = alpha * x[i];\n}\n"
	r, err := Import("k.cu", []byte(src), Options{Defines: map[string]string{"alpha": "-2.5f"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"scalar alpha f32 = -2.5f\n", "x[i] = alpha * x[i]\n", "# argument alpha = -2.5f (-D)"} {
		if !strings.Contains(string(r.Knl), want) {
			t.Errorf("no %q in\n%s", want, r.Knl)
		}
	}
}

// TestTunableReadByIf checks that a -D integer stays a const where the
// body uses it as a number, and becomes a literal, with the reason in
// the header, where an #if reads its value; and that the const's
// counts follow a new value as the literal's import at that value does.
func TestTunableReadByIf(t *testing.T) {
	src := "// uniperf: --local BS --global n --array x=n\n#if WIDE > 1\n#define STEP 2\n#else\n#define STEP 1\n#endif\n" +
		"__global__ void k(float *x, int n)\n{\n    int i = blockIdx.x*BS + threadIdx.x;\n    if (i < n) x[i] = STEP * x[i];\n}\n"
	imp := func(bs string) *counts.Counted {
		r, err := Import("k.cu", []byte(src), Options{Defines: map[string]string{"BS": bs, "WIDE": "2"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"const BS = " + bs + "\n", "split i BS i_out i_in\n", "# -D WIDE=2: a literal, not a const: #if at line 2 reads its value\n"} {
			if !strings.Contains(string(r.Knl), want) {
				t.Errorf("no %q in\n%s", want, r.Knl)
			}
		}
		k, err := counts.ParseKernel("k.knl", r.Knl, map[string]int64{"BS": 48})
		if err != nil {
			t.Fatal(err)
		}
		c, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// At BS = 48 both count 200 work-items in 5 groups (ceil(200/48)).
	for _, bs := range []string{"64", "48"} {
		got, err := imp(bs).Eval(map[string]int64{"n": 200})
		if err != nil {
			t.Fatal(err)
		}
		if got["launch.groups"] != 5 || got["flop.f32.mul"] != 200 {
			t.Errorf("BS imported as %s, counted at 48: %v", bs, nonzero(got))
		}
	}
}

// TestNestedTernaries imports ?: nested 40 deep in their conditions,
// each comparison's operands evaluated once (twice each would take 2^40
// evaluations), into 40 nested if().
func TestNestedTernaries(t *testing.T) {
	e := "i"
	for range 40 {
		e = "((" + e + ") < n ? n : m)"
	}
	src := "// uniperf: --local 64 --global n --array a=n\n__global__ void k(float *a, int n, int m)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    int j = " + e + ";\n    if (i < n) a[i] = (float)j;\n}\n"
	r, err := Import("k.cu", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(r.Knl), "if("); n != 40 {
		t.Errorf("%d if(), want 40:\n%s", n, r.Knl)
	}
}
