package counts

import (
	"fmt"
	"maps"
	"testing"
)

// TestCompoundHandCounts checks testdata/lang/compound.knl against counts
// by enumeration: a compound assignment loads and stores its target and
// performs its operation, and the floating-point conditions on indices
// count where they hold, exactly.
func TestCompoundHandCounts(t *testing.T) {
	c, err := Count(langKernel(t, "compound", nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Bounds()) != 0 {
		t.Errorf("upper bounds %v; the conditions are affine", c.Bounds())
	}
	for _, p := range []map[string]int64{{"n": 4, "m": 10}, {"n": 3, "m": 7}, {"n": 2, "m": 1}} {
		n, m := p["n"], p["m"]
		var eq, lt int64 // per work-item: k == 2*ell, 3*k < 2*ell
		for k := range m {
			for ell := range m {
				if k == 2*ell {
					eq++
				}
				if 3*k < 2*ell {
					lt++
				}
			}
		}
		want := map[string]int64{
			// t[i] = 0; t[i] += a (m times); -= ; *=
			"flop.f32.add": n * (m + 1), "flop.f32.mul": n,
			"global.load.f32": n * (2*m + 2), "global.store.f32": n * (m + 3),
			// u[i] = 1; /= where eq; += where lt; k/2.0 once and
			// k/2.0, ell/3.0 at every (k, ell).
			"flop.f64.div": n * (3*m*m + eq), "flop.f64.add": n * lt,
			"global.load.f64": n * (eq + lt), "global.store.f64": n * (1 + eq + lt),
			"launch.groups": 1, "launch.const": 1,
		}
		got, err := c.Eval(p)
		if err != nil {
			t.Fatal(err)
		}
		got = sumClasses(got)
		for _, m := range []map[string]int64{got, want} {
			maps.DeleteFunc(m, func(_ string, v int64) bool { return v == 0 })
		}
		if !maps.Equal(got, want) {
			t.Errorf("at %v: counts %v, want %v", p, got, want)
		}
	}
}

// TestGlobalTemporary checks that "<> a[i, j, k]" over inames bounded by
// parameters declares a global array [n, m, ell] and counts its traffic
// as a global array's: a store and a load per point, stride ell along j.
func TestGlobalTemporary(t *testing.T) {
	k := langKernel(t, "globaltemp", nil)
	a := k.Array("a")
	if a == nil || a.Space != Global || fmt.Sprint(a.Shape) != "[n m ell]" {
		t.Fatalf("temporary a: %+v, want a global array [n, m, ell]", a)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(map[string]int64{"n": 3, "m": 5, "ell": 7})
	if err != nil {
		t.Fatal(err)
	}
	const pts = 3 * 5 * 7
	want := map[string]int64{"flop.f32.mul": pts, "global.load.f32.stride=4/>4": pts, "global.store.f32.stride=4/>4": 2 * pts,
		"global.minldst.f32.stride=4/>4": pts, "launch.groups": 1, "launch.const": 1}
	maps.DeleteFunc(got, func(_ string, v int64) bool { return v == 0 })
	if !maps.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
}
