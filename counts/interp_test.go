package counts_test

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

func run(t testing.TB, k *counts.Kernel, params map[string]int64, arrays map[string]any) *counts.Tally {
	t.Helper()
	tl, err := counts.Run(k, params, arrays, nil)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// checkTotals compares a tally with hand-derived totals; every non-zero
// total must be listed.
func checkTotals(t *testing.T, tl *counts.Tally, want map[string]int64) {
	t.Helper()
	got := tl.Totals()
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s = %d, want %d", name, got[name], w)
		}
	}
	for name, g := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected %s = %d", name, g)
		}
	}
}

// TestInterpBasicOps follows loopy's basic statistics case: per point,
// c = a*b/3.0f + a does one f32 mul, div and add with three loads (loopy
// types 3.0 by numpy's rules, as f32 beside f32 values; C as a double); the
// second instruction does one f64 mul on n*m points. Negation and the
// subscript k+1 cost nothing.
func TestInterpBasicOps(t *testing.T) {
	k := mustParse(t, `kernel basic
domain [n, m, l] -> { [i, k, j] : 0 <= i < n and 0 <= k < m and 0 <= j < l }
array a f32 [n, l, m]
array b f32 [n, l, m]
array c f32 [n, l, m]
array g f64 [n, m]
array h f64 [n, m + 1]
array e f64 [n, m + 1]
c[i, j, k] = a[i, j, k]*b[i, j, k]/3.0f + a[i, j, k]
e[i, k + 1] = -g[i, k]*h[i, k + 1]
`)
	n, m, l := int64(3), int64(4), int64(5)
	a, b, c := make([]float32, n*l*m), make([]float32, n*l*m), make([]float32, n*l*m)
	g, h, e := make([]float64, n*m), make([]float64, n*(m+1)), make([]float64, n*(m+1))
	for i := range a {
		a[i], b[i] = float32(i), float32(2*i+1)
	}
	for i := range g {
		g[i] = float64(i) + 0.5
	}
	for i := range h {
		h[i] = float64(i)
	}
	tl := run(t, k, map[string]int64{"n": n, "m": m, "l": l}, map[string]any{"a": a, "b": b, "c": c, "g": g, "h": h, "e": e})
	nml, nm := n*m*l, n*m
	checkTotals(t, tl, map[string]int64{
		"flop.f32.mul": nml, "flop.f32.div": nml, "flop.f32.add": nml, "flop.f64.mul": nm,
		"global.load.f32": 3 * nml, "global.store.f32": nml, "global.load.f64": 2 * nm, "global.store.f64": nm,
		"launch.groups": 1, "launch.const": 1,
	})
	for i := range c {
		if want := float32(float32(a[i]*b[i])/3) + a[i]; c[i] != want {
			t.Fatalf("c[%d] = %v, want %v", i, c[i], want)
		}
	}
	for i := range n {
		for kk := range m {
			if got, want := e[i*(m+1)+kk+1], -g[i*m+kk]*h[i*(m+1)+kk+1]; got != want {
				t.Fatalf("e[%d, %d] = %v, want %v", i, kk+1, got, want)
			}
		}
	}
}

