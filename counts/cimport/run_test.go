package cimport

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// original is a Go reimplementation of an original kernel (as
// examples_test.go has them, here with the originals' array names): the
// arrays it writes, from its inputs.
type original func(p map[string]int64, in map[string][]float32) map[string][]float32

var originals = map[string]original{
	"gemm": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		ni, nj, nk := p["ni"], p["nj"], p["nk"]
		c := clone(in["c"])
		for i := range ni {
			for j := range nj {
				c[i*nj+j] *= 2123
				for k := range nk {
					c[i*nj+j] += 32412 * in["a"][i*nk+k] * in["b"][k*nj+j]
				}
			}
		}
		return map[string][]float32{"c": c}
	},
	"atax1": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		nx, ny := p["nx"], p["ny"]
		tmp := clone(in["tmp"])
		for i := range nx {
			for j := range ny {
				tmp[i] += in["A"][i*ny+j] * in["x"][j]
			}
		}
		return map[string][]float32{"tmp": tmp}
	},
	"atax2": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		nx, ny := p["nx"], p["ny"]
		y := clone(in["y"])
		for j := range ny {
			for i := range nx {
				y[j] += in["A"][i*ny+j] * in["tmp"][i]
			}
		}
		return map[string][]float32{"y": y}
	},
	"bicg": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		nx, ny := p["nx"], p["ny"]
		s := make([]float32, ny)
		for j := range ny {
			for i := range nx {
				s[j] += in["A"][i*ny+j] * in["r"][i]
			}
		}
		return map[string][]float32{"s": s}
	},
	"jacobi2d": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		n := p["n"]
		a, b := in["A"], clone(in["B"])
		for i := int64(1); i < n-1; i++ {
			for j := int64(1); j < n-1; j++ {
				b[i*n+j] = 0.2 * (a[i*n+j] + a[i*n+j-1] + a[i*n+1+j] + a[(1+i)*n+j] + a[(i-1)*n+j])
			}
		}
		return map[string][]float32{"B": b}
	},
	"syrk": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
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
	},
	"transpose": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		w, h := p["width"], p["height"]
		out := make([]float32, w*h)
		for y := range h {
			for x := range w {
				out[x*h+y] = in["idata"][y*w+x]
			}
		}
		return map[string][]float32{"odata": out}
	},
	"reduce3": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		n := p["n"]
		out := clone(in["g_odata"])
		for b := int64(0); 128*b < n; b++ {
			out[b] = 0
			for i := 128 * b; i < min(128*b+128, n); i++ {
				out[b] += in["g_idata"][i]
			}
		}
		return map[string][]float32{"g_odata": out}
	},
	"conv2d": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		ni, nj := p["ni"], p["nj"]
		a, b := in["A"], clone(in["B"])
		var c11, c21, c31, c12, c22, c32, c13, c23, c33 float32 = 0.2, 0.5, -0.8, -0.3, 0.6, -0.9, 0.4, 0.7, 0.10
		for i := int64(1); i < ni-1; i++ {
			for j := int64(1); j < nj-1; j++ {
				b[i*nj+j] = c11*a[(i-1)*nj+(j-1)] + c21*a[(i-1)*nj+(j+0)] + c31*a[(i-1)*nj+(j+1)] +
					c12*a[(i+0)*nj+(j-1)] + c22*a[(i+0)*nj+(j+0)] + c32*a[(i+0)*nj+(j+1)] +
					c13*a[(i+1)*nj+(j-1)] + c23*a[(i+1)*nj+(j+0)] + c33*a[(i+1)*nj+(j+1)]
			}
		}
		return map[string][]float32{"B": b}
	},
	"rowsum": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		n, m := p["n"], p["m"]
		b := clone(in["b"])
		for i := range n {
			var acc float32
			for k := int64(1); k < m; k += 2 {
				acc += b[i*m+k]
			}
			if 2*i < n {
				b[i*m] = acc
			} else {
				b[i*m] -= acc * in["a"][i]
			}
		}
		return map[string][]float32{"b": b}
	},
	"shift": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		out := make([]float32, p["n"])
		for i := range p["n"] {
			if i%64 < 63 {
				out[i] = in["in"][i+1] - in["in"][i]
			} else {
				out[i] = in["in"][i]
			}
		}
		return map[string][]float32{"out": out}
	},
	"scalecast": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		n, m := p["n"], p["m"]
		y := make([]float32, n)
		for i := range n {
			lo := max(i-m, 0)
			x := in["x"][i]
			y[i] = 1*x + float32(min(i, m)) + float32(max(lo, 3)) + float32(int32(4*x))
		}
		return map[string][]float32{"y": y}
	},
}

// foldName is the interpreter's category of a property.
func foldName(name string) string {
	if i := strings.Index(name, ".stride="); i >= 0 {
		return name[:i]
	}
	return name
}

func clone(s []float32) []float32 { return append([]float32(nil), s...) }

// inputs fills every global array with values in [0.5, 1.5), or, for an
// integer array, integers in [0, 64), then makes the structure of
// fixInputs valid (a sparse matrix's rows, a permutation). Integer arrays
// travel as float32 too (exactly, being small), converted for the
// interpreter and the device by toRun, fromRun, encode and decode.
func inputs(t *testing.T, k *counts.Kernel, p map[string]int64) map[string][]float32 {
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
				t.Fatal(err)
			}
			n *= v
		}
		s := make([]float32, n)
		for i := range s {
			if a.DType.IsInt() {
				s[i] = float32(rng.IntN(64))
			} else {
				s[i] = 0.5 + rng.Float32()
			}
		}
		in[a.Name] = s
	}
	if fix := fixInputs[k.Name]; fix != nil {
		fix(p, in)
	}
	return in
}

