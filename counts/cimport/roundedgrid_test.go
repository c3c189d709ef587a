package cimport

import (
	"maps"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestRoundedGridNamed imports a kernel whose if ... else runs on every
// work-item launched, so that no guard bounds the grid, at sizes that
// the groups of 64 do not divide. Its index is OpenCL's get_global_id,
// which C computes nothing for: the import names the axis by it over the
// rounded grid, and the test i < n costs nothing. CUDA's
// blockIdx.x*blockDim.x + threadIdx.x is a multiplication and an
// addition that C executes once a work-item. The oracle is C's
// arithmetic: L = 64*ceil(n/64) work-items for --global n, 64*(n/64) for
// --groups n/64 (Go's division truncates as C's), n of them storing a
// and the others b; the reference interpreter writes those values and
// executes what is counted.
func TestRoundedGridNamed(t *testing.T) {
	body := "if (i < n) a[i] = 1.0f; else b[i - n] = 2.0f;\n}\n"
	cl := "__kernel void k(__global float *a, __global float *b, int n)\n{\n    int i = get_global_id(0);\n    " + body
	cu := "__global__ void k(float *a, float *b, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    " + body
	for _, c := range []struct {
		file, src, flag, grid, domain string
		launched                      func(n int64) int64
		perItem                       int64 // int.i32.add and int.i32.mul a work-item
	}{
		{"k.cl", cl, "--global", "n", "{ [i] : 0 <= i and i < 64*ceil(n/64) }", func(n int64) int64 { return 64 * ((n + 63) / 64) }, 0},
		{"k.cl", cl, "--groups", "n/64", "{ [i] : 0 <= i and i < 64*floor(n/64) }", func(n int64) int64 { return 64 * (n / 64) }, 0},
		{"k.cu", cu, "--global", "n", "64*bx < n", func(n int64) int64 { return 64 * ((n + 63) / 64) }, 1},
	} {
		opts, err := ParseFlags([]string{"--local", "64", c.flag, c.grid, "--array", "a=n", "--array", "b=64"})
		if err != nil {
			t.Fatal(err)
		}
		cs, r := importCountedWith(t, c.file, c.src, opts)
		if !strings.Contains(string(r.Knl), c.domain) {
			t.Errorf("%s %s %s: no %q in\n%s", c.file, c.flag, c.grid, c.domain, r.Knl)
		}
		for _, n := range []int64{65, 100, 127, 130} {
			size := map[string]int64{"n": n}
			got, err := cs.Eval(size)
			if err != nil {
				t.Fatal(err)
			}
			l := c.launched(n)
			stored := min(n, l)
			want := map[string]int64{"global.store.f32.stride=1": l, "int.i32.add": c.perItem * l, "int.i32.mul": c.perItem * l,
				"launch.const": 1, "launch.groups": l / 64}
			if !maps.Equal(nonzero(got), nonzero(want)) {
				t.Errorf("%s %s %s at n = %d: counts %v, C's launch of %d work-items (%d storing a) makes %v\n%s",
					c.file, c.flag, c.grid, n, nonzero(got), l, stored, nonzero(want), r.Knl)
			}
			a, b := make([]float32, n), make([]float32, 64)
			data := map[string]any{"a": a, "b": b}
			tl, err := counts.Run(cs.Kernel(), size, data, nil)
			if err != nil {
				t.Fatalf("%s at n = %d: %v\n%s", c.file, n, err, r.Knl)
			}
			for j, v := range a {
				if want := map[bool]float32{true: 1, false: 0}[int64(j) < stored]; v != want {
					t.Errorf("%s %s at n = %d: a[%d] = %v, want %v", c.file, c.grid, n, j, v, want)
				}
			}
			for j, v := range b {
				if want := map[bool]float32{true: 2, false: 0}[int64(j) < l-n]; v != want {
					t.Errorf("%s %s at n = %d: b[%d] = %v, want %v", c.file, c.grid, n, j, v, want)
				}
			}
			checkTotals(t, cs, fold(got), tl.Totals())
		}
	}
}