// TestInterpSpecialOps: (1+g)**(1+h) + rsqrt(g)*sin(g) on f64 does three
// adds, one pow, one mul and two special functions per point.
func TestInterpSpecialOps(t *testing.T) {
	k := mustParse(t, `kernel special
domain [n, m] -> { [i, k] : 0 <= i < n and 0 <= k < m }
array g f64 [n, m]
array h f64 [n, m + 1]
array e f64 [n, m]
array x f32 [n, m]
e[i, k] = (1 + g[i, k])**(1 + h[i, k + 1]) + rsqrt(g[i, k])*sin(g[i, k])
x[i, k] = exp(x[i, k]) + log(x[i, k]) + sqrt(x[i, k]) + cos(x[i, k]) + fabs(x[i, k]) + fmin(x[i, k], 1) + fmax(x[i, k], 2)
`)
	n, m := int64(2), int64(3)
	g, h, e := make([]float64, n*m), make([]float64, n*(m+1)), make([]float64, n*m)
	x := make([]float32, n*m)
	for i := range g {
		g[i] = float64(i+1) / 4
		x[i] = float32(i+1) / 8
	}
	x0 := append([]float32(nil), x...)
	for i := range h {
		h[i] = float64(i) / 8
	}
	tl := run(t, k, map[string]int64{"n": n, "m": m}, map[string]any{"g": g, "h": h, "e": e, "x": x})
	nm := n * m
	checkTotals(t, tl, map[string]int64{
		"flop.f64.add": 3 * nm, "flop.f64.pow": nm, "flop.f64.mul": nm, "flop.f64.special": 2 * nm,
		"flop.f32.exp": nm, "flop.f32.special": 6 * nm, "flop.f32.add": 6 * nm,
		"global.load.f64": 4 * nm, "global.store.f64": nm, "global.load.f32": 7 * nm, "global.store.f32": nm,
		"launch.groups": 1, "launch.const": 1,
	})
	for i := range n {
		for kk := range m {
			gv, hv := g[i*m+kk], h[i*(m+1)+kk+1]
			want := math.Pow(1+gv, 1+hv) + 1/math.Sqrt(gv)*math.Sin(gv)
			if got := e[i*m+kk]; math.Abs(got-want) > 1e-12 {
				t.Errorf("e[%d, %d] = %v, want %v", i, kk, got, want)
			}
			v := float64(x0[i*m+kk])
			wx := math.Exp(v) + math.Log(v) + math.Sqrt(v) + math.Cos(v) + math.Abs(v) + math.Min(v, 1) + math.Max(v, 2)
			if got := float64(x[i*m+kk]); math.Abs(got-wx) > 1e-5 {
				t.Errorf("x[%d, %d] = %v, want %v", i, kk, got, wx)
			}
		}
	}
}

// TestInterpTriangle is loopy's triangular case: i < j with 0 <= i < n and
// 0 <= j < m executes on m(m-1)/2 points when m <= n.
func TestInterpTriangle(t *testing.T) {
	k := mustParse(t, `kernel tri
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and i < j }
array a f64 [n, m]
array b f64 [n, m]
a[i, j] = b[i, j]*2
`)
	n, m := int64(20), int64(13)
	a, b := make([]float64, n*m), make([]float64, n*m)
	for i := range b {
		b[i] = float64(i)
	}
	tl := run(t, k, map[string]int64{"n": n, "m": m}, map[string]any{"a": a, "b": b})
	checkTotals(t, tl, map[string]int64{"flop.f64.mul": 78, "global.load.f64": 78, "global.store.f64": 78, "launch.groups": 1, "launch.const": 1})
	for i := range n {
		for j := range m {
			want := 0.0
			if i < j {
				want = 2 * b[i*m+j]
			}
			if a[i*m+j] != want {
				t.Errorf("a[%d, %d] = %v, want %v", i, j, a[i*m+j], want)
			}
		}
	}
}

