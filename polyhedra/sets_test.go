package polyhedra

import (
	"fmt"
	"math/big"
	"math/rand"
	"slices"
	"testing"
)

// points lists the brute-force points of a generated set, sorted.
func (gs *genSet) points(params env) [][]int64 {
	e := env{}
	for k, v := range params {
		e[k] = v
	}
	var out [][]int64
	cur := make([]int64, len(gs.dims))
	var rec func(k int)
	rec = func(k int) {
		if k == len(gs.dims) {
			if gs.member(e) {
				out = append(out, slices.Clone(cur))
			}
			return
		}
		lo, hi := gs.lo[k](e), gs.hi[k](e)
		for v := lo; v <= hi; v++ {
			e[gs.dims[k]] = v
			cur[k] = v
			rec(k + 1)
		}
		delete(e, gs.dims[k])
	}
	rec(0)
	return out
}

func enumerated(t *testing.T, s *Set, params env) [][]int64 {
	t.Helper()
	var out [][]int64
	err := s.Enumerate(params, func(p []int64) bool {
		out = append(out, slices.Clone(p))
		return true
	})
	if err != nil {
		t.Fatalf("Enumerate(%s, %v): %v", s, params, err)
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

func samePoints(a, b [][]int64) bool {
	return slices.EqualFunc(a, b, func(x, y []int64) bool { return slices.Equal(x, y) })
}

// TestSetProperty checks enumeration, printing and re-parsing,
// projection and loop bounds of random sets against brute force.
func TestSetProperty(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	total := 0
	defer func() { t.Logf("%d points compared", total) }()
	for i := 0; i < 300; i++ {
		nd := 1 + r.Intn(3)
		gs := randomSet(r, nd, 1+r.Intn(2))
		s, err := ParseSet(gs.src)
		if err != nil {
			t.Fatalf("ParseSet(%s): %v", gs.src, err)
		}
		back, err := ParseSet(s.String())
		if err != nil {
			t.Fatalf("re-parsing %s (from %s): %v", s, gs.src, err)
		}
		for k := 0; k < 3; k++ {
			params := env{}
			for _, p := range gs.params {
				params[p] = r.Int63n(12) - 2
			}
			want := gs.points(params)
			if got := enumerated(t, s, params); !samePoints(got, want) {
				t.Fatalf("%s at %v: enumerated %v, brute force %v", gs.src, params, got, want)
			}
			if got := enumerated(t, back, params); !samePoints(got, want) {
				t.Fatalf("%s printed as %s at %v: enumerated %v, brute force %v", gs.src, s, params, got, want)
			}
			checkProjection(t, gs, s, params, want)
			checkBounds(t, gs, s, params, want)
			total += len(want)
		}
	}
}

// checkProjection projects onto the first dimension and compares with the
// first coordinates of the points.
func checkProjection(t *testing.T, gs *genSet, s *Set, params env, points [][]int64) {
	t.Helper()
	p, err := s.Project(gs.dims[:1])
	if err != nil {
		t.Fatalf("Project(%s): %v", gs.src, err)
	}
	var want [][]int64
	for _, pt := range points {
		if !slices.ContainsFunc(want, func(w []int64) bool { return w[0] == pt[0] }) {
			want = append(want, []int64{pt[0]})
		}
	}
	slices.SortFunc(want, slices.Compare)
	if got := enumerated(t, p, params); !samePoints(got, want) {
		t.Fatalf("projection of %s onto %s = %s at %v: %v, want %v", gs.src, gs.dims[0], p, params, got, want)
	}
}

// checkBounds runs the loop nest that Bounds describes for the last
// dimension, for every value of the outer ones, and compares the visited
// points with the set's.
func checkBounds(t *testing.T, gs *genSet, s *Set, params env, points [][]int64) {
	t.Helper()
	nd := len(gs.dims)
	outer := gs.dims[:nd-1]
	last := gs.dims[nd-1]
	lb, err := s.Bounds(last, outer)
	if err != nil {
		t.Fatalf("Bounds(%s): %v", gs.src, err)
	}
	outerSet, err := s.Project(outer)
	if err != nil {
		t.Fatal(err)
	}
	var outerPoints [][]int64
	if nd == 1 {
		outerPoints = [][]int64{{}}
	} else {
		outerPoints = enumerated(t, outerSet, params)
	}
	var got [][]int64
	for _, op := range outerPoints {
		vals := map[string]int64{}
		for k, v := range params {
			vals[k] = v
		}
		for k, d := range outer {
			vals[d] = op[k]
		}
		for _, pc := range lb {
			if !allHold(t, pc.Guard, vals) {
				continue
			}
			lo, hi := int64(-1<<62), int64(1<<62)
			for _, e := range pc.Lower {
				v, err := e.Eval(vals)
				if err != nil {
					t.Fatal(err)
				}
				lo = max(lo, v)
			}
			for _, e := range pc.Upper {
				v, err := e.Eval(vals)
				if err != nil {
					t.Fatal(err)
				}
				hi = min(hi, v)
			}
			for x := lo; x <= hi; x++ {
				vals[last] = x
				if allHold(t, pc.Filter, vals) {
					got = append(got, append(slices.Clone(op), x))
				}
			}
			delete(vals, last)
		}
	}
	slices.SortFunc(got, slices.Compare)
	if !samePoints(got, points) {
		t.Fatalf("loops from Bounds of %s at %v visit %v, want %v\n%s", gs.src, params, got, points, describeBounds(lb))
	}
}

func allHold(t *testing.T, cs []Constraint, vals map[string]int64) bool {
	for _, c := range cs {
		ok, err := c.Holds(vals)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return false
		}
	}
	return true
}

func describeBounds(lb []LoopBounds) string {
	s := ""
	for _, pc := range lb {
		s += fmt.Sprintf("guard %v lower %v upper %v filter %v\n", pc.Guard, pc.Lower, pc.Upper, pc.Filter)
	}
	return s
}

// TestSetOperationsProperty checks Intersect, Union, Image, Preimage and
// IsEmpty on pairs of random sets against brute force.
func TestSetOperationsProperty(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 120; i++ {
		nd, np := 1+r.Intn(2), 1+r.Intn(2)
		ga, gb := randomSet(r, nd, np), randomSet(r, nd, np)
		a, err := ParseSet(ga.src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseSet(gb.src)
		if err != nil {
			t.Fatal(err)
		}
		inter, err := Intersect(a, b)
		if err != nil {
			t.Fatal(err)
		}
		union, err := Union(a, b)
		if err != nil {
			t.Fatal(err)
		}
		// (i, j) -> (i + j) or i -> (2i + 1): a footprint and a stride
		img := &AffineMap{In: ga.dims, Out: []string{"x"}}
		if nd == 2 {
			img.Exprs = []LinExpr{{Coeffs: map[string]int64{"i": 1, "j": 1}}}
		} else {
			img.Exprs = []LinExpr{{Coeffs: map[string]int64{"i": 2}, Const: 1}}
		}
		image, err := a.Image(img)
		if err != nil {
			t.Fatal(err)
		}
		// i -> 2a - 3: the preimage holds the a with 2a - 3 in the set
		pre := &AffineMap{In: []string{"a"}, Out: []string{"i"}, Exprs: []LinExpr{{Coeffs: map[string]int64{"a": 2}, Const: -3}}}
		if nd == 2 {
			pre = &AffineMap{In: []string{"a", "b"}, Out: []string{"i", "j"}, Exprs: []LinExpr{
				{Coeffs: map[string]int64{"a": 1, "b": 1}}, {Coeffs: map[string]int64{"b": 1}}}}
		}
		preimage, err := a.Preimage(pre)
		if err != nil {
			t.Fatal(err)
		}
		empty, err := a.IsEmpty()
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 4; k++ {
			params := env{}
			for _, p := range ga.params {
				params[p] = r.Int63n(12) - 2
			}
			pa, pb := ga.points(params), gb.points(params)
			if len(pa) > 0 && empty {
				t.Fatalf("IsEmpty(%s) = true, but %v at %v", ga.src, pa[0], params)
			}
			var wantInter, wantImage, wantPre [][]int64
			wantUnion := slices.Clone(pa)
			for _, p := range pa {
				if slices.ContainsFunc(pb, func(q []int64) bool { return slices.Equal(p, q) }) {
					wantInter = append(wantInter, p)
				}
				var x []int64
				if nd == 2 {
					x = []int64{p[0] + p[1]}
					wantPre = append(wantPre, []int64{p[0] - p[1], p[1]})
				} else {
					x = []int64{2*p[0] + 1}
					if (p[0]+3)%2 == 0 {
						wantPre = append(wantPre, []int64{(p[0] + 3) / 2})
					}
				}
				if !slices.ContainsFunc(wantImage, func(q []int64) bool { return slices.Equal(x, q) }) {
					wantImage = append(wantImage, x)
				}
			}
			for _, q := range pb {
				if !slices.ContainsFunc(pa, func(p []int64) bool { return slices.Equal(p, q) }) {
					wantUnion = append(wantUnion, q)
				}
			}
			for _, w := range [][][]int64{wantInter, wantUnion, wantImage, wantPre} {
				slices.SortFunc(w, slices.Compare)
			}
			checks := []struct {
				name string
				s    *Set
				want [][]int64
			}{{"intersection", inter, wantInter}, {"union", union, wantUnion}, {"image", image, wantImage}, {"preimage", preimage, wantPre}}
			for _, c := range checks {
				if got := enumerated(t, c.s, params); !samePoints(got, c.want) {
					t.Fatalf("%s of %s and %s = %s at %v:\n got %v\nwant %v", c.name, ga.src, gb.src, c.s, params, got, c.want)
				}
			}
		}
	}
}

func TestIsEmpty(t *testing.T) {
	cases := []struct {
		src   string
		empty bool
	}{
		{"[n] -> { [i] : 0 <= i < n and n < 0 }", true},
		{"[n] -> { [i] : 0 <= i < n }", false},
		{"{ [i] : exists q, r : i = 2q and i = 2r + 1 }", true},
		{"{ [i, j] : 0 <= i < 10 and j = 3i + 1 and j mod 3 = 0 }", true},
		{"[n] -> { [i] : 2i = n and n mod 2 = 1 }", true},
		{"[n] -> { [i] : 3i >= n + 1 and 3i <= n + 1 and n mod 3 = 0 }", true},
		{"[n] -> { [i] : 3i >= n + 1 and 3i <= n + 1 and n mod 3 = 2 }", false},
		{"[n] -> { [i, j] : 2 <= 4i - 4j <= 3 }", true},
		{"{ [i] : false }", true},
		{"{ [i] }", false},
	}
	for _, c := range cases {
		s, err := ParseSet(c.src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.IsEmpty()
		if err != nil {
			t.Fatal(err)
		}
		if got != c.empty {
			t.Errorf("IsEmpty(%s) = %v, want %v", c.src, got, c.empty)
		}
	}
}

// TestAddScaleProperty checks |A ∪ B| = |A| + |B| - |A ∩ B| with Add and
// Scale on random sets, at many parameter values.
func TestAddScaleProperty(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	minus := big.NewRat(-1, 1)
	for i := 0; i < 40; i++ {
		nd, np := 1+r.Intn(2), 1+r.Intn(2)
		ga, gb := randomSet(r, nd, np), randomSet(r, nd, np)
		a, _ := ParseSet(ga.src)
		b, _ := ParseSet(gb.src)
		inter, err := Intersect(a, b)
		if err != nil {
			t.Fatal(err)
		}
		union, err := Union(a, b)
		if err != nil {
			t.Fatal(err)
		}
		var cards []*PwQPolynomial
		for _, s := range []*Set{a, b, inter, union} {
			c, err := s.Card()
			if err != nil {
				t.Fatalf("Card(%s): %v", s, err)
			}
			cards = append(cards, c)
		}
		sum, err := cards[0].Add(cards[1])
		if err != nil {
			t.Fatal(err)
		}
		sum, err = sum.Add(cards[2].Scale(minus))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paramGrid(r, ga.params, nd) {
			want, err := cards[3].Eval(p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := sum.Eval(p)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 || want.Int64() != int64(len(unionPoints(ga, gb, p))) {
				t.Fatalf("%s ∪ %s at %v: |A|+|B|-|A∩B| = %s, |A∪B| = %s, brute force %d\n%s", ga.src, gb.src, p, got, want, len(unionPoints(ga, gb, p)), sum)
			}
		}
	}
}

func unionPoints(ga, gb *genSet, p env) [][]int64 {
	out := ga.points(p)
	for _, q := range gb.points(p) {
		if !slices.ContainsFunc(out, func(x []int64) bool { return slices.Equal(x, q) }) {
			out = append(out, q)
		}
	}
	return out
}

// The C rendering of bounds and membership tests for a tiled loop.
func TestBoundsC(t *testing.T) {
	s, err := ParseSet("[n] -> { [io, ii] : 0 <= ii < 16 and 0 <= 16io + ii < n }")
	if err != nil {
		t.Fatal(err)
	}
	lb, err := s.Bounds("io", nil)
	if err != nil || len(lb) != 1 {
		t.Fatalf("Bounds(io) = %v, %v", lb, err)
	}
	vars := map[string]string{"n": "sizes[0]", "io": "get_group_id(0)"}
	// io runs from 0 to ceil(n/16) - 1 where n >= 1
	got := []string{ConjunctionC(lb[0].Guard, vars), lb[0].Lower[0].C(vars), lb[0].Upper[0].C(vars), ConjunctionC(lb[0].Filter, vars)}
	want := []string{"((sizes[0]) - 1 >= 0)", "0", "floordiv((sizes[0]) + 15, 16) - 1", "1"}
	if !slices.Equal(got, want) {
		t.Errorf("io bounds in C: %q, want %q", got, want)
	}
	lb, err = s.Bounds("ii", []string{"io"})
	if err != nil || len(lb) != 1 {
		t.Fatalf("Bounds(ii) = %v, %v", lb, err)
	}
	var lo, hi []string
	for _, e := range lb[0].Lower {
		lo = append(lo, e.C(vars))
	}
	for _, e := range lb[0].Upper {
		hi = append(hi, e.C(vars))
	}
	if !slices.Equal(lo, []string{"0", "-16*(get_group_id(0))"}) || !slices.Equal(hi, []string{"15", "(sizes[0]) - 16*(get_group_id(0)) - 1"}) {
		t.Errorf("ii bounds in C: max(%q) to min(%q)", lo, hi)
	}
	if got, want := s.C(vars), "((ii >= 0) && (-ii + 15 >= 0) && (16*(get_group_id(0)) + ii >= 0) && ((sizes[0]) - 16*(get_group_id(0)) - ii - 1 >= 0))"; got != want {
		t.Errorf("membership in C:\n got %s\nwant %s", got, want)
	}
	u, err := ParseSet("[n] -> { [i] : i mod 3 = 2 or i = 2n + 5000000000 }")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := u.C(nil), "((i - 3*floordiv(i, 3) - 2 == 0)) || ((2*n - i + 5000000000LL == 0))"; got != want {
		t.Errorf("membership in C:\n got %s\nwant %s", got, want)
	}
	if got := lb[0].Upper[1].String(); got != "-1 + n - 16*io" {
		t.Errorf("upper bound %q", got)
	}
}

// TestMinMaxConjunction: a minimum on the larger side of <= (a maximum on
// the smaller) is a conjunction, one basic set; counts by brute force.
func TestMinMaxConjunction(t *testing.T) {
	cases := []struct {
		src   string
		parts int
		count func(n, m int64) int64
	}{
		{"[n, m] -> { [i] : 0 <= i <= min(n, m, 7) }", 1, func(n, m int64) int64 { return max(0, min(n, m, 7)+1) }},
		{"[n, m] -> { [i] : max(0, n - 3) <= i < min(m, 2n) }", 1, func(n, m int64) int64 { return max(0, min(m, 2*n)-max(0, n-3)) }},
		{"[n, m] -> { [i] : min(n, m) >= i >= max(-n, 1) }", 1, func(n, m int64) int64 { return max(0, min(n, m)-max(-n, 1)+1) }},
		// a minimum on the smaller side stays a union
		{"[n, m] -> { [i] : 0 <= i <= 9 and min(n, m) <= i }", 2, func(n, m int64) int64 { return max(0, 10-max(0, min(n, m))) }},
	}
	for _, c := range cases {
		s, err := ParseSet(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.parts) != c.parts {
			t.Errorf("%s: %d basic sets, want %d", c.src, len(s.parts), c.parts)
		}
		q, err := s.Card()
		if err != nil {
			t.Fatal(err)
		}
		for n := int64(-4); n <= 12; n++ {
			for m := int64(-4); m <= 12; m++ {
				want := c.count(n, m)
				if got, err := q.Eval(map[string]int64{"n": n, "m": m}); err != nil || got.Int64() != want {
					t.Errorf("%s at n=%d m=%d: %v (%v), want %d", c.src, n, m, got, err, want)
				}
			}
		}
	}
}
