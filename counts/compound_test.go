package counts

import (
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