// TestInterpReductions checks the four reductions, integer and float,
// over a triangular inner domain j <= i.
func TestInterpReductions(t *testing.T) {
	k := mustParse(t, `kernel red
domain [n] -> { [i] : 0 <= i < n }
domain { [j] : 0 <= j <= i }
array x f64 [n]
array v i32 [n]
array s f64 [n]
array p f64 [n]
array mx f64 [n]
array mn i32 [n]
array cnt i64 [n]
s[i] = sum(j, x[j])
p[i] = product(j, x[j])
mx[i] = max(j, x[j])
mn[i] = min(j, v[j])
cnt[i] = sum(j, 1)
`)
	n := int64(6)
	x, v := []float64{0.5, -2, 3, 1.5, -0.25, 4}, []int32{5, -1, 7, -9, 2, 0}
	s, p, mx, mn, cnt := make([]float64, n), make([]float64, n), make([]float64, n), make([]int32, n), make([]int64, n)
	tl := run(t, k, map[string]int64{"n": n}, map[string]any{"x": x, "v": v, "s": s, "p": p, "mx": mx, "mn": mn, "cnt": cnt})
	tri := n * (n + 1) / 2
	checkTotals(t, tl, map[string]int64{
		"flop.f64.add": tri, "flop.f64.mul": tri, "flop.f64.special": tri, "int.i32.special": tri, "int.i64.add": tri,
		"global.load.f64": 3 * tri, "global.load.i32": tri, "global.store.f64": 3 * n, "global.store.i32": n, "global.store.i64": n,
		"launch.groups": 1, "launch.const": 1,
	})
	ws, wp, wmx, wmn := 0.0, 1.0, math.Inf(-1), int32(math.MaxInt32)
	for i := range n {
		ws += x[i]
		wp *= x[i]
		wmx = max(wmx, x[i])
		wmn = min(wmn, v[i])
		if s[i] != ws || p[i] != wp || mx[i] != wmx || mn[i] != wmn || cnt[i] != i+1 {
			t.Errorf("i=%d: sum %v product %v max %v min %v count %d, want %v %v %v %v %d", i, s[i], p[i], mx[i], mn[i], cnt[i], ws, wp, wmx, wmn, i+1)
		}
	}
}

// TestInterpRedundantWork checks loopy's count_redundant_work semantics:
// an instruction that does not use a parallel axis runs on every
// work-item along it; one that does is guarded where the split does not
// divide.
func TestInterpRedundantWork(t *testing.T) {
	k := mustParse(t, `kernel red
domain [n] -> { [i, j] : 0 <= i < n and 0 <= j < 3 }
array x f32 [n]
array y f32 [n]
array z f32 [n, 3]
split i 4 io ii
tag ii l.0, io g.0, j l.1
x[i] = y[i] + 1
z[i, j] = 2*y[i]
`)
	n := int64(10) // 3 groups of 4x3 work-items, 2 idle along l.0 in the last
	x, y, z := make([]float32, n), make([]float32, n), make([]float32, 3*n)
	tl := run(t, k, map[string]int64{"n": n}, map[string]any{"x": x, "y": y, "z": z})
	// x[i] runs for each i on each of the 3 work-items along l.1.
	checkTotals(t, tl, map[string]int64{
		"flop.f32.add": 3 * n, "flop.f32.mul": 3 * n, "global.load.f32": 6 * n, "global.store.f32": 6 * n,
		"launch.groups": 3, "launch.const": 1,
	})
	global, local, err := k.Launch(map[string]int64{"n": n})
	if err != nil || global != [3]int64{12, 3, 1} || local != [3]int64{4, 3, 1} {
		t.Errorf("Launch = %v, %v, %v", global, local, err)
	}
}

// TestInterpBarriersAndTiles is loopy's parallel matmul barrier case: two
// barriers per k tile, encountered by every work-item; prefetched tiles
// give 2nml local loads and each element of a and b is fetched once per
// group row or column.
func TestInterpBarriersAndTiles(t *testing.T) {
	k := loadLibraryKernel(t, "matmul_tiled", map[string]int64{"LX": 4, "LY": 4})
	n, m, l := int64(8), int64(12), int64(4)
	a, b, c := make([]float32, n*m), make([]float32, m*l), make([]float32, n*l)
	tl := run(t, k, map[string]int64{"n": n, "m": m, "ell": l}, map[string]any{"a": a, "b": b, "c": c})
	groups := (n / 4) * (l / 4)
	checkTotals(t, tl, map[string]int64{
		"sync.barrier":     2 * (m / 4) * groups * 16,
		"global.load.f32":  n*m*(l/4) + m*l*(n/4),
		"global.store.f32": n * l,
		"local.store.f32":  n*m*(l/4) + m*l*(n/4),
		"local.load.f32":   2 * n * m * l,
		"flop.f32.mul":     n * m * l,
		"flop.f32.add":     n*m*l + n*l*(m/4),
		"launch.groups":    groups, "launch.const": 1,
	})
}

