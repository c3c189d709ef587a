package linear

import (
	"math"
	"testing"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// arithIntCounts are arith_int_i32's properties, derived by hand from its
// source: per work-item 7 additions (x0 = i_in + j_in, x0 + 1, x0 + 2,
// x0 + 3 and the sum of the four chains), a bitwise operation (c & 15)
// and a store, and per step of each of the four chains the
// operations of its loop (see the kernel's comment); groups of ly x lx.
func arithIntCounts(n, lx, ly int64, blocks [5]int64) map[string]float64 {
	w := float64(n * n)
	na, nb, nc, nd, ne := float64(blocks[0]), float64(blocks[1]), float64(blocks[2]), float64(blocks[3]), float64(blocks[4])
	return map[string]float64{
		"int.i32.add":               w*32*(2*na+nb+nd+ne) + 7*w,
		"int.i32.mul":               w * 32 * 2 * nb,
		"int.i32.bitwise":           w*32*4*nc + w,
		"int.i32.shift":             w * 32 * (na + 2*nb + nc + nd),
		"int.i32.div":               w * 32 * ne,
		"global.store.f32.stride=1": w,
		"launch.groups":             float64(((n + ly - 1) / ly) * ((n + lx - 1) / lx)),
		"launch.const":              1,
	}
}

var intWeights = map[string]float64{
	"int.i32.add": 3e-13, "int.i32.mul": 9e-13, "int.i32.bitwise": 2e-13, "int.i32.shift": 4e-13, "int.i32.div": 2e-12,
	"global.store.f32.stride=1": 5e-12, "launch.groups": 1e-8, "launch.const": 5e-6,
}

// The rows of the arith_int class as the quick suite measures them (five
// variants, each with one loop K/8 blocks long and the others K/64, K =
// 64 and 256, n = 128 and 256, groups of 16 x 12 and 16 x 16), timed by
// known weights on hand-derived counts, determine every integer weight:
// the fit recovers them, and a jacobi-2d sweep whose bounds guard
// compares with n - 1 gets its guard's 2n^2 - 4n + 2 additions (two per
// work-item that passes i >= 1 and j >= 1, the subtraction of each
// comparison with n - 1) priced at the recovered weight.
func TestArithIntPricesGuards(t *testing.T) {
	tb := &datasets.Table{Meta: datasets.Meta{DeviceName: "dev", Backend: "opencl", Suite: "test", Method: "synthetic"}}
	for v := range 5 {
		for _, k := range []int64{64, 256} {
			for _, n := range []int64{128, 256} {
				for _, ly := range []int64{12, 16} {
					var blocks [5]int64
					for c := range blocks {
						blocks[c] = k / 64
					}
					blocks[v] = k / 8
					secs := 0.0
					for p, c := range arithIntCounts(n, 16, ly, blocks) {
						secs += intWeights[p] * c
					}
					tb.Rows = append(tb.Rows, datasets.Row{
						Device: "dev", Backend: "opencl", Kernel: "arith_int_i32", Class: "arith_int", Role: datasets.RoleMeasurement, Variant: "v",
						Consts:    map[string]int64{"LX": 16, "LY": ly},
						Params:    map[string]int64{"n": n, "na": blocks[0], "nb": blocks[1], "nc": blocks[2], "nd": blocks[3], "ne": blocks[4], "c": 13},
						LocalSize: []int64{16, ly}, GlobalSize: []int64{(n + 15) / 16 * 16, (n + ly - 1) / ly * ly},
						TimeS: secs, RawTimesS: []float64{secs}, RunsKept: 1, Timestamp: time.Unix(0, 0).UTC(), Version: "test",
					})
				}
			}
		}
	}
	c := models.NewCounter(nil)
	w, err := CalibrateTables(c, map[string]*datasets.Table{"t": tb}, Options{Fit: fit.Options{NonNegative: true}})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range intWeights {
		if got, ok := w.Weight(p); !ok || math.Abs(got-want) > 1e-6*want {
			t.Errorf("%s: weight %g, want %g", p, got, want)
		}
	}
	guarded := `kernel jacobi2d_guard
domain [n] -> { [i, j] : 0 <= i < n and 0 <= j < n }
array a f32 [n, n]
array b f32 [n, n]
split j 32 j_out j_in
split i 8 i_out i_in
tag j_in l.0, j_out g.0, i_in l.1, i_out g.1
if i >= 1 and i < n - 1 and j >= 1 and j < n - 1: b[i, j] = 0.2f*(a[i, j] + a[i, j - 1] + a[i, j + 1] + a[i + 1, j] + a[i - 1, j])
`
	src := func(name string) (string, []byte, error) {
		if name == "jacobi2d_guard" {
			return name + ".knl", []byte(guarded), nil
		}
		return models.Library(name)
	}
	w.ZeroMissing = true
	const n = 1000
	_, terms, err := Predict(models.NewCounter(src), w, "jacobi2d_guard", nil, map[string]int64{"n": n})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, term := range terms {
		if term.Property == "int.i32.add" {
			found = true
			count := float64(2*n*n - 4*n + 2)
			if term.Count != count || term.Unweighted || math.Abs(term.Seconds-count*intWeights["int.i32.add"]) > 1e-9*term.Seconds {
				t.Errorf("the guard's additions: %+v, want %g priced at %g s each", term, count, intWeights["int.i32.add"])
			}
		}
	}
	if !found {
		t.Errorf("no int.i32.add term: %+v", terms)
	}
}
