package examples_test

import (
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// example is a ported kernel with sizes to check it at and a Go
// reimplementation of its original: want computes, from the inputs, the
// arrays the original writes.
type example struct {
	params map[string]int64
	want   func(p map[string]int64, in map[string][]float32) map[string][]float32
}

// Sizes that the work-groups do not divide where the original allows it.
var kernels = map[string]example{
	"gemm": {map[string]int64{"ni": 37, "nj": 45, "nk": 13}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		ni, nj, nk := p["ni"], p["nj"], p["nk"]
		a, b, c := in["a"], in["b"], clone(in["c"])
		for i := range ni {
			for j := range nj {
				c[i*nj+j] *= 2123
				for k := range nk {
					c[i*nj+j] += 32412 * a[i*nk+k] * b[k*nj+j]
				}
			}
		}
		return map[string][]float32{"c": c}
	}},
	"atax1": {map[string]int64{"nx": 300, "ny": 41}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		nx, ny := p["nx"], p["ny"]
		tmp := clone(in["tmp"])
		for i := range nx {
			for j := range ny {
				tmp[i] += in["a"][i*ny+j] * in["x"][j]
			}
		}
		return map[string][]float32{"tmp": tmp}
	}},
	"atax2": {map[string]int64{"nx": 41, "ny": 300}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		nx, ny := p["nx"], p["ny"]
		y := clone(in["y"])
		for j := range ny {
			for i := range nx {
				y[j] += in["a"][i*ny+j] * in["tmp"][i]
			}
		}
		return map[string][]float32{"y": y}
	}},
	"bicg": {map[string]int64{"nx": 41, "ny": 300}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		nx, ny := p["nx"], p["ny"]
		s := make([]float32, ny)
		for j := range ny {
			for i := range nx {
				s[j] += in["a"][i*ny+j] * in["r"][i]
			}
		}
		return map[string][]float32{"s": s}
	}},
	"jacobi2d": {map[string]int64{"n": 45}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		n := p["n"]
		a, b := in["a"], clone(in["b"])
		for i := int64(1); i < n-1; i++ {
			for j := int64(1); j < n-1; j++ {
				b[i*n+j] = 0.2 * (a[i*n+j] + a[i*n+j-1] + a[i*n+1+j] + a[(1+i)*n+j] + a[(i-1)*n+j])
			}
		}
		return map[string][]float32{"b": b}
	}},
	"syrk": {map[string]int64{"ni": 13, "nj": 37}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		ni, nj := p["ni"], p["nj"]
		a, c := in["a"], clone(in["c"])
		for i := range nj {
			for j := range nj {
				c[i*nj+j] *= 4546
				for k := range ni {
					c[i*nj+j] += 12435 * a[i*ni+k] * a[j*ni+k]
				}
			}
		}
		return map[string][]float32{"c": c}
	}},
	"transpose": {map[string]int64{"width": 48, "height": 32}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		w, h := p["width"], p["height"]
		out := make([]float32, w*h)
		for y := range h {
			for x := range w {
				out[x*h+y] = in["idata"][y*w+x]
			}
		}
		return map[string][]float32{"odata": out}
	}},
	"reduction": {map[string]int64{"n": 5}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		out := make([]float32, p["n"])
		for g := range p["n"] {
			for t := range int64(128) {
				out[g] += in["idata"][128*g+t]
			}
		}
		return map[string][]float32{"odata": out}
	}},
	"pathfinder": {map[string]int64{"cols": 300, "rows": 3, "row": 1}, func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		cols, row := p["cols"], p["row"]
		// dynproc reads the row above at its own index clamped to the
		// row; src holds it padded, src[c + 1] for column c.
		prev := func(c int64) float32 { return in["src"][min(max(c, 0), cols-1)+1] }
		dst := make([]float32, cols)
		for c := range cols {
			dst[c] = in["wall"][row*cols+c] + min(prev(c-1), prev(c), prev(c+1))
		}
		return map[string][]float32{"dst": dst}
	}},
}