func TestInterpIntegerOps(t *testing.T) {
	k := mustParse(t, `kernel ints
domain [n] -> { [i] : 0 <= i < n }
array o i32 [n]
array q i64 [n]
o[i] = 2*i + 1 - (i - 7) // 3 + (i - 7) % 3
q[i] = o[i]*o[i]
`)
	n := int64(9)
	o, q := make([]int32, n), make([]int64, n)
	tl := run(t, k, map[string]int64{"n": n}, map[string]any{"o": o, "q": q})
	checkTotals(t, tl, map[string]int64{
		"int.i32.mul": 2 * n, "int.i32.add": 5 * n, "int.i32.div": 2 * n,
		"global.load.i32": 2 * n, "global.store.i32": n, "global.store.i64": n, "launch.groups": 1, "launch.const": 1,
	})
	for i := range n {
		fd := (i - 7) / 3
		if (i-7)%3 != 0 && i < 7 {
			fd-- // floor division rounds down
		}
		want := 2*i + 1 - fd + (i - 7 - 3*fd)
		if int64(o[i]) != want || q[i] != int64(o[i])*int64(o[i]) {
			t.Errorf("i=%d: o=%d q=%d, want %d", i, o[i], q[i], want)
		}
	}
}

// TestInterpConditions checks the values and tallies of conditions,
// conditional values, predicates and bitwise operators against a direct
// computation: if() evaluates one branch (a[i - 1] is never read at
// i = 0), select() both, and a predicate the right-hand side only where
// it holds.
func TestInterpConditions(t *testing.T) {
	k := mustParse(t, `kernel c
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array b f32 [n]
array o i32 [n]
array q i64 [n]
b[i] = if(i > 0, a[i - 1], 7.0f) + select(a[i], -a[i], i % 2 == 0)
if a[i] > 2 or i == 3: b[i] = b[i] % 1.5f
o[i] = (i ^ 5) & ~(i << 2) | i >> 1
q[i] = if(not (i < 2 and o[i] > 4), q[i] << 3, -q[i] >> 1)
`)
	n := int64(6)
	a := []float32{0.5, 2.5, 1, 3, -4, 2.25}
	b := make([]float32, n)
	o := make([]int32, n)
	q := []int64{-5, 3, 1 << 40, -7, 9, 11}
	q0 := slices.Clone(q)
	tl := run(t, k, map[string]int64{"n": n}, map[string]any{"a": a, "b": b, "o": o, "q": q})
	var fmods int64
	for i := range n {
		want := float32(7)
		if i > 0 {
			want = a[i-1]
		}
		if i%2 == 0 {
			want += -a[i]
		} else {
			want += a[i]
		}
		if a[i] > 2 || i == 3 {
			want = float32(math.Mod(float64(want), 1.5))
			fmods++
		}
		if b[i] != want {
			t.Errorf("b[%d] = %v, want %v", i, b[i], want)
		}
		if w := int32((i^5)&^(i<<2) | i>>1); o[i] != w {
			t.Errorf("o[%d] = %d, want %d", i, o[i], w)
		}
		wq := q0[i] << 3
		if i < 2 && o[i] > 4 {
			wq = -q0[i] >> 1
		}
		if q[i] != wq {
			t.Errorf("q[%d] = %d, want %d", i, q[i], wq)
		}
	}
	checkTotals(t, tl, map[string]int64{
		"global.load.f32": (n - 1) + n + n + n + fmods, "global.store.f32": n + fmods, "flop.f32.add": n, "flop.f32.fmod": fmods,
		// i % 2 is an AND with 1: a bitwise operation, not a division.
		"int.i32.bitwise": 5 * n, "int.i32.shift": 2 * n, "int.i64.shift": n,
		"global.load.i32": 2, "global.load.i64": n, "global.store.i32": n, "global.store.i64": n,
		"launch.groups": 1, "launch.const": 1,
	})
}

