package cimport

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/counts/half"
)

// importOwn imports testdata/own/file with the launch of its uniperf:
// comment.
func importOwn(t *testing.T, file string, flags ...string) *counts.Kernel {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "own", file))
	if err != nil {
		t.Fatal(err)
	}
	opts, err := ParseFlags(flags)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Import(file, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(file+".knl", r.Knl, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	return k
}

// The CUDA C and OpenCL C of one kernel of halves import as f16 arrays:
// counted by hand per element, x loaded once (through the read-only
// path in CUDA C, where it is const __restrict__ and read with __ldg), y
// loaded and stored as halves, z stored as a float, one f32
// multiplication and one addition; in groups of 64. In the interpreter
// they compute what Go computes with float32 arithmetic and stores
// rounded to halves.
func TestHalfImports(t *testing.T) {
	flags := []string{"--local", "64", "--global", "n", "--array", "x=n", "--array", "y=n", "--array", "z=n"}
	for _, c := range []struct{ file, xload string }{
		{"halves.cu", "global.ldg.f16.stride=1"},
		{"halves.cl", "global.load.f16.stride=1"},
	} {
		t.Run(c.file, func(t *testing.T) {
			k := importOwn(t, c.file, flags...)
			for _, name := range []string{"x", "y"} {
				if a := k.Array(name); a == nil || a.DType != counts.F16 {
					t.Fatalf("array %s: %v, want f16", name, a)
				}
			}
			cs, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int64{300, 1000} {
				got, err := cs.Eval(map[string]int64{"n": n})
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{c.xload: n, "global.load.f16.stride=1": n, "global.store.f16.stride=1": n,
					"global.minldst.f16.stride=1": n, "global.store.f32.stride=1": n, "flop.f32.mul": n, "flop.f32.add": n,
					"launch.groups": (n + 63) / 64, "launch.const": 1}
				if c.xload == "global.load.f16.stride=1" {
					want[c.xload] = 2 * n
				}
				if !maps.Equal(nonzero(got), want) {
					t.Errorf("n=%d: counts\n%v\nwant\n%v", n, nonzero(got), want)
				}
			}
			const n = 300
			x, y, z := make([]half.Float, n), make([]half.Float, n), make([]float32, n)
			for i := range n {
				x[i] = half.FromFloat64(float64(i)*0.731 - 100)
				y[i] = half.FromFloat64(float64(i%17) / 3)
			}
			y0 := append([]half.Float(nil), y...)
			if _, err := counts.Run(k, map[string]int64{"n": n}, map[string]any{"x": x, "y": y, "z": z}, nil); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				v := x[i].Float32()
				wy := half.FromFloat32(float32(2*v) + y0[i].Float32()) // the conversion forbids a fused multiply-add
				if y[i] != wy || z[i] != v {
					t.Errorf("element %d: y %#04x z %g, want %#04x %g", i, uint16(y[i]), z[i], uint16(wy), v)
				}
			}
		})
	}
}

// Half arithmetic, a half in a variable or argument and a rounding
// outside a store are refused with what to write.
func TestHalfImportRefusals(t *testing.T) {
	const head = "__global__ void k(__half *x, __half *y, int n) {\n int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	for _, c := range []struct{ src, msg string }{
		{head + " y[i] = x[i] * x[i];\n}\n", "* of __half values is half arithmetic; convert them with __half2float first"},
		{head + " y[i] += __float2half(1.0f);\n}\n", "+= on a __half element is half arithmetic"},
		{head + " __half h = x[i];\n y[i] = h;\n}\n", "h: a __half variable; declare it float and convert with __half2float"},
		{head + " float v = __half2float(__float2half(2.0f * __half2float(x[i])));\n y[i] = v;\n}\n", "__float2half rounds a value to a half outside a store into a __half array"},
		{"__global__ void k(__half *x, __half s, int n) {\n int i = blockIdx.x * blockDim.x + threadIdx.x;\n x[i] = s;\n}\n", "argument s: a __half argument; pass a float"},
	} {
		opts, err := ParseFlags([]string{"--local", "64", "--global", "n", "--array", "x=n", "--array", "y=n"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Import("k.cu", []byte(c.src), opts)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.msg)
		}
	}
}
