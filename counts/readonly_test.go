package counts

import (
	"fmt"
	"strings"
	"testing"
)

// A readonly array's loads count as global.ldg properties, with the
// stride classes of plain loads, and no min(loads, stores) since it has
// no stores. testdata/lang/readonly.knl, counted by hand: per element a
// load of a (stride 1), three of c (uniform: stride 0), three additions
// of the sum and one more, a multiplication, a load and a store of b;
// two loads of m, whose rows of two are filled by the neighbouring
// work-items (stride 2, class 2/2), an i32 addition and a store of o.
func TestReadOnlyHandCounts(t *testing.T) {
	k := langKernel(t, "readonly", nil)
	counted, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{37, 1000, 1} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, got, map[string]int64{
				"global.ldg.f32.stride=1": n, "global.ldg.f32.stride=0": 3 * n, "global.ldg.i32.stride=2/2": 2 * n,
				"global.load.f32.stride=1": n, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
				"global.store.i32.stride=1": n, "flop.f32.add": 4 * n, "flop.f32.mul": n, "int.i32.add": n,
				"launch.groups": (n + 15) / 16, "launch.const": 1,
			})
		})
	}
	if a := k.Array("a"); !a.ReadOnly || k.Array("b").ReadOnly {
		t.Errorf("a.ReadOnly %v, b.ReadOnly %v: want true and false", a.ReadOnly, k.Array("b").ReadOnly)
	}
	if d := Describe("global.ldg.i32.stride=2/2"); d == Describe("no.such") {
		t.Errorf("global.ldg.i32.stride=2/2 is not described: %q", d)
	}
}

// The measurement classes global_ldg_f32 and global_ldg_i32, counted by
// hand from their text: per element R loads of the readonly a (stride 1
// across work-items, 4 bytes in either type), R additions of the sum
// (from zero: f32 flops or i32 integer additions) and one store of b;
// no min(loads, stores), since a readonly array has no stores. In groups
// of 256, n = 1000 is 4 groups, n = 1 one and n = 2^23 + 1, far beyond
// enumeration, 32769.
func TestReadOnlyClassHandCounts(t *testing.T) {
	for _, c := range []struct{ typ, add string }{{"f32", "flop.f32.add"}, {"i32", "int.i32.add"}} {
		for _, r := range []int64{1, 4} {
			_, counted := countedLibraryKernel(t, "global_ldg_"+c.typ, map[string]int64{"R": r})
			for _, n := range []int64{1000, 1, 1<<23 + 1} {
				got, err := counted.Eval(map[string]int64{"n": n})
				if err != nil {
					t.Fatal(err)
				}
				t.Run(fmt.Sprint(c.typ, ",R=", r, ",n=", n), func(t *testing.T) {
					compareProps(t, got, map[string]int64{"global.ldg." + c.typ + ".stride=1": n * r,
						"global.store." + c.typ + ".stride=1": n, c.add: n * r, "launch.groups": (n + 255) / 256, "launch.const": 1})
				})
			}
		}
	}
}

// The measurement kernels global_ldg_strided_f32 and _i32, counted by
// hand from their text: each work-item i loads a[STRIDE*i + c] for c < U
// once, so that adjacent work-items load STRIDE elements apart and
// together use U of every STRIDE elements of a (class U/STRIDE: U·n cells
// over a span of STRIDE·(n - 1) + U, U/STRIDE of it at n = 1000 and
// beyond, but all of it at n = 1, whose one work-item's U cells are the
// whole span: class STRIDE/STRIDE there); it adds
// the U terms (U - 1 additions: f32 flops or i32 integer additions) and
// stores b[i] (stride 1). No min(loads, stores): a has no stores. In
// groups of 256, n = 1000 is 4 groups, n = 1 one and n = 2^23 + 1 32769.
// U = 2 at STRIDE = 3 (class 2/3) is no variant of the suite's, and is
// counted all the same.
func TestReadOnlyStridedClassHandCounts(t *testing.T) {
	for _, c := range []struct{ typ, add string }{{"f32", "flop.f32.add"}, {"i32", "int.i32.add"}} {
		for _, su := range [][2]int64{{2, 1}, {2, 2}, {3, 1}, {3, 3}, {3, 2}} {
			stride, u := su[0], su[1]
			_, counted := countedLibraryKernel(t, "global_ldg_strided_"+c.typ, map[string]int64{"STRIDE": stride, "U": u})
			for _, n := range []int64{1000, 1, 1<<23 + 1} {
				got, err := counted.Eval(map[string]int64{"n": n})
				if err != nil {
					t.Fatal(err)
				}
				used := u
				if n == 1 {
					used = stride
				}
				want := map[string]int64{fmt.Sprintf("global.ldg.%s.stride=%d/%d", c.typ, used, stride): u * n,
					"global.store." + c.typ + ".stride=1": n, "launch.groups": (n + 255) / 256, "launch.const": 1}
				if u > 1 {
					want[c.add] = (u - 1) * n
				}
				t.Run(fmt.Sprint(c.typ, ",STRIDE=", stride, ",U=", u, ",n=", n), func(t *testing.T) {
					compareProps(t, got, want)
				})
			}
		}
	}
}

