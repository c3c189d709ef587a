package codegen_test

import (
	"math"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
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

// A gather and a scatter-add through u32 index arrays check on PoCL
// against the interpreter with the launch's data: the index arrays get
// valid subscripts (a permutation of 0..n-1, without which the scatter
// races, and bins below 8, the local array's extent included), as i32
// ones do, at sizes where random values would leave the arrays; a local
// u32 histogram adds atomically too.
func TestUnsignedIndicesOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	k := parseSrc(t, `kernel ugather
domain [n] -> { [i] : 0 <= i < n }
domain { [p] : 0 <= p < 8 }
array col u32 [n]
array bin u32 [n]
array x f32 [n]
array y f32 [n]
array z f32 [n]
array h u32 [8]
local lh u32 [8]
split i 4 i_out i_in
tag i_out g.0, i_in l.0, p l.0
lh[p] = 0u
barrier
y[i] = 2.0f*x[col[i]]
z[col[i]] = x[i]
atomic_add(h[bin[i]], if(x[i] > 1.25f, 1, 0))
atomic_add(lh[bin[i]], 3u)
`, nil)
	checkCase(t, dev, k, []params{{"n": 5}, {"n": 1}, {"n": 37}})
}

// u32 reductions (their neutral elements 0u and 4294967295u), sums that
// wrap, shifts whose type is the left operand's (a plain literal's i32,
// a u32's by an i64 count), max and min, and a u32 scalar check on PoCL
// against the interpreter with the launch's data.
func TestUnsignedReductionsOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	k := parseSrc(t, `kernel ureduce
domain [n] -> { [i, j] : 0 <= i < n and 0 <= j < 5 }
scalar m u32 = 4000000000
array a u32 [n]
array k i32 [n]
array s u32 [n]
array x u32 [n]
array y u32 [n]
array c i32 [n]
split i 8 i_out i_in
tag i_out g.0, i_in l.0
s[i] = sum(j, a[i] * 2654435761u + j * m)
x[i] = max(j, a[i] * m - j)
y[i] = min(j, a[i] + j * m)
s[i] = s[i] + max(a[i] << 28, m) - min(a[i] >> 1, (u32)k[i] - 20)
c[i] = (k[i] - 8) >> (a[i] & 7u)
c[i] = c[i] + (-8 >> (a[i] & 7u))
y[i] = y[i] + ((a[i] << (i64)(a[i] & 7u)) // 2u)
`, nil)
	checkCase(t, dev, k, []params{{"n": 37}, {"n": 3}})
}
