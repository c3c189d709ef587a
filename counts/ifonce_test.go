package counts_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// An if block whose statements reassign what its condition reads tests
// the condition once, where the block starts, as C does: Rodinia kmeans'
// "if (dist < min_dist) { min_dist = dist; index = i; }" keeps the index
// of the nearest centre (tested again before index = i, the condition
// would never hold there). The interpreter's result is a brute-force
// search's, and the counts are hand-derived: per point and centre two
// loads of x and c, a subtraction, a multiplication and an addition.
func TestIfBlockTestsOnce(t *testing.T) {
	k := mustParse(t, `kernel nearest
domain [n, m] -> { [p, i] : 0 <= p < n and 0 <= i < m }
array x f32 [n]
array c f32 [m]
array member i32 [n]
split p 16 p_out p_in
tag p_out g.0, p_in l.0
for p
  <i32> index = 0
  <f32> best = 3.40282347e+38
  for i
    <f32> d = (x[p] - c[i])*(x[p] - c[i])
    if d < best
      best = d
      index = i
    end
  end
  member[p] = index
end
`)
	const n, m = 37, 5
	x, c := make([]float32, n), []float32{4, -2, 9, 0.5, 7}
	for p := range x {
		x[p] = float32(p%11) - 1.25
	}
	member := make([]int32, n)
	params := map[string]int64{"n": n, "m": m}
	tl, err := counts.Run(k, params, map[string]any{"x": x, "c": c, "member": member}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for p := range n {
		want := 0
		for i := range m {
			if d, e := x[p]-c[i], x[p]-c[want]; d*d < e*e {
				want = i
			}
		}
		if member[p] != int32(want) {
			t.Errorf("member[%d] = %d, want %d (x = %g)", p, member[p], want, x[p])
		}
	}
	counted, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := counted.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"global.load.f32.stride=1": 2 * n * m, "global.load.f32.stride=0": 2 * n * m,
		"flop.f32.add": 2 * n * m, "flop.f32.mul": n * m, "global.store.i32.stride=1": n}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s = %d, want %d", name, got[name], w)
		}
	}
	totals := tl.Totals()
	if totals["global.load.f32"] != 4*n*m || totals["flop.f32.mul"] != n*m {
		t.Errorf("the interpreter: %d loads, %d multiplications; want %d, %d", totals["global.load.f32"], totals["flop.f32.mul"], 4*n*m, n*m)
	}
	var ids []string
	for _, s := range k.Statements {
		if in, ok := s.(*counts.Instruction); ok {
			ids = append(ids, in.ID)
		}
	}
	if w := []string{"insn_0", "insn_1", "insn_2", "ifcond_13_5", "insn_3", "insn_4", "insn_5"}; !slices.Equal(ids, w) {
		t.Errorf("ids %v, want %v (the automatic ids as without the condition's temporary)", ids, w)
	}
}

// Rodinia bfs' Kernel2 clears the flag it tests in the middle of the
// block, and an elif branch's statements must not run where the if
// branch ran: the flag is loaded once per work-item (C's one test), not
// once per statement, and the stores it guards are upper bounds.
func TestIfBlockTestsOnceFlagAndElif(t *testing.T) {
	k := mustParse(t, `kernel flags
domain [n] -> { [i] : 0 <= i < n }
array m i32 [n]
array a i32 [n]
array b i32 [n]
array y i32 [n]
split i 16 i_out i_in
tag i_out g.0, i_in l.0
if m[i] > 0
  a[i] = 1
  m[i] = 0
  b[i] = 2
elif m[i] < 0
  y[i] = 3
  m[i] = 5
  a[i] = 4
end
`)
	const n = 37
	m, a, b, y := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range m {
		m[i] = int32(i%3 - 1)
	}
	orig := slices.Clone(m)
	params := map[string]int64{"n": n}
	if _, err := counts.Run(k, params, map[string]any{"m": m, "a": a, "b": b, "y": y}, nil); err != nil {
		t.Fatal(err)
	}
	for i, v := range orig {
		wm, wa, wb, wy := v, int32(0), int32(0), int32(0)
		switch {
		case v > 0:
			wm, wa, wb = 0, 1, 2
		case v < 0:
			wm, wa, wy = 5, 4, 3
		}
		if m[i] != wm || a[i] != wa || b[i] != wb || y[i] != wy {
			t.Errorf("i = %d (m = %d): m, a, b, y = %d %d %d %d, want %d %d %d %d", i, v, m[i], a[i], b[i], y[i], wm, wa, wb, wy)
		}
	}
	counted, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := counted.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	// m[i] > 0 at every i, m[i] < 0 where it fails (at most n, an upper
	// bound); six guarded stores. Tested before each statement, m would
	// be loaded 8n times.
	if l := got["global.load.i32.stride=1"]; l != 2*n || !counted.UpperBound("global.load.i32.stride=1") {
		t.Errorf("%d loads of m (upper bound %v), want 2n = %d, an upper bound", l, counted.UpperBound("global.load.i32.stride=1"), 2*n)
	}
	if s := got["global.store.i32.stride=1"]; s != 6*n || !counted.UpperBound("global.store.i32.stride=1") {
		t.Errorf("%d stores (upper bound %v), want 6n = %d, an upper bound", s, counted.UpperBound("global.store.i32.stride=1"), 6*n)
	}
}