// The measurement kernels scaled_sum_ldg_i32, transpose_ldg_f32 and
// transpose_ldg_i32, counted by hand from their text. scaled_sum_ldg_i32:
// per element K loads of the readonly w, the same cell for every
// work-item (uniform: stride 0), K i32 additions of the sum (from zero)
// and one multiplication, one stride-1 load of a and one store of out,
// their minimum n; groups of 256 (n = 1000: 4, n = 1: 1, n = 2^23 + 1:
// 32769). The transposes: n^2 work-items, each one store of b (stride 1)
// and one load of the readonly a, whose column a[j, i] lies n elements
// from its neighbour's (a stride that depends on n is class >4 at every
// n) and which over the launch use every element of a (4 of 4); no
// minimum, a having no stores; groups of 16 x 16 (n = 37: 9, n = 1: 1,
// n = 5000: 313^2).
func TestReadOnlyUniformAndWideHandCounts(t *testing.T) {
	for _, k := range []int64{32, 512} {
		_, counted := countedLibraryKernel(t, "scaled_sum_ldg_i32", map[string]int64{"K": k})
		for _, n := range []int64{1000, 1, 1<<23 + 1} {
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			t.Run(fmt.Sprint("scaled_sum_ldg_i32,K=", k, ",n=", n), func(t *testing.T) {
				compareProps(t, got, map[string]int64{"global.ldg.i32.stride=0": k * n, "global.load.i32.stride=1": n,
					"global.store.i32.stride=1": n, "global.minldst.i32.stride=1": n, "int.i32.add": k * n, "int.i32.mul": n,
					"launch.groups": (n + 255) / 256, "launch.const": 1})
			})
		}
	}
	for _, typ := range []string{"f32", "i32"} {
		_, counted := countedLibraryKernel(t, "transpose_ldg_"+typ, nil)
		for _, n := range []int64{37, 1, 5000} {
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			t.Run(fmt.Sprint("transpose_ldg_", typ, ",n=", n), func(t *testing.T) {
				compareProps(t, got, map[string]int64{"global.ldg." + typ + ".stride=4/>4": n * n, "global.store." + typ + ".stride=1": n * n,
					"launch.groups": (n + 15) / 16 * ((n + 15) / 16), "launch.const": 1})
			})
		}
	}
}

// docs/kernel-language.md's readonly stencil, counted by hand: n - 4
// points, each 5 uniform loads of w, 5 stride-1 loads of x, 5 muls, 4
// adds and a store; groups of 128 from i = 2.
func TestReadOnlyDocStencil(t *testing.T) {
	k, err := ParseKernel("stencil5.knl", []byte(`kernel stencil5
domain [n] -> { [i] : 2 <= i < n - 2 }
array w f32 [5] readonly
array x f32 [n] readonly
array y f32 [n]
split i 128 i_out i_in
tag i_out g.0, i_in l.0
y[i] = w[0]*x[i-2] + w[1]*x[i-1] + w[2]*x[i] + w[3]*x[i+1] + w[4]*x[i+2]
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	counted, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{1000, 5, 133} {
		got, err := counted.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		p := n - 4
		compareProps(t, got, map[string]int64{"global.ldg.f32.stride=0": 5 * p, "global.ldg.f32.stride=1": 5 * p,
			"flop.f32.mul": 5 * p, "flop.f32.add": 4 * p, "global.store.f32.stride=1": p,
			"launch.groups": (p + 127) / 128, "launch.const": 1})
	}
}

// A gather from readonly arrays: the index loads of col are ldg loads, the
// data-chosen loads of x (f32) and c (u8) count as indirect, by width for
// the 8-bit one, and an atomic_add to a readonly array is refused. Per i,
// by hand: col[i] twice, x[col[i]], c[col[i]], y[i] and d[i].
func TestReadOnlyGather(t *testing.T) {
	k := parseSrc(t, "rogather", `kernel rogather
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n] readonly
array col i32 [n] readonly
array c u8 [n] readonly
array y f32 [n]
array d u8 [n]
split i 16 i_out i_in
tag i_out g.0, i_in l.0
y[i] = x[col[i]]
d[i] = c[col[i]]
`)
	for _, n := range []int64{37, 16, 1} {
		col := make([]int32, n)
		x, c := make([]float32, n), make([]uint8, n)
		for i := range n {
			col[i] = int32((7*i + 3) % n)
			x[i], c[i] = float32(i)+0.5, uint8(200+i%50)
		}
		y, d := make([]float32, n), make([]uint8, n)
		hand := map[string]int64{"global.ldg.i32": 2 * n, "global.load.indirect.f32": n, "global.load.indirect.b8": n,
			"global.store.f32": n, "global.store.b8": n, "launch.groups": (n + 15) / 16, "launch.const": 1}
		indirectCounts(t, k, map[string]int64{"n": n}, map[string]any{"x": x, "col": col, "c": c, "y": y, "d": d}, hand, nil)
		for i := range n {
			if y[i] != x[col[i]] || d[i] != c[col[i]] {
				t.Fatalf("n=%d, i=%d: y %g, d %d, want %g and %d", n, i, y[i], d[i], x[col[i]], c[col[i]])
			}
		}
	}
	_, err := ParseKernel("roatomic.knl", []byte(`kernel roatomic
domain [n] -> { [i] : 0 <= i < n }
array h i32 [n] readonly
tag i g.0
atomic_add(h[i], 1)
`), nil)
	if err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("atomic_add to a readonly array: error %v, want one naming readonly", err)
	}
}
