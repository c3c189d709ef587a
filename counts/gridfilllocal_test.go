package counts

import "testing"

// TestCountGridFillLocal checks grid_fill_local at sizes far beyond
// enumeration against counts derived by hand from its source: per
// work-item, the store t[l] = l (one f32 local store, the conversion
// free), one barrier, x = 0.5f (nothing), nk steps x = rsqrt(x + t[(l +
// k) mod LX]) (one f32 local load, one addition, one special function
// each, the subscript's arithmetic uncounted) and the store of x (one
// stride-1 f32 global store); ng groups of LX. The loads of a warp read
// consecutive words modulo LX, a multiple of 32 here: no bank conflicts
// (no local.f32.conflict=D property).
func TestCountGridFillLocal(t *testing.T) {
	for _, lx := range []int64{64, 256, 1024} {
		for _, p := range []struct{ ng, nk int64 }{{1, 1}, {1, 1024}, {2048, 1024}, {37, 5000}} {
			w := p.ng * lx
			want := map[string]int64{
				"local.store.f32":           w,
				"sync.barrier":              w,
				"local.load.f32":            w * p.nk,
				"flop.f32.add":              w * p.nk,
				"flop.f32.special":          w * p.nk,
				"global.store.f32.stride=1": w,
				"launch.groups":             p.ng,
				"launch.const":              1,
			}
			_, c := countedLibraryKernel(t, "grid_fill_local", map[string]int64{"LX": lx})
			got, err := c.Eval(map[string]int64{"ng": p.ng, "nk": p.nk})
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, got, want)
		}
	}
}