func parse(t *testing.T, name string) *counts.Kernel {
	t.Helper()
	src, err := os.ReadFile(name + ".knl")
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(name+".knl", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func clone(s []float32) []float32 { return append([]float32(nil), s...) }

// inputs fills every global array with values in [0.5, 1.5), or integers
// in [-10, 10] for an i32 array and [0, 20] for a u32 one, 0 or 1 for an 8- or 16-bit one (C's
// bool is one byte), and pathfinder's padding with copies of the row's
// ends as its original reads them, and what fixInputs makes valid.
// Integer arrays travel as float32 too (exactly, being small), converted
// for the interpreter and the device by toRun, fromRun, encode and
// decode.
func inputs(k *counts.Kernel, p map[string]int64) map[string][]float32 {
	rng := rand.New(rand.NewPCG(7, uint64(len(k.Name))))
	in := map[string][]float32{}
	for _, a := range k.Arrays {
		if a.Space != counts.Global {
			continue
		}
		n := int64(1)
		for _, e := range a.Shape {
			v, err := e.Eval(p)
			if err != nil {
				panic(err)
			}
			n *= v
		}
		s := make([]float32, n)
		for i := range s {
			if a.DType == counts.I32 {
				s[i] = float32(rng.IntN(21) - 10)
			} else if a.DType == counts.U32 {
				s[i] = float32(rng.IntN(21))
			} else if a.DType.Narrow() {
				s[i] = float32(rng.IntN(2))
			} else {
				s[i] = 0.5 + rng.Float32()
			}
		}
		in[a.Name] = s
	}
	if src, ok := in["src"]; ok && k.Name == "pathfinder" {
		src[0], src[len(src)-1] = src[1], src[len(src)-2]
	}
	if fix := fixInputs[k.Name]; fix != nil {
		fix(p, in)
	}
	return in
}

// fixInputs makes the inputs of a kernel whose integer arrays are
// structure (a sparse matrix's row pointers and columns) valid at
// params.
var fixInputs = map[string]func(p map[string]int64, in map[string][]float32){}

// TestExamplesCount checks each example's counts against what the
// reference interpreter executes, property by property (stride classes
// summed, as the interpreter does not class them), and the interpreter's
// results against the Go reimplementation.
func TestExamplesCount(t *testing.T) {
	for name, ex := range kernels {
		t.Run(name, func(t *testing.T) {
			k := parse(t, name)
			c, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.CheckBounds(ex.params); err != nil {
				t.Fatal(err)
			}
			in := inputs(k, ex.params)
			data := map[string]any{}
			for n, s := range in {
				data[n] = toRun(k, n, s)
			}
			tl, err := counts.Run(k, ex.params, data, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Eval(ex.params)
			if err != nil {
				t.Fatal(err)
			}
			checkTotals(t, c, fold(got), tl.Totals())
			for arr, want := range ex.want(ex.params, in) {
				compare(t, name, arr, fromRun(data[arr]), want)
			}
		})
	}
}

// checkTotals compares the folded counts with the interpreter's totals:
// equal, except that a property counted as an upper bound (work under a
// condition that reads data, as correlation2's test of the deviation
// against eps) may exceed what the run did, and never fall short.
func checkTotals(t *testing.T, c *counts.Counted, folded, run map[string]int64) {
	t.Helper()
	bound := map[string]bool{}
	for _, name := range c.Names() {
		if c.UpperBound(name) {
			bound[foldName(name)] = true
		}
	}
	for name := range run {
		if _, ok := folded[name]; !ok {
			folded[name] = 0
		}
	}
	for name, n := range folded {
		if r := run[name]; n != r && !(bound[name] && n > r) {
			t.Errorf("%s: counted %d, interpreter %d (upper bound: %v)", name, n, r, bound[name])
		}
	}
}

// foldName is the interpreter's category of a property.
func foldName(name string) string {
	if i := strings.Index(name, ".stride="); i >= 0 {
		return name[:i]
	}
	return name
}

// fold sums the stride classes of global properties and drops minldst
// and zero counts, giving the interpreter's categories.
func fold(props map[string]int64) map[string]int64 {
	out := map[string]int64{}
	for name, v := range props {
		if strings.HasPrefix(name, "global.minldst.") || strings.Contains(name, ".conflict=") || v == 0 {
			continue
		}
		out[foldName(name)] += v
	}
	return out
}

// TestExamplesOnPoCL runs each example's generated OpenCL C on PoCL and
// compares what it writes with the Go reimplementation of its original.
func TestExamplesOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	for name, ex := range kernels {
		t.Run(name, func(t *testing.T) { runOnPoCL(t, dev, name, ex.params, ex.want) })
	}
}

// TestExamplesOnPoCLLarge runs kernels at sizes where a product in their
// index arithmetic passes 2^31: sum_floats' loop bound divides 4095*n by
// 4096, which 32-bit arithmetic wrapped at n = 2^20 into a crash.
func TestExamplesOnPoCLLarge(t *testing.T) {
	dev := pocltest.Open(t)
	runOnPoCL(t, dev, "sum_floats", map[string]int64{"n": 1<<20 + 3}, kernels["sum_floats"].want)
}

// runOnPoCL runs the example at params on dev and compares every array
// want gives with the device's.
func runOnPoCL(t *testing.T, dev gpu.Device, name string, params map[string]int64, want func(map[string]int64, map[string][]float32) map[string][]float32) {
	k := parse(t, name)
	in := inputs(k, params)
	wants := want(params, in)
	got := pocltest.RunFloats(t, dev, k, params, in, slices.Collect(maps.Keys(wants)))
	for arr, w := range wants {
		compare(t, name, arr, got[arr][:len(w)], w)
	}
}

// dtype is the element type of the kernel's global array name.
func dtype(k *counts.Kernel, name string) counts.DType {
	return k.Array(name).DType
}

// toRun gives the interpreter a copy of s in the array's element type.
func toRun(k *counts.Kernel, name string, s []float32) any {
	switch dtype(k, name) {
	case counts.I32:
		return convert[int32](s)
	case counts.U32:
		return convert[uint32](s)
	case counts.U8:
		return convert[uint8](s)
	case counts.I8:
		return convert[int8](s)
	case counts.U16:
		return convert[uint16](s)
	case counts.I16:
		return convert[int16](s)
	}
	return clone(s)
}

// convert converts through int64, so that a negative value wraps into
// an unsigned type as C's conversion does (Go leaves a float's
// conversion to a type that cannot hold it to the implementation).
func convert[T int32 | uint32 | uint8 | int8 | uint16 | int16](s []float32) []T {
	v := make([]T, len(s))
	for i, x := range s {
		v[i] = T(int64(x))
	}
	return v
}

// fromRun reads back what the interpreter left in an array.
func fromRun(v any) []float32 {
	switch v := v.(type) {
	case []int32:
		return widen(v)
	case []uint32:
		return widen(v)
	case []uint8:
		return widen(v)
	case []int8:
		return widen(v)
	case []uint16:
		return widen(v)
	case []int16:
		return widen(v)
	default:
		return v.([]float32)
	}
}

func widen[T int32 | uint32 | uint8 | int8 | uint16 | int16](v []T) []float32 {
	s := make([]float32, len(v))
	for i, x := range v {
		s[i] = float32(x)
	}
	return s
}

// terms gives, for the kernels whose results may cancel to near zero,
// the scale to compare them at: the magnitude of the terms they sum, or
// of their largest result where errors carry from step to step (an
// elimination). Near zero, the device's rounding errs relative to that
// scale, not to the result.
var terms = map[string]float64{}

// compare allows a relative difference of 1e-5: the device may contract
// a*b + c into one rounding (fma) and sum in another order; at least
// 1e-5 of the kernel's scale in terms, where it has one.
func compare(t *testing.T, kernel, name string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", name, len(got), len(want))
	}
	for i := range want {
		scale := max(math.Abs(float64(want[i])), terms[kernel])
		if d := math.Abs(float64(got[i]) - float64(want[i])); !(d <= 1e-5*scale) {
			t.Fatalf("%s[%d] = %g, want %g", name, i, got[i], want[i])
		}
	}
}
