package counts

import "testing"

// The words follow the property names' definitions in the package
// documentation ("Properties"), written out by hand.
func TestDescribe(t *testing.T) {
	for prop, want := range map[string]string{
		"global.load.f32.stride=0":     "f32 global loads, uniform (stride 0: every lane the same address)",
		"global.load.f32.stride=1":     "f32 global loads, stride 1 (coalesced)",
		"global.store.f64.stride=1/3":  "f64 global stores, stride 3, 1 of every 3 elements used",
		"global.load.f32.stride=2/2":   "f32 global loads, stride 2, 2 of every 2 elements used",
		"global.load.f32.stride=1/>4":  "f32 global loads, stride over 4 (uncoalesced), about 1 of every 4 elements used",
		"global.store.f32.stride=k/>4": "f32 global stores, stride over 4 (uncoalesced), about k of every 4 elements used (k from the footprint)",
		"global.load.i32.stride=k/4":   "i32 global loads, stride 4, k of every 4 elements used (k from the footprint)",
		"global.minldst.f32.stride=1":  "min(f32 global loads, stores), a correction term, stride 1 (coalesced)",
		"local.load.f32":               "f32 local-memory loads",
		"local.store.f16":              "half-precision (f16, converted to and from f32) local-memory stores",
		"global.ldg.f16.stride=1":      "half-precision (f16, converted to and from f32) global loads of readonly arrays (the read-only data path: __ldg, const restrict), stride 1 (coalesced)",
		"global.load.indirect.b8":      "8-bit integer global-memory loads at subscripts read from data (gathers and scatters, x[col[j]])",
		"flop.f64.special":             "f64 special functions (sqrt, rsqrt, sin, ...)",
		"int.i32.shift":                "i32 shifts",
		"int.i64.special":              "i64 max and min (reductions, one per point)",
		"sync.barrier":                 "barriers, once per work-item that meets one",
		"launch.groups":                "work-groups launched",
		"launch.const":                 "kernel launches (the constant 1)",
		"global.load.f32.stride=5/9":   "not a property uniperf counts",
		"global.load.f32.stride=/2":    "not a property uniperf counts",
		"flop.f32.sqrtish":             "not a property uniperf counts",
		"":                             "not a property uniperf counts",
	} {
		if got := Describe(prop); got != want {
			t.Errorf("Describe(%q) = %q, want %q", prop, got, want)
		}
	}
}
