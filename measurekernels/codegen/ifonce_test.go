package codegen_test

import (
	"slices"
	"testing"
)

// An if block that reassigns what its condition reads tests the
// condition once, as C does (counts' TestIfBlockTestsOnce): the OpenCL C
// computes it into ifcond_LINE_COL before the block, and PoCL leaves
// what C's if / else if leaves.
func TestIfBlockTestsOnceOnPoCL(t *testing.T) {
	k := parseSrc(t, `kernel flags
domain [n] -> { [i] : 0 <= i < n }
array m i32 [n]
array a i32 [n]
array b i32 [n]
array y i32 [n]
split i 16 i_out i_in
tag i_out g.0, i_in l.0
if m[i] > 0
  a[i] = 1
  m[i] = 0
  b[i] = 2
elif m[i] < 0
  y[i] = 3
  m[i] = 5
  a[i] = 4
end
`, nil)
	const n = 37
	m := make([]int32, n)
	for i := range m {
		m[i] = int32(i%3 - 1)
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"m": slices.Clone(m),
		"a": make([]int32, n), "b": make([]int32, n), "y": make([]int32, n)})
	gm, ga, gb, gy := out["m"].([]int32), out["a"].([]int32), out["b"].([]int32), out["y"].([]int32)
	for i, v := range m {
		wm, wa, wb, wy := v, int32(0), int32(0), int32(0)
		switch {
		case v > 0:
			wm, wa, wb = 0, 1, 2
		case v < 0:
			wm, wa, wy = 5, 4, 3
		}
		if gm[i] != wm || ga[i] != wa || gb[i] != wb || gy[i] != wy {
			t.Errorf("i = %d (m = %d): m, a, b, y = %d %d %d %d, want %d %d %d %d", i, v, gm[i], ga[i], gb[i], gy[i], wm, wa, wb, wy)
		}
	}
}

// If blocks on affine conditions (counts' TestIfBlockAffineOnce) test
// their conditions once, through ifcond_LINE_COL, and PoCL leaves what
// C's ifs leave, in closed form: the last block that holds at i wins.
func TestIfBlockAffineOnceOnPoCL(t *testing.T) {
	const n, m = 37, 5
	for _, lx := range []int64{16, 5} {
		k := langKernel(t, "ifonce", consts{"LX": lx})
		a, b, c := make([]int32, n), make([]int32, n), make([]int32, n*m)
		for _, s := range [][]int32{a, b, c} {
			for i := range s {
				s[i] = -1
			}
		}
		out := runOnPoCL(t, k, map[string]int64{"n": n, "m": m}, map[string]any{"a": a, "b": b, "c": c})
		ga, gb, gc := out["a"].([]int32), out["b"].([]int32), out["c"].([]int32)
		for i := range int32(n) {
			wa, wb := int32(-1), int32(-1)
			switch {
			case 2 <= i && i < 2*m:
				wa, wb = 7, 8
			case i%3 == 0:
				wa, wb = 5, -1
				if i+1 < n {
					wb = 2
				}
			default:
				wa, wb = -1, 6
				if i+1 < n {
					wa = 3
				}
			}
			if ga[i] != wa || gb[i] != wb {
				t.Errorf("LX %d, i = %d: a, b = %d, %d, want %d, %d", lx, i, ga[i], gb[i], wa, wb)
			}
			for kk := range int32(m) {
				want := int32(-1)
				if 2*i < n {
					want = kk
				}
				if got := gc[i*m+kk]; got != want {
					t.Errorf("LX %d: c[%d, %d] = %d, want %d", lx, i, kk, got, want)
				}
			}
		}
	}
}
