package counts

import "testing"

// TestCountGridFillLocal checks grid_fill_local at sizes far beyond
// enumeration against counts derived by hand from its source, with M =
// 32. Per group, the stores t[l + LX*q] = l run over the pairs (l, q)
// with 0 <= l < LX, q >= 0 and l + LX*q < M: every j = l + LX*q in
// [0, M) is hit by exactly one pair (l = j mod LX, q = floor(j / LX)),
// so a group makes M f32 local stores (the conversion free) whatever
// LX: with LX = 8 each of the 8 work-items stores 4, with LX >= M the
// work-items l < M store one each and the others none. Per work-item,
// one barrier, x = 0.5f (nothing), nr*M steps x = rsqrt(x + t[k]) (one
// f32 local load, one addition, one special function each; k unrolled,
// the subscript a constant) and the store of x (one stride-1 f32 global
// store); ng groups of LX. No integer operation is counted. The loads of
// a warp read one word, a broadcast, and the stores consecutive words:
// no bank conflicts (no local.f32.conflict=D property).
func TestCountGridFillLocal(t *testing.T) {
	const m = 32
	for _, lx := range []int64{8, 32, 64, 256, 1024} {
		for _, p := range []struct{ ng, nr int64 }{{1, 1}, {1, 32}, {2048, 32}, {37, 5000}} {
			w := p.ng * lx
			want := map[string]int64{
				"local.store.f32":           p.ng * m,
				"sync.barrier":              w,
				"local.load.f32":            w * p.nr * m,
				"flop.f32.add":              w * p.nr * m,
				"flop.f32.special":          w * p.nr * m,
				"global.store.f32.stride=1": w,
				"launch.groups":             p.ng,
				"launch.const":              1,
			}
			_, c := countedLibraryKernel(t, "grid_fill_local", map[string]int64{"LX": lx})
			got, err := c.Eval(map[string]int64{"ng": p.ng, "nr": p.nr})
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, got, want)
		}
	}
}
