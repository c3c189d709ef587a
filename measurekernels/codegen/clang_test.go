package codegen_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/counts/half"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// The C features of the kernel language (scalar arguments, integer max
// and min, casts, double promotion), generated as OpenCL C and run on
// PoCL, against the same computation written in Go.

// runOnPoCL runs k's OpenCL C at params on PoCL with the given contents
// of its global arrays (Go slices of their element types) and returns
// every global array's contents afterwards.
func runOnPoCL(t *testing.T, k *counts.Kernel, params map[string]int64, data map[string]any) map[string]any {
	t.Helper()
	dev, err := devices.Open("opencl")
	if err != nil {
		t.Fatalf("an OpenCL device is needed (PoCL in CI): %v", err)
	}
	defer dev.Close()
	in := map[string][]byte{}
	for name, v := range data {
		b, err := binary.Append(nil, binary.LittleEndian, v)
		if err != nil {
			t.Fatal(err)
		}
		in[name] = b
	}
	got := pocltest.Run(t, dev, k, params, in)
	for name, b := range in {
		if len(b) != len(got[name]) {
			t.Fatalf("%s: %d bytes for %d elements", name, len(b), len(got[name])/k.Array(name).DType.Size())
		}
	}
	out := map[string]any{}
	for name, b := range got {
		n := len(b) / k.Array(name).DType.Size()
		a := k.Array(name)
		var v any
		switch a.DType {
		case counts.F32:
			v = make([]float32, n)
		case counts.F64:
			v = make([]float64, n)
		case counts.I32:
			v = make([]int32, n)
		case counts.I8:
			v = make([]int8, n)
		case counts.U8:
			v = make([]uint8, n)
		case counts.I16:
			v = make([]int16, n)
		case counts.U16:
			v = make([]uint16, n)
		case counts.U32:
			v = make([]uint32, n)
		case counts.F16:
			v = make([]half.Float, n)
		default:
			v = make([]int64, n)
		}
		if _, err := binary.Decode(b, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
		out[name] = v
	}
	return out
}

func parseSrc(t *testing.T, src string, cs map[string]int64) *counts.Kernel {
	t.Helper()
	k, err := counts.ParseKernel("k.knl", []byte(src), cs)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// near reports whether a and b agree to a relative 1e-6 (OpenCL C may
// contract a*b + c into a fused multiply-add).
func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b))
}

// Scalar arguments are kernel parameters by value, bound to their
// declared values: y = alpha*x + beta*y computed on PoCL is Go's.
func TestScalarArgumentsOnPoCL(t *testing.T) {
	k := parseSrc(t, `kernel axpby
domain [n] -> { [i] : 0 <= i < n }
scalar alpha f32 = 1.5
scalar beta f64 = -0.25
scalar c i64 = 5000000000
array x f32 [n]
array y f32 [n]
array w i64 [n]
split i 8 io ii
tag io g.0, ii l.0
y[i] = alpha*x[i] + beta*y[i]
w[i] = w[i] + c
`, nil)
	for _, backend := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
		code, err := codegen.Generate(k, backend)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(code.Source, "float alpha, double beta, ") || strings.Contains(code.Source, "*alpha") {
			t.Errorf("%s: alpha and beta are not parameters by value:\n%s", backend, code.Source)
		}
	}
	const n = 21
	x, y, w := make([]float32, n), make([]float32, n), make([]int64, n)
	for i := range n {
		x[i], y[i], w[i] = float32(i)*0.75-3, float32(i*i)/7, int64(i)-10
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"x": x, "y": y, "w": w})
	gotY, gotW := out["y"].([]float32), out["w"].([]int64)
	for i := range n {
		// beta is f64, so beta*y[i] and the sum are f64, stored as f32.
		want := float32(float64(1.5*x[i]) + -0.25*float64(y[i]))
		if !near(float64(gotY[i]), float64(want)) || gotW[i] != w[i]+5000000000 {
			t.Errorf("element %d: y %v w %d, want %v %d", i, gotY[i], gotW[i], want, w[i]+5000000000)
		}
	}
}

// Integer max and min are C's max and min, floating-point ones fmax and
// fmin: testdata/lang/minmax.knl on PoCL computes what Go's max and min
// do, with values on both sides of every bound.
func TestMinMaxOnPoCL(t *testing.T) {
	k := langKernel(t, "minmax", consts{"LX": 16})
	for _, backend := range []gpu.Backend{gpu.OpenCL, gpu.CUDA} {
		code, err := codegen.Generate(k, backend)
		if err != nil {
			t.Fatal(err)
		}
		fmax := map[gpu.Backend]string{gpu.OpenCL: "fmax(", gpu.CUDA: "fmaxf("}[backend]
		for _, want := range []string{"max(min(a[", fmax} {
			if !strings.Contains(code.Source, want) {
				t.Errorf("%s source lacks %q:\n%s", backend, want, code.Source)
			}
		}
	}
	const n = 23
	a, b, x := make([]int32, n), make([]int64, n), make([]float32, n)
	for i := range n {
		a[i], b[i], x[i] = int32(i-8), int64(i*i-100), float32(i)/8-0.75
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"a": a, "b": b, "x": x})
	o, p, y := out["o"].([]int32), out["p"].([]int64), out["y"].([]float32)
	for i := range n {
		wo := max(min(a[i], 7), -3)
		wp := max(b[i], n) + int64(min(n, a[i]))
		wy := max(x[i], 1) + min(0.5, x[i])
		if o[i] != wo || p[i] != wp || y[i] != wy {
			t.Errorf("element %d: o %d p %d y %v, want %d %d %v", i, o[i], p[i], y[i], wo, wp, wy)
		}
	}
}