// Conditions that cost nothing to test again stay predicates: an affine
// one keeps its counts exact, and a comparison of temporaries adds no
// temporary of its own.
func TestIfBlockCheapConditionsStay(t *testing.T) {
	k := mustParse(t, `kernel cheap
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f32 [n]
split i 16 i_out i_in
tag i_out g.0, i_in l.0
if i < 5
  x[i] = 1.0f
  y[i] = 2.0f
end
<f32> a = x[i]
<f32> b = y[i]
if a < b
  x[i] = b
  y[i] = a
end
`)
	for _, s := range k.Statements {
		if in, ok := s.(*counts.Instruction); ok && len(in.ID) > 6 && in.ID[:6] == "ifcond" {
			t.Errorf("a temporary %s for a condition that costs nothing", in.ID)
		}
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(map[string]int64{"n": 37})
	if err != nil {
		t.Fatal(err)
	}
	// 5 + 5 stores under i < 5 (exact), 37 + 37 under a < b (at most),
	// and the two loads of each i.
	if s := got["global.store.f32.stride=1"]; s != 5+5+37+37 {
		t.Errorf("%d stores, want 84", s)
	}
	if l := got["global.load.f32.stride=1"]; l != 2*37 || c.UpperBound("global.load.f32.stride=1") {
		t.Errorf("%d loads (upper bound %v), want 74, exact", l, c.UpperBound("global.load.f32.stride=1"))
	}
}

// A temporary of the user's that takes the name of a condition's
// temporary, before or after the block, is refused with what to write.
func TestIfBlockConditionNameTaken(t *testing.T) {
	block := "if m[i] > 0\n  a[i] = 1\n  a[i] = 2\nend\n"
	head := "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray m i32 [n]\narray a i32 [n]\n"
	for _, c := range []struct{ src, at string }{
		{head + block + "<i32> ifcond_5_1 = 3\n", "k.knl:9:7"},
		{head + "<i32> ifcond_6_1 = 3\n" + block, "k.knl:5:7"},
	} {
		_, err := counts.ParseKernel("k.knl", []byte(c.src), nil)
		if err == nil || !strings.Contains(err.Error(), c.at+": ifcond_") || !strings.Contains(err.Error(), "give yours another name") {
			t.Errorf("%v, want the name refused at %s with what to write", err, c.at)
		}
	}
}

// ifonceWant is what testdata/lang/ifonce.knl leaves in a, b and c (of
// n, n and n*m elements, every one -1 before), computed by C's loop.
func ifonceWant(n, m int) (a, b, c []int32) {
	a, b, c = make([]int32, n), make([]int32, n), make([]int32, n*m)
	for _, s := range [][]int32{a, b, c} {
		for i := range s {
			s[i] = -1
		}
	}
	for i := range n {
		if i+1 < n {
			a[i], b[i], a[i] = 1, 2, 3
		}
		if 2*i < n {
			for k := range m {
				c[i*m+k] = int32(k)
			}
		}
		if i%3 == 0 {
			a[i] = 5
		} else {
			b[i] = 6
		}
		if i-2 >= 0 && i/2 < m {
			a[i], b[i] = 7, 8
		}
	}
	return a, b, c
}

// An if block on an affine condition that computes something evaluates
// it once per execution of the block, as C does, and its counts stay
// exact: in testdata/lang/ifonce.knl, per i one add (i + 1 < n) for a
// block of three stores, one multiplication (2*i < n) for a block of one
// store inside a loop over k, one division (i % 3 == 0) for an if and its
// else, one subtraction (i - 2 >= 0) around a nested block, and one shift
// (i // 2 < m) where that holds. Tested before each statement, they
// counted 5n adds, n*m multiplications, 2n divisions and 2n - 4
// shifts. The counts are hand-derived, the interpreter's tally equals them,
// and its results are C's loop's.
func TestIfBlockAffineOnce(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "lang", "ifonce.knl"))
	if err != nil {
		t.Fatal(err)
	}
	ceil := func(x, d int64) int64 { return (x + d - 1) / d }
	for _, lx := range []int64{16, 5} {
		k, err := counts.ParseKernel("ifonce.knl", src, map[string]int64{"LX": lx})
		if err != nil {
			t.Fatal(err)
		}
		c, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range [][2]int64{{37, 5}, {5, 2}, {2, 1}, {1, 1}} {
			n, m := p[0], p[1]
			nested := max(min(n, 2*m)-2, 0) // 2 <= i < 2m
			want := map[string]int64{
				"int.i32.add":   2 * n,
				"int.i32.mul":   n,
				"int.i32.div":   n,
				"int.i32.shift": max(n-2, 0),
				"global.store.i32": 2*max(n-1, 0) + ceil(n, 3) + nested + // a
					max(n-1, 0) + n - ceil(n, 3) + nested + // b
					ceil(n, 2)*m, // c
			}
			params := map[string]int64{"n": n, "m": m}
			got, err := c.Eval(params)
			if err != nil {
				t.Fatal(err)
			}
			a, b, cc := make([]int32, n), make([]int32, n), make([]int32, n*m)
			for _, s := range [][]int32{a, b, cc} {
				for i := range s {
					s[i] = -1
				}
			}
			tl, err := counts.Run(k, params, map[string]any{"a": a, "b": b, "c": cc}, nil)
			if err != nil {
				t.Fatal(err)
			}
			run := tl.Totals()
			for name, w := range want {
				var sum int64
				for prop, v := range got {
					if prop == name || strings.HasPrefix(prop, name+".stride=") {
						sum += v
						if c.UpperBound(prop) {
							t.Errorf("LX %d, %v: %s is an upper bound, want exact", lx, params, prop)
						}
					}
				}
				if sum != w || run[name] != w {
					t.Errorf("LX %d, %v: %s counted %d, interpreter %d, want %d", lx, params, name, sum, run[name], w)
				}
			}
			wa, wb, wc := ifonceWant(int(n), int(m))
			if !slices.Equal(a, wa) || !slices.Equal(b, wb) || !slices.Equal(cc, wc) {
				t.Errorf("LX %d, %v: a, b, c = %v %v %v, want %v %v %v", lx, params, a, b, cc, wa, wb, wc)
			}
		}
	}
}

