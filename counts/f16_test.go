package counts

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts/half"
)

// testdata/lang/halfstore.knl counted by hand, per element: f16 loads of a in
// t's instruction, five in x's (a[i]*a[i] and the sum's three) and one
// in a's; f16 stores of h, g and a; x's f32 load and store, d's f64
// load; f32 multiplications in t's and x's, f32 additions in h's, x's
// (one and the sum's three) and a's; g's f64 multiplication; t's store
// and load in local memory at f16; no f16 operation.
func TestHalfHandCounts(t *testing.T) {
	_, counted := countedLang(t, "halfstore")
	for _, n := range []int64{37, 1000, 16} {
		got, err := counted.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		groups := (n + 15) / 16
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			compareProps(t, got, map[string]int64{
				"global.load.f16.stride=1": 7 * n, "global.store.f16.stride=1": 3 * n, "global.minldst.f16.stride=1": 3 * n,
				"global.load.f32.stride=1": n, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
				"global.load.f64.stride=1": n,
				"flop.f32.mul":             2 * n, "flop.f32.add": 6 * n, "flop.f64.mul": n,
				"local.load.f16": n, "local.store.f16": n, "sync.barrier": 16 * groups,
				"launch.groups": groups, "launch.const": 1,
			})
		})
	}
}

// The interpreter computes what C computes with halves as storage: the
// loads exact, arithmetic in f32 (f64 for g), every store rounded to the
// nearest half, the local one included. Go's float32 arithmetic and the
// half package's rounding, tested on its own, are the oracle; two stores
// are checked against bit patterns derived by hand as well.
func TestHalfRun(t *testing.T) {
	k := langKernel(t, "halfstore", nil)
	const n = 40
	a, x, d := make([]half.Float, n), make([]float32, n), make([]float64, n)
	for i := range n {
		a[i] = half.FromFloat64(float64(i)*0.37 - 7.1)
		x[i] = float32(i)*1.3e-3 + 0.1
		d[i] = float64(i)*1000.5 - 3.25
	}
	a[0] = half.FromFloat64(1.0 / 3) // 0x3555
	x[0] = 0
	d[0] = 1 + 0x1p-11 + 0x1p-40 // just above a tie: g is 0x4001, where rounding through f32 would give 0x4000
	a[1] = 0x7bff                // 65504: a[i]*3 overflows to infinity in t, and a + 1 rounds back to 65504
	a0, x0 := append([]half.Float(nil), a...), append([]float32(nil), x...)
	h, g := make([]half.Float, n), make([]half.Float, n)
	if _, err := Run(k, map[string]int64{"n": n}, map[string]any{"a": a, "x": x, "d": d, "h": h, "g": g}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		ai := a0[i].Float32()
		ti := half.FromFloat32(ai * 3).Float32()
		wh := half.FromFloat32(ti + x0[i])
		wx := float32(ai*ai) + (ai + ai + ai) // the conversion forbids a fused multiply-add
		wg := half.FromFloat64(d[i] * 2)
		wa := half.FromFloat32(ai + 1)
		if h[i] != wh || x[i] != wx || g[i] != wg || a[i] != wa {
			t.Errorf("element %d: h %#04x x %g g %#04x a %#04x, want %#04x %g %#04x %#04x", i, uint16(h[i]), x[i], uint16(g[i]), uint16(a[i]), uint16(wh), wx, uint16(wg), uint16(wa))
		}
	}
	// 1/3 as a half is 0x3555 = 1365/4096; times 3, 4095/4096 rounds to
	// 1 (0x3c00); h = 1 + 0 and a = 1/3 + 1 = 5461/4096, 0x3d55.
	if h[0] != 0x3c00 || g[0] != 0x4001 || a[0] != 0x3d55 || !math.IsInf(float64(h[1].Float32()), 1) || a[1] != 0x7bff {
		t.Errorf("hand-derived: h[0] %#04x (want 0x3c00), g[0] %#04x (0x4001), a[0] %#04x (0x3d55), h[1] %g (+Inf), a[1] %#04x (0x7bff)",
			uint16(h[0]), uint16(g[0]), uint16(a[0]), h[1].Float32(), uint16(a[1]))
	}
}

// What would hold a half in registers is half arithmetic, refused with
// what to write instead; so is an atomic on an f16 array, and C's name
// half for the type.
func TestHalfErrors(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray h f16 [n]\narray x f32 [n]\n"
	for _, c := range []struct{ src, msg string }{
		{head + "scalar s f16\n", "a scalar argument of type f16: declare it f32 (f16 is a storage type for global and local arrays"},
		{head + "private p f16 [4]\n", "a private array of type f16: declare it f32"},
		{head + "<f16> q = h[i]\nx[i] = q\n", "a temporary of type f16: declare it f32"},
		{head + "x[i] = (half)x[i]\n", "a cast to half: store the value into an f16 array, which rounds it, or compute in f32"},
		{head + "x[i] = (f16)x[i]\n", "a cast to f16"},
		{head + "atomic_add(h[i], 1)\n", "atomic_add adds f32, i32 or u32 values, and h is f16"},
		{head + "array q half [n]\n", "half: write f16, the half-precision storage type"},
		{head + "array q __half [n]\n", "__half: write f16"},
		{head + "<half> q = 1.0\n", "half: write f16"},
	} {
		_, err := ParseKernel("k.knl", []byte(c.src), nil)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.msg)
		}
	}
}

// A half loaded into a temporary, a function's argument or a condition
// is an f32 value: "<> q = h[i] * 2" is an f32 multiplication into an
// f32 temporary, sqrt(h[i]) an f32 square root and "if h[i]" compares
// in f32. Counted by hand per element: three f16 loads, one f32 each of
// mul, special, add, and an f32 store, under h[i] != 0; the
// interpreter's values against Go's float32 arithmetic.
func TestHalfPromotes(t *testing.T) {
	src := "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray h f16 [n]\narray x f32 [n]\n" +
		"<> q = h[i] * 2\nif h[i]: x[i] = sqrt(h[i]) + q\n"
	k, err := ParseKernel("k.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if q := k.arrayIndex["q"]; q == nil || q.DType != F32 {
		t.Fatalf("temporary q: %v, want an f32 one", q)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(map[string]int64{"n": 10})
	if err != nil {
		t.Fatal(err)
	}
	compareProps(t, got, map[string]int64{"global.load.f16.stride=0": 30, "global.store.f32.stride=0": 10,
		"flop.f32.mul": 10, "flop.f32.special": 10, "flop.f32.add": 10, "launch.groups": 1, "launch.const": 1})
	h, x := make([]half.Float, 10), make([]float32, 10)
	for i := range h {
		h[i] = half.FromFloat64(float64(i%3) * 1.1)
		x[i] = -1
	}
	if _, err := Run(k, map[string]int64{"n": 10}, map[string]any{"h": h, "x": x}, nil); err != nil {
		t.Fatal(err)
	}
	for i, v := range h {
		want := float32(-1)
		if f := v.Float32(); f != 0 {
			want = float32(math.Sqrt(float64(f))) + f*2
		}
		if x[i] != want {
			t.Errorf("x[%d] = %g, want %g", i, x[i], want)
		}
	}
}