// C's casts are emitted as casts: testdata/lang/casts.knl on PoCL
// computes what Go's conversions do, (int) truncating towards zero on
// negative values too.
func TestCastsOnPoCL(t *testing.T) {
	k := langKernel(t, "casts", consts{"LX": 16})
	const n = 19
	a, x, d := make([]int32, n), make([]float32, n), make([]float64, n)
	for i := range n {
		a[i], x[i], d[i] = int32(7*i-50), float32(i)*0.7-5.3, float64(i)*0.45-4.1
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"a": a, "x": x, "d": d})
	o, q, e := out["o"].([]float32), out["q"].([]int32), out["e"].([]float64)
	for i := range n {
		wo := float32(a[i])/3 + float32(i)
		wq := int32(x[i])*2 + int32(d[i]-0.5)
		we := float64(x[i])*float64(x[i]) + 2
		if o[i] != wo || q[i] != wq || !near(e[i], we) {
			t.Errorf("element %d: o %v q %d e %v, want %v %d %v", i, o[i], q[i], e[i], wo, wq, we)
		}
	}
}

// An unsuffixed literal is a double, as in C: 0.1*x of an f32 x is
// computed in f64 and 0.1f*x in f32, on PoCL as in Go, and the two differ
// at some elements.
func TestDoublePromotionOnPoCL(t *testing.T) {
	k := parseSrc(t, `kernel promote
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f32 [n]
array z f32 [n]
split i 8 io ii
tag io g.0, ii l.0
y[i] = 0.1*x[i]
z[i] = 0.1f*x[i]
`, nil)
	const n = 64
	x := make([]float32, n)
	for i := range n {
		x[i] = float32(i)*1.37 + 0.11
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"x": x})
	y, z := out["y"].([]float32), out["z"].([]float32)
	differ := 0
	for i := range n {
		wy, wz := float32(0.1*float64(x[i])), float32(0.1)*x[i]
		if y[i] != wy || z[i] != wz {
			t.Errorf("element %d: y %v z %v, want %v %v", i, y[i], z[i], wy, wz)
		}
		if wy != wz {
			differ++
		}
	}
	if differ == 0 {
		t.Error("f64 and f32 products agree everywhere: the test tells nothing")
	}
}

// Literal arithmetic is emitted folded, and // and % by a power of two as
// a shift and an AND: testdata/lang/fold.knl on PoCL computes Go's floor
// division and modulo, negative dividends included.
func TestFoldOnPoCL(t *testing.T) {
	k := langKernel(t, "fold", consts{"LX": 16})
	code, err := codegen.Generate(k, gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"* (0.1f)) + (11.0f))", " >> 3) + ", " & (15))", " >> 10) + ", " & (1L))", "floordiv_i32("} {
		if !strings.Contains(code.Source, want) {
			t.Errorf("source lacks %q:\n%s", want, code.Source)
		}
	}
	floor := func(a, b int64) (int64, int64) {
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		return q, a - q*b
	}
	const n = 41
	x, kk, g := make([]float32, n), make([]int32, n), make([]int64, n)
	for i := range n {
		x[i], kk[i], g[i] = float32(i)*0.3, int32(5*i-90), int64(i*i*i)-20000
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"x": x, "k": kk, "g": g})
	y, o, q, p := out["y"].([]float32), out["o"].([]int32), out["q"].([]int32), out["p"].([]int64)
	for i := range n {
		d8, _ := floor(int64(kk[i]), 8)
		_, m16 := floor(int64(kk[i]), 16)
		d3, _ := floor(int64(kk[i]), 3)
		d4, m4 := floor(int64(kk[i])-50, 4)
		d1024, _ := floor(g[i], 1024)
		_, m2 := floor(g[i], 2)
		wy := x[i]*float32(0.1) + 11
		if !near(float64(y[i]), float64(wy)) || int64(o[i]) != d8+m16-d3 || int64(q[i]) != d4*10+m4 || p[i] != d1024+m2 {
			t.Errorf("element %d: y %v o %d q %d p %d, want %v %d %d %d", i, y[i], o[i], q[i], p[i], wy, d8+m16-d3, d4*10+m4, d1024+m2)
		}
	}
}