// An elif whose condition reads fewer inames than the if's (i < 1
// against i + j >= 2) is tested at every (i, j), where the if's test
// failed there, not once an i after the loop over j: by hand, at n = 3
// and m = 9, the if's statement runs at the 24 points with i + j >= 2
// and the elif's at (0, 0) and (0, 1). The interpreter once ran the if's
// at all 27 and the elif's at none: its tests were scheduled in loops of
// their own, the elif's reading the if's temporary after the loop over j.
func TestIfBlockElifInTheIfsLoops(t *testing.T) {
	k := mustParse(t, `kernel r
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }
array a f32 [90]
if i + j >= 2
  a[i*m + j] = 1
elif i < 1
  a[i*m + j + 2] = 2
end
`)
	params := map[string]int64{"n": 3, "m": 9}
	tl, err := counts.Run(k, params, map[string]any{"a": make([]float32, 90)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int64{"insn_0": 24, "insn_1": 2} {
		var got int64
		for prop, n := range tl.Statements[id] {
			if strings.HasPrefix(prop, "global.store.") {
				got += n
			}
		}
		if got != want {
			t.Errorf("%s stored %d times, want %d (schedule:\n%s)", id, got, want, counts.FormatSchedule(k.Schedule))
		}
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	if got := v["global.store.f32.stride=0"] + v["global.store.f32.stride=1"]; got != 26 {
		t.Errorf("counts %v: %d stores, want 26", v, got)
	}
}