// dtype is the element type of the kernel's array name.
func dtype(k *counts.Kernel, name string) counts.DType {
	for _, a := range k.Arrays {
		if a.Name == name {
			return a.DType
		}
	}
	return counts.F32
}

// toRun gives the interpreter a copy of s in the array's element type.
func toRun(k *counts.Kernel, name string, s []float32) any {
	conv := func(dst any) any {
		for i, x := range s {
			switch d := dst.(type) {
			case []int32:
				d[i] = int32(x)
			case []uint32:
				d[i] = uint32(x)
			case []int16:
				d[i] = int16(x)
			case []uint16:
				d[i] = uint16(x)
			case []int8:
				d[i] = int8(x)
			case []uint8:
				d[i] = uint8(x)
			}
		}
		return dst
	}
	switch dtype(k, name) {
	case counts.I32:
		return conv(make([]int32, len(s)))
	case counts.U32:
		return conv(make([]uint32, len(s)))
	case counts.I16:
		return conv(make([]int16, len(s)))
	case counts.U16:
		return conv(make([]uint16, len(s)))
	case counts.I8:
		return conv(make([]int8, len(s)))
	case counts.U8:
		return conv(make([]uint8, len(s)))
	}
	return clone(s)
}

// fromRun reads back what the interpreter left in an array.
func fromRun(v any) []float32 {
	var out []float32
	add := func(x float32) { out = append(out, x) }
	switch v := v.(type) {
	case []float32:
		return v
	case []int32:
		for _, x := range v {
			add(float32(x))
		}
	case []uint32:
		for _, x := range v {
			add(float32(x))
		}
	case []int16:
		for _, x := range v {
			add(float32(x))
		}
	case []uint16:
		for _, x := range v {
			add(float32(x))
		}
	case []int8:
		for _, x := range v {
			add(float32(x))
		}
	case []uint8:
		for _, x := range v {
			add(float32(x))
		}
	}
	return out
}

// TestPortsRun runs each imported original of runCases in the reference
// interpreter, and
// compares what it writes with the Go reimplementation of the original,
// and its counts with what the interpreter executed.
func TestPortsRun(t *testing.T) {
	for _, p := range runCases() {
		t.Run(p.knl, func(t *testing.T) {
			k := parsed(t, p.port)
			size := p.size
			in := inputs(t, k, size)
			data := map[string]any{}
			for n, s := range in {
				data[n] = toRun(k, n, s)
			}
			tl, err := counts.Run(k, size, data, nil)
			if err != nil {
				t.Fatal(err)
			}
			for arr, want := range originals[p.knl](p.osize, in) {
				compareArrays(t, arr, fromRun(data[arr]), want)
			}
			c, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Eval(size)
			if err != nil {
				t.Fatal(err)
			}
			checkTotals(t, c, fold(got), tl.Totals())
		})
	}
}

// importCounted imports a CUDA C source whose launch its uniperf: comment
// gives and counts the .knl it writes, which it returns too, for the
// messages of a failed comparison.
func importCounted(t *testing.T, src string) (*counts.Counted, []byte) {
	t.Helper()
	c, r := importCountedWith(t, "k.cu", src, Options{})
	return c, r.Knl
}

// importCountedWith imports src as file (k.cu or k.cl) with opts and
// counts the .knl it writes.
func importCountedWith(t *testing.T, file, src string, opts Options) (*counts.Counted, *Result) {
	t.Helper()
	r, err := Import(file, []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel("k.knl", r.Knl, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	return c, r
}

func parsed(t *testing.T, p port) *counts.Kernel {
	t.Helper()
	r := importPort(t, p)
	k, err := counts.ParseKernel(p.knl+".knl", r.Knl, nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// fold sums the stride classes of global properties and drops minldst,
// conflicts and zero counts, giving the interpreter's categories.
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

// TestPortsOnPoCL runs each imported original's (runCases) generated OpenCL C on
// the OpenCL device (PoCL in CI) and compares what it writes with the
// Go reimplementation of the original.
func TestPortsOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	for _, p := range runCases() {
		t.Run(p.knl, func(t *testing.T) {
			k := parsed(t, p.port)
			in := inputs(t, k, p.size)
			want := originals[p.knl](p.osize, in)
			got := runOnDevice(t, dev, k, p.size, in, slices.Collect(maps.Keys(want)))
			for arr := range want {
				compareArrays(t, arr, got[arr], want[arr])
			}
		})
	}
}

// runOnDevice runs k's generated code on dev at size with the inputs in
// and returns what it leaves in the arrays named.
func runOnDevice(t *testing.T, dev gpu.Device, k *counts.Kernel, size map[string]int64, in map[string][]float32, arrays []string) map[string][]float32 {
	t.Helper()
	out := pocltest.RunFloats(t, dev, k, size, in, arrays)
	for arr := range out {
		out[arr] = out[arr][:len(in[arr])]
	}
	return out
}

// checkTotals compares the folded counts with the interpreter's totals:
// equal, except that a property counted as an upper bound (work under a
// condition that reads data, as a CSR row's loop) may exceed what the
// run did, and never fall short.
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

// compareArrays allows a difference of 1e-5 relative to the largest
// element of the array: the device may contract a*b + c into one
// rounding and sum in another order, which matters most where a sum
// cancels (conv2d's weights have both signs), as package launch
// measures its errors.
func compareArrays(t *testing.T, name string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", name, len(got), len(want))
	}
	scale := 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(float64(w)))
	}
	for i := range want {
		if d := math.Abs(float64(got[i]) - float64(want[i])); !(d <= 1e-5*scale) {
			t.Fatalf("%s[%d] = %g, want %g", name, i, got[i], want[i])
		}
	}
}