// TestRunErrors checks that bad runs name the place and the cause.
func TestRunErrors(t *testing.T) {
	k := mustParse(t, `kernel bad
domain [n] -> { [i] : 0 <= i < n }
assume n >= 2
array a f32 [n]
array o i32 [n]
a[i + 1] = 1 {id=shift}
`)
	a, o := make([]float32, 4), make([]int32, 4)
	cases := []struct {
		params map[string]int64
		arrays map[string]any
		msg    string
	}{
		{map[string]int64{"n": 4}, map[string]any{"a": a, "o": o}, "test.knl:6:1: instruction shift: a[4] is out of bounds for shape [4]"},
		{map[string]int64{}, map[string]any{"a": a, "o": o}, "missing parameter n"},
		{map[string]int64{"n": 4, "m": 1}, map[string]any{"a": a, "o": o}, "unknown parameter m"},
		{map[string]int64{"n": 1}, map[string]any{"a": a[:1], "o": o[:1]}, "violate the assumptions n >= 2"},
		{map[string]int64{"n": 4}, map[string]any{"a": a}, "no data for global array o"},
		{map[string]int64{"n": 4}, map[string]any{"a": a[:3], "o": o}, "array a has 4 elements at these parameters, but its data has 3"},
		{map[string]int64{"n": 4}, map[string]any{"a": o, "o": o}, "its data must be a []float32, not []int32"},
		{map[string]int64{"n": 4}, map[string]any{"a": a, "o": o, "z": a}, "data given for z"},
	}
	for _, c := range cases {
		_, err := counts.Run(k, c.params, c.arrays, nil)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("params %v: error %v, want %q", c.params, err, c.msg)
		}
	}
	div := mustParse(t, "kernel d\ndomain [n] -> { [i] : 0 <= i < n }\narray o i32 [n]\no[i] = 7 // (i - 2)\n")
	if _, err := counts.Run(div, map[string]int64{"n": 4}, map[string]any{"o": make([]int32, 4)}, nil); err == nil || !strings.Contains(err.Error(), "integer division by zero") {
		t.Errorf("division by zero: %v", err)
	}
	for src, msg := range map[string]string{
		"o[i] = 1 << (i + 29)":                      "integer overflow in (1 << (i + 29)) (1 << 31)",
		"o[i] = 1 << (i - 1)":                       "shift count -1 out of range for i32 in (1 << (i - 1))",
		"o[i] = select(0, o[i - 1], i > 0)":         "o[-1] is out of bounds for shape [4]",
		"o[i] = if(i > 0, o[i - 1], 0) >> (i + 40)": "shift count 40 out of range for i32",
	} {
		k := mustParse(t, "kernel s\ndomain [n] -> { [i] : 0 <= i < n }\narray o i32 [n]\n"+src+"\n")
		if _, err := counts.Run(k, map[string]int64{"n": 4}, map[string]any{"o": make([]int32, 4)}, nil); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", src, err, msg)
		}
	}
	unb := mustParse(t, "kernel u\ndomain { [i] : i >= 0 }\narray o i32 [4]\no[0] = i\n")
	hint := "; bound i on both sides in its domain (0 <= i < n), as the original's loop or launch does"
	if _, err := counts.Run(unb, nil, map[string]any{"o": make([]int32, 4)}, nil); err == nil || !strings.Contains(err.Error(), "unbounded in iname i (at )"+hint) {
		t.Errorf("unbounded: %v", err)
	}
	if _, err := counts.Count(unb); err == nil || !strings.Contains(err.Error(), "dimension i has no lower or no upper bound for some parameter values"+hint) {
		t.Errorf("unbounded, counted: %v", err)
	}
}

