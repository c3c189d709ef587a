package counts

import "testing"

// TestCountArithInt checks the integer-arithmetic kernels at sizes far
// beyond enumeration against counts derived by hand from their source:
// per work-item, the set-up's x0 = i_in + j_in and m = c & 15 (i32
// whatever the chains' type) and x0 + 1, x0 + 2, x0 + 3 (3 adds of the
// chains' type), then for each of the four chains 8 steps per block of
// each loop: x - (x >> 2) + m (2 add, 1 shift), ((((x*m) >> 4)*m) >> 4) +
// m (2 mul, 2 shift, 1 add), ((x ^ m) | (x & 7)) ^ (x >> 1) (4 bitwise, 1
// shift), (x >> 1) + m (1 shift, 1 add) and x // 3 + m (1 div, 1 add);
// the sum of the four chains (3 adds); one f32 store; groups of 16 x 16.
func TestCountArithInt(t *testing.T) {
	const n, na, nb, nc, nd, ne = 3000, 70, 9, 130, 11, 5
	w := int64(n * n)
	chain := map[string]int64{
		"add":     w*4*8*(2*na+nb+nd+ne) + w*(3+3),
		"mul":     w * 4 * 8 * 2 * nb,
		"bitwise": w * 4 * 8 * 4 * nc,
		"shift":   w * 4 * 8 * (na + 2*nb + nc + nd),
		"div":     w * 4 * 8 * ne,
	}
	params := map[string]int64{"n": n, "na": na, "nb": nb, "nc": nc, "nd": nd, "ne": ne, "c": 13}
	for _, typ := range []string{"i32", "i64"} {
		want := map[string]int64{"global.store.f32.stride=1": w, "launch.groups": ((n + 15) / 16) * ((n + 15) / 16),
			"launch.const": 1, "int.i32.add": w, "int.i32.bitwise": w}
		for op, v := range chain {
			want["int."+typ+"."+op] += v
		}
		_, c := countedLibraryKernel(t, "arith_int_"+typ, nil)
		got, err := c.Eval(params)
		if err != nil {
			t.Fatal(err)
		}
		compareProps(t, got, want)
	}
}

// TestCountArithIntSpecial checks the integer min and max kernels at sizes
// far beyond enumeration against counts derived by hand from their
// source: per work-item, the set-up's x0 = i_in + j_in and m = c & 15 (i32
// whatever the chains' type) and x0 + 1, x0 + 2, x0 + 3 (3 adds of the
// chains' type), then for each of the four chains 8 steps per block of
// max(r, if(r == 0, min(s, if(s == 0, x + m, 1000)), 3000 - x)): two
// reductions of two points (4 special), x + m at s = 0 and 3000 - x at r
// = 1 (2 adds); the sum of the four chains (3 adds); one f32 store;
// groups of 16 x 16.
func TestCountArithIntSpecial(t *testing.T) {
	for _, p := range []struct{ n, ns int64 }{{3000, 70}, {1, 1}, {17, 2}, {4096, 1000}} {
		w := p.n * p.n
		groups := (p.n + 15) / 16
		for _, typ := range []string{"i32", "i64"} {
			want := map[string]int64{"global.store.f32.stride=1": w, "launch.groups": groups * groups,
				"launch.const": 1, "int.i32.add": w, "int.i32.bitwise": w}
			want["int."+typ+".add"] += w*4*8*2*p.ns + w*(3+3)
			want["int."+typ+".special"] += w * 4 * 8 * 4 * p.ns
			_, c := countedLibraryKernel(t, "arith_intspecial_"+typ, nil)
			got, err := c.Eval(map[string]int64{"n": p.n, "ns": p.ns, "c": 13})
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, got, want)
		}
	}
}
