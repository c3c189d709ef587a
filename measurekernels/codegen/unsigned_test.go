package codegen_test

import (
	"math"
	"slices"
	"testing"
)

// u32 on PoCL computes what Go's uint32, C's unsigned int, computes:
// testdata/lang/unsigned.knl at the edges of u32 (0, 2^31 - 1, 2^31,
// 2^32 - 1, values above 4e9) and i32 values of both signs, bit for bit.
func TestUnsignedOnPoCL(t *testing.T) {
	k := langKernel(t, "unsigned", consts{"LX": 16})
	const n, m = 77, 3000000000
	edges := []uint32{0, 1, 5, 6, 7, math.MaxInt32, math.MaxInt32 + 1, math.MaxUint32, math.MaxUint32 - 6, 4000000000, 4000000001, 65535, 65536}
	a, b, s := make([]uint32, n), make([]uint32, n), make([]int32, n)
	for i := range n {
		a[i] = edges[i%len(edges)] + uint32(i/len(edges))*2654435761
		b[i] = edges[(i*5+3)%len(edges)] ^ uint32(i*40503)
		s[i] = int32(uint32(i)*2246822519) >> (i % 7)
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"a": a, "b": b, "s": s, "h": make([]uint32, 8)})
	h := make([]uint32, 8)
	for i := range n {
		tv := a[i]*m + b[i]
		less := int32(0)
		if uint32(s[i]) < a[i] {
			less = 1
		}
		u := max(a[i], b[i]) - min(a[i], 5)
		want := []uint32{tv/7 + a[i]>>31 + ^b[i], a[i]%7 - uint32(s[i]) + b[i]<<3, uint32(less + int32(a[i]/65536)),
			math.Float32bits(float32(a[i]) * 0.5), u*u - uint32(s[i]) + -u}
		got := []uint32{out["q"].([]uint32)[i], out["r"].([]uint32)[i], uint32(out["c"].([]int32)[i]),
			math.Float32bits(out["f"].([]float32)[i]), out["b"].([]uint32)[i]}
		if !slices.Equal(got, want) {
			t.Errorf("element %d (a %d, b %d, s %d): q r c f b = %v, want %v", i, a[i], b[i], s[i], got, want)
		}
		if a[i] > 4000000000 {
			h[a[i]%8]++
		}
	}
	if got := out["h"].([]uint32); !slices.Equal(got, h) || slices.Max(h) == 0 {
		t.Errorf("h = %v, want %v (not all zero)", got, h)
	}
}
