package counts

import (
	"maps"
	"slices"
	"testing"
)

// handCase is a kernel whose properties at one parameter point are worked
// out by hand from its loop structure. want lists every non-zero
// property.
type handCase struct {
	name   string
	src    string
	params map[string]int64
	want   map[string]int64
}

func handCases() []handCase {
	return []handCase{
		{
			// One load of a, one store per element; n = 20 in groups of 8:
			// 3 groups.
			name: "elementwise",
			src: `kernel ew
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array b f32 [n]
split i 8 io ii
tag io g.0, ii l.0
b[i] = 2*a[i] + 1
`,
			params: map[string]int64{"n": 20},
			want: map[string]int64{"global.load.f32.stride=1": 20, "global.store.f32.stride=1": 20, "global.minldst.f32.stride=1": 20,
				"flop.f32.mul": 20, "flop.f32.add": 20, "launch.groups": 3, "launch.const": 1},
		},
		{
			// Loopy's triangle: i < j < m, m = 13 <= n: 13*12/2 = 78 points,
			// sequential, so stride 0.
			name: "triangle",
			src: `kernel tri
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and i < j }
array a f64 [n, m]
array b f64 [n, m]
a[i, j] = b[i, j]*2
`,
			params: map[string]int64{"n": 200, "m": 13},
			want: map[string]int64{"flop.f64.mul": 78, "global.load.f64.stride=0": 78, "global.store.f64.stride=0": 78,
				"global.minldst.f64.stride=0": 78, "launch.groups": 1, "launch.const": 1},
		},
		{
			// Matrix-vector product, reduction over j: n*m mul and add, n*m
			// loads of A along rows (i on l.0: stride m, >4), n*m uniform
			// loads of x, n stores of y (stride 1). A's footprint is all of A:
			// utilization 1, class 4/>4. n = 6, m = 5, groups of 4: 2 groups.
			name: "reduction",
			src: `kernel mv
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }
array A f32 [n, m]
array x f32 [m]
array y f32 [n]
split i 4 io ii
tag io g.0, ii l.0
y[i] = sum(j, A[i, j]*x[j])
`,
			params: map[string]int64{"n": 6, "m": 5},
			want: map[string]int64{"flop.f32.mul": 30, "flop.f32.add": 30, "global.load.f32.stride=4/>4": 30,
				"global.load.f32.stride=0": 30, "global.store.f32.stride=1": 6, "global.minldst.f32.stride=1": 0,
				"launch.groups": 2, "launch.const": 1},
		},
		{
			// Non-dividing split with an instruction that does not use the
			// split iname's partner axis: x[j] is stored by every work-item
			// along l.0 whose i is in range (guarded by the domain), so
			// n*m stores of a uniform address; the group axis g.0 is i's too.
			name: "guards",
			src: `kernel g
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }
array x f32 [m]
array z f32 [n, m]
split i 4 io ii
tag io g.0, ii l.0
x[j] = 1 {inames=i}
z[i, j] = x[j]
`,
			params: map[string]int64{"n": 10, "m": 3},
			want: map[string]int64{"global.store.f32.stride=0": 30, "global.load.f32.stride=0": 30, "global.minldst.f32.stride=0": 30,
				"global.store.f32.stride=4/>4": 30, "launch.groups": 3, "launch.const": 1},
		},
		{
			// Stride 2 with partial utilization (the example): x[2i]
			// for 0 <= i < 4096 touches 4096 of the 8191 cells from 0 to
			// 8190; round(2 * 4096/8191) = 1.
			name: "stride 2 partial",
			src: `kernel s2
domain [n] -> { [i] : 0 <= i < n }
array x f32 [2*n]
array y f32 [n]
split i 256 io ii
tag io g.0, ii l.0
y[i] = x[2*i]
`,
			params: map[string]int64{"n": 4096},
			want:   map[string]int64{"global.load.f32.stride=1/2": 4096, "global.store.f32.stride=1": 4096, "launch.groups": 16, "launch.const": 1},
		},
		{
			// Stride 2, full: the two references together touch every cell.
			name: "stride 2 full",
			src: `kernel s2f
domain [n] -> { [i] : 0 <= i < n }
array x f32 [2*n]
array y f32 [n]
split i 64 io ii
tag io g.0, ii l.0
y[i] = x[2*i] + x[2*i + 1]
`,
			params: map[string]int64{"n": 100},
			want: map[string]int64{"global.load.f32.stride=2/2": 200, "global.store.f32.stride=1": 100, "flop.f32.add": 100,
				"launch.groups": 2, "launch.const": 1},
		},
		{
			// Stride 3 touching two cells of every three: 2n of 3n-1 cells,
			// round(3*200/299) = 2: class 2/3. Also a stride-3 store
			// alone: n of 3n-2 cells, class 1/3.
			name: "stride 3 two thirds",
			src: `kernel s3
domain [n] -> { [i] : 0 <= i < n }
array x f64 [3*n]
array w f64 [3*n]
split i 32 io ii
tag io g.0, ii l.0
w[3*i] = x[3*i] - x[3*i + 1]
`,
			params: map[string]int64{"n": 100},
			want: map[string]int64{"global.load.f64.stride=2/3": 200, "global.store.f64.stride=1/3": 100, "flop.f64.add": 100,
				"launch.groups": 4, "launch.const": 1},
		},
		{
			// Stride 5 (above 4): n of 5n-4 cells, round(4*n/(5n-4)) = 1
			// for n = 50.
			name: "stride 5",
			src: `kernel s5
domain [n] -> { [i] : 0 <= i < n }
array x f32 [5*n]
array y f32 [n]
split i 16 io ii
tag io g.0, ii l.0
y[i] = x[5*i]
`,
			params: map[string]int64{"n": 50},
			want:   map[string]int64{"global.load.f32.stride=1/>4": 50, "global.store.f32.stride=1": 50, "launch.groups": 4, "launch.const": 1},
		},
		{
			// Loopy's non-consecutive case: i on l.0 strides by m*l in a and
			// b, by m in g and h; every cell is touched (utilization 1).
			// Loopy types 3.0 by numpy's rules, f32 beside f32 values; C,
			// and this language, make it a double: 3.0f is loopy's.
			name: "non-consecutive",
			src: `kernel nc
domain [n, m, l] -> { [i, k, j] : 0 <= i < n and 0 <= k < m and 0 <= j < l }
array a f32 [n, m, l]
array b f32 [n, m, l]
array c f32 [n, m, l]
array g f64 [n, m]
array h f64 [n, m]
array e f64 [n, m]
split i 16 i_outer i_inner
tag i_inner l.0, i_outer g.0
c[i, k, j] = a[i, k, j]*b[i, k, j]/3.0f + a[i, k, j]
e[i, k] = g[i, k]*(2 + h[i, k])
`,
			params: map[string]int64{"n": 32, "m": 4, "l": 3},
			want: map[string]int64{"global.load.f32.stride=4/>4": 3 * 384, "global.store.f32.stride=4/>4": 384,
				"global.minldst.f32.stride=4/>4": 384, "global.load.f64.stride=4/>4": 2 * 128, "global.store.f64.stride=4/>4": 128,
				"global.minldst.f64.stride=4/>4": 128, "flop.f32.mul": 384, "flop.f32.div": 384, "flop.f32.add": 384,
				"flop.f64.add": 128, "flop.f64.mul": 128, "launch.groups": 2, "launch.const": 1},
		},
		{
			// A local tile with a barrier in a loop over k_out: per k tile
			// every work-item loads one element into the tile, hits two
			// barriers and reads four tile elements. n = 8 work-items in
			// 2 groups of 4, m = 3 tiles.
			name: "local tiles",
			src: `kernel lt
domain [n, m] -> { [i, k] : 0 <= i < n and 0 <= k < 4*m }
assume n mod 4 = 0
array a f32 [4*m]
array b f32 [n]
local t f32 [4]
private acc f32
split i 4 io ii
split k 4 ko ki
tag io g.0, ii l.0
acc = 0
barrier {inames=ko}
t[ii] = a[4*ko + ii] {inames=ko}
barrier {inames=ko}
acc = acc + sum(ki, t[ki]) {inames=ko:i}
b[i] = acc
`,
			params: map[string]int64{"n": 8, "m": 3},
			want: map[string]int64{"sync.barrier": 2 * 3 * 8, "global.load.f32.stride=1": 3 * 8, "local.store.f32": 3 * 8,
				"local.load.f32": 3 * 8 * 4, "flop.f32.add": 3*8*4 + 3*8, "global.store.f32.stride=1": 8,
				"global.minldst.f32.stride=1": 8, "launch.groups": 2, "launch.const": 1},
		},
		{
			// Special functions and integer arithmetic on values.
			name: "special functions",
			src: `kernel sp
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f64 [n]
array o i32 [n]
y[i] = exp(x[i]) + rsqrt(y[i])*sin(y[i]) + x[i]**2.5f + pow(y[i], 3)
o[i] = 3*i + i // 2
`, // i // 2 is an arithmetic shift

			params: map[string]int64{"n": 7},
			want: map[string]int64{"flop.f32.exp": 7, "flop.f32.pow": 7, "flop.f64.special": 14, "flop.f64.pow": 7,
				"flop.f64.mul": 7, "flop.f64.add": 21, "global.load.f32.stride=0": 14, "global.load.f64.stride=0": 21,
				"global.store.f64.stride=0": 7, "global.minldst.f64.stride=0": 7, "global.store.i32.stride=0": 7,
				"int.i32.mul": 7, "int.i32.add": 7, "int.i32.shift": 7, "launch.groups": 1, "launch.const": 1},
		},
	}
}

// TestHandCounts checks the counting plan, evaluated exactly by
// enumeration, and the symbolic counts of Count against counts derived
// by hand, and the plan against the interpreter.
func TestHandCounts(t *testing.T) {
	for _, c := range append(handCases(), cHandCases()...) {
		t.Run(c.name, func(t *testing.T) {
			k, err := ParseKernel(c.name+".knl", []byte(c.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			p, err := newPlan(k, Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := p.concrete(c.params, 1e9)
			if err != nil {
				t.Fatal(err)
			}
			want := maps.Clone(c.want)
			for n, v := range want {
				if v == 0 {
					delete(want, n)
				}
			}
			compareProps(t, b.props, want)
			counted, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := counted.Eval(c.params)
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, got, want)
			checkPlanAgainstRun(t, k, c.params)
		})
	}
}

func compareProps(t *testing.T, got, want map[string]int64) {
	t.Helper()
	for _, n := range slices.Sorted(maps.Keys(want)) {
		if got[n] != want[n] {
			t.Errorf("%s = %d, want %d", n, got[n], want[n])
		}
	}
	for _, n := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[n]; !ok {
			t.Errorf("unexpected %s = %d", n, got[n])
		}
	}
}
