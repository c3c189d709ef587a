package codegen_test

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// An instruction that names no index of the launch runs on every
// work-item launched, as loopy's does, not only on those the domain
// keeps: the counts, the reference interpreter and the generated code
// agree on it. Two atomic counters show what PoCL executes: one bumped by
// an instruction that names nothing (every work-item of every group,
// 128*ceil(n/128)), one by the same instruction under {inames=i} or a
// for i block (the n work-items of the domain, C's if (i < n)).
func TestRedundantWorkOnPoCL(t *testing.T) {
	k := parseSrc(t, `kernel redundant
const LX = 128
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f32 [n]
array all i32 [1]
array inside i32 [1]
array block i32 [1]
split i LX i_out i_in
tag i_out g.0, i_in l.0
<f32> s = x[0]*2.0f
atomic_add(all[0], 1)
atomic_add(inside[0], 1) {inames=i}
for i
  atomic_add(block[0], 1)
  y[i] = s*x[i]
end
`, nil)
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{1500, 1536, 300} {
		launched := (n + 127) / 128 * 128
		params := map[string]int64{"n": n}
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(i%7) + 0.5
		}
		data := map[string]any{"x": x, "y": make([]float32, n),
			"all": []int32{0}, "inside": []int32{0}, "block": []int32{0}}
		out := runOnPoCL(t, k, params, data)
		want := map[string]int32{"all": int32(launched), "inside": int32(n), "block": int32(n)}
		for name, w := range want {
			if got := out[name].([]int32)[0]; got != w {
				t.Errorf("n = %d: PoCL's %s counter %d, want %d", n, name, got, w)
			}
		}
		got, err := c.Eval(params)
		if err != nil {
			t.Fatal(err)
		}
		// s = x[0]*2 on every launched work-item, y = s*x on the n.
		if a, l := got["global.atomic.i32.add"], launched+2*n; a != l {
			t.Errorf("n = %d: %d atomics counted, want %d", n, a, l)
		}
		if m, l := got["flop.f32.mul"], launched+n; m != l {
			t.Errorf("n = %d: %d multiplications counted, want %d", n, m, l)
		}
		run := map[string]any{"x": x, "y": make([]float32, n), "all": []int32{0}, "inside": []int32{0}, "block": []int32{0}}
		tl, err := counts.Run(k, params, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, w := range want {
			if g := run[name].([]int32)[0]; g != w {
				t.Errorf("n = %d: the interpreter's %s counter %d, want %d", n, name, g, w)
			}
		}
		if m := tl.Totals()["flop.f32.mul"]; m != launched+n {
			t.Errorf("n = %d: the interpreter multiplied %d times, want %d", n, m, launched+n)
		}
	}
}