// TestRaceDetection removes the barrier of a prefetching kernel: the
// interpreter must refuse the run rather than hide the race.
func TestRaceDetection(t *testing.T) {
	src := `kernel rev
domain [n] -> { [i] : 0 <= i < n }
assume n mod 4 = 0
array a f32 [n]
array b f32 [n]
local t f32 [4]
split i 4 io ii
tag io g.0, ii l.0
t[ii] = a[i]
barrier
b[i] = t[3 - ii]
`
	a, b := []float32{1, 2, 3, 4, 5, 6, 7, 8}, make([]float32, 8)
	run(t, mustParse(t, src), map[string]int64{"n": 8}, map[string]any{"a": a, "b": b})
	if want := []float32{4, 3, 2, 1, 8, 7, 6, 5}; !equalF32(b, want) {
		t.Errorf("b = %v, want %v", b, want)
	}
	racy := strings.Replace(src, "barrier\n", "", 1)
	_, err := counts.Run(mustParse(t, racy), map[string]int64{"n": 8}, map[string]any{"a": a, "b": b}, nil)
	want := "test.knl:10:1: instruction insn_1: reads t[3], which work-item (3, 0, 0) wrote with no barrier in between: add a barrier between the write and this read (at n=8, group (0, 0, 0), local id (0, 0, 0))"
	if err == nil || err.Error() != want {
		t.Errorf("race reported as %v, want %q", err, want)
	}
	// Overwriting t after the reads, with no barrier between, races too:
	// work-item 3 read t[0], which work-item 0 then overwrites.
	rewrite := src + "t[ii] = 0\n"
	_, err = counts.Run(mustParse(t, rewrite), map[string]int64{"n": 8}, map[string]any{"a": a, "b": b}, nil)
	want = "test.knl:12:1: instruction insn_3: writes t[0], which work-item (3, 0, 0) accessed with no barrier in between: add a barrier between that access and this write (at n=8, group (0, 0, 0), local id (0, 0, 0))"
	if err == nil || err.Error() != want {
		t.Errorf("race reported as %v, want %q", err, want)
	}
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTrace checks the recorded strides and footprints of a stride-2
// kernel against the addresses worked out by hand.
func TestTrace(t *testing.T) {
	k := loadLibraryKernel(t, "vector_scale_add", map[string]int64{"LX": 4, "STRIDE": 2})
	n := int64(13) // 7 work-items touch 0, 2, ..., 12
	x, y, z := make([]float32, n), make([]float32, n), make([]float32, n)
	tl, err := counts.Run(k, map[string]int64{"n": n}, map[string]any{"x": x, "y": y, "z": z}, &counts.RunOptions{Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Sites) != 3 {
		t.Fatalf("%d sites", len(tl.Sites))
	}
	for _, s := range tl.Sites {
		// Adjacent pairs: 3 in the first group of 4, 2 in the second of 3.
		if s.Count != 7 || !maps.Equal(s.Strides, map[int64]int64{2: 5}) {
			t.Errorf("site %+v", *s)
		}
	}
	for _, name := range []string{"x", "y", "z"} {
		fp := tl.Footprints[name]
		if len(fp) != 7 || !fp[0] || !fp[12] || fp[1] {
			t.Errorf("footprint of %s: %v", name, fp)
		}
	}
}

// TestIndexBases checks that a tagged iname whose domain starts above 0
// runs from its least value: work-item q handles i = 2 + q.
func TestIndexBases(t *testing.T) {
	k := mustParse(t, `kernel off
domain [n] -> { [i] : 2 <= i < n }
array a i32 [n]
tag i l.0
a[i] = i
`)
	p := map[string]int64{"n": 7}
	bases, err := k.IndexBases(p)
	if err != nil || bases["i"] != 2 {
		t.Fatalf("bases %v, %v", bases, err)
	}
	global, local, err := k.Launch(p)
	if err != nil || global != [3]int64{5, 1, 1} || local != [3]int64{5, 1, 1} {
		t.Errorf("Launch = %v %v %v", global, local, err)
	}
	a := make([]int32, 7)
	run(t, k, p, map[string]any{"a": a})
	if want := []int32{0, 0, 2, 3, 4, 5, 6}; !slices.Equal(a, want) {
		t.Errorf("a = %v, want %v", a, want)
	}
	gap := mustParse(t, "kernel gap\ndomain [n] -> { [i] : 0 <= i < n and i mod 2 = 0 }\ntag i g.0\n")
	if _, _, err := gap.Launch(p); err == nil || !strings.Contains(err.Error(), "takes 4 values between 0 and 6") {
		t.Errorf("non-contiguous iname: %v", err)
	}
}
