package counts

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// gatherAffineKernel is y[i] = x[idx[i]] + a[i]: a, idx and y are
// affine, x is gathered, of an extent m of its own.
const gatherAffineKernel = `kernel gather_affine
const LX = 4
domain [n, m] -> { [i] : 0 <= i < n }
assume m >= 1
array idx i32 [n]
array a f32 [n]
array x f32 [m]
array y f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
y[i] = x[idx[i]] + a[i]
`

// TestIndirectBoundHandCounts checks the hierarchy counts and cache
// lines of gatherAffineKernel against counts derived by hand. At n = 10
// the launch runs 3 groups of 4 work-items (12, of which 10 work), each
// executing the gather once: 10 executions. a, idx and y are 10 cells of
// 4 bytes, each cell a group's and a work-item's own, no load repeated:
// 40 bytes at each level, exact; their 40 bytes lie in line 0 of 64
// bytes, which each of the 3 groups and 10 work-items touches. x is
// bounded by min(10 executions, m) cells for the launch and min(10, 3m)
// summed over the groups; in lines, by min(10, L), min(10, 3L) and
// min(10, 12L) with L = ceil(4m/64), its repeats by 0 (no affine load
// of x).
func TestIndirectBoundHandCounts(t *testing.T) {
	c, err := Count(parseSrc(t, "gather_affine", gatherAffineKernel))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		m                          int64
		launch, group              int64 // x's bytes
		lineLaunch, lineGroup, own int64 // x's lines
	}{
		{m: 6, launch: 24, group: 40, lineLaunch: 1, lineGroup: 3, own: 10},
		{m: 3, launch: 12, group: 36, lineLaunch: 1, lineGroup: 3, own: 10},
		{m: 40, launch: 40, group: 40, lineLaunch: 3, lineGroup: 9, own: 10},
		{m: 1000, launch: 40, group: 40, lineLaunch: 10, lineGroup: 10, own: 10},
	} {
		params := map[string]int64{"n": 10, "m": tc.m}
		hs, vals, err := c.HierarchyAt(params)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{
			"x " + FootprintLaunch: tc.launch, "x " + FootprintGroup: tc.group, "x " + ReuseWorkItem: 0,
			" " + FootprintLaunch: 120 + tc.launch, " " + FootprintGroup: 120 + tc.group, " " + ReuseWorkItem: 0,
		}
		for _, a := range []string{"idx", "a", "y"} {
			want[a+" "+FootprintLaunch], want[a+" "+FootprintGroup] = 40, 40
			if a != "y" {
				want[a+" "+ReuseWorkItem] = 0
			}
		}
		got := map[string]int64{}
		for i, h := range hs {
			key := h.Array + " " + h.Name
			got[key] = vals[i]
			if bounded := h.Array == "x" || h.Array == ""; h.Approximate != bounded || !h.AtSizes {
				t.Errorf("m = %d: %s approximate %v, at sizes %v, want %v and true", tc.m, key, h.Approximate, h.AtSizes, bounded)
			}
		}
		if len(got) != len(want) {
			t.Errorf("m = %d: counts %v, want %v", tc.m, got, want)
		}
		for key, w := range want {
			if g, ok := got[key]; !ok || g != w {
				t.Errorf("m = %d: %s = %d, want %d", tc.m, key, g, w)
			}
		}
		ls, lvals, err := c.LinesAt(params, 64)
		if err != nil {
			t.Fatal(err)
		}
		wantLines := map[string]int64{
			"x " + LinesLaunch: tc.lineLaunch, "x " + LinesGroup: tc.lineGroup, "x " + LinesWorkItem: tc.own,
			" " + LinesLaunch: 3 + tc.lineLaunch, " " + LinesGroup: 9 + tc.lineGroup, " " + LinesWorkItem: 30 + tc.own,
		}
		for _, a := range []string{"idx", "a", "y"} {
			wantLines[a+" "+LinesLaunch], wantLines[a+" "+LinesGroup], wantLines[a+" "+LinesWorkItem] = 1, 3, 10
		}
		for i, l := range ls {
			key := l.Array + " " + l.Name
			if w, ok := wantLines[key]; !ok || lvals[i] != w || l.Approximate != (l.Array == "x" || l.Array == "") {
				t.Errorf("m = %d: %s = %d (approximate %v), want %d", tc.m, key, lvals[i], l.Approximate, w)
			}
		}
		if len(ls) != len(wantLines) {
			t.Errorf("m = %d: %d line counts, want %d", tc.m, len(ls), len(wantLines))
		}
	}
	// Without sizes there is no bound to give: the error says to give them.
	if _, err := c.Hierarchy(); err == nil || !strings.Contains(err.Error(), "memory hierarchy of x: x[idx[4*i_out + i_in]] reads its subscripts from data") ||
		!strings.Contains(err.Error(), "give every parameter a value") {
		t.Errorf("Hierarchy: err = %v", err)
	}
	if got := c.IndirectArrays(); len(got) != 1 || got[0] != "x" {
		t.Errorf("IndirectArrays = %v, want [x]", got)
	}
}

// indirectBoundCases are kernels with indirect accesses beside affine
// ones of the same array and of others: a gather whose array is also
// read affinely and reread over a loop, and an atomic scatter into an
// array that work-items also read.
var indirectBoundCases = []struct {
	name, src string
	params    map[string]int64
	index     string // the index array, filled with random cells of target
	target    string
}{
	{"regather", `kernel regather
const LX = 4
domain [n, m] -> { [i, k] : 0 <= i < n and 0 <= k < 3 }
assume m >= n
array idx i32 [3*n]
array a f32 [n]
array x f32 [m]
array y f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
for i
  for k
    y[i] = y[i] + x[idx[3*i + k]]*a[i] + x[i]
  end
end
`, map[string]int64{"n": 10, "m": 12}, "idx", "x"},
	{"scatter", `kernel scatter
const LX = 4
domain [n, m] -> { [i, k] : 0 <= i < n and 0 <= k < 2 }
assume m >= 1
array idx i32 [n]
array w f32 [n]
array h f32 [m]
array z f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
for i
  for k
    z[i] = z[i] + w[i] + h[0]
  end
  atomic_add(h[idx[i]], 1.0f)
end
`, map[string]int64{"n": 11, "m": 5}, "idx", "h"},
}

// TestIndirectBoundAgainstInterpreter runs each kernel on several random
// index arrays and checks the counts at sizes against the accesses the
// interpreter performs: those of the arrays without indirect accesses
// exact, those of the arrays with them bounds that hold on every run (no
// footprint or line count below the run's, no repeat count above it).
func TestIndirectBoundAgainstInterpreter(t *testing.T) {
	for _, tc := range indirectBoundCases {
		t.Run(tc.name, func(t *testing.T) {
			k := parseSrc(t, tc.name, tc.src)
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			hs, vals, err := c.HierarchyAt(tc.params)
			if err != nil {
				t.Fatal(err)
			}
			ls, lvals, err := c.LinesAt(tc.params, 16)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(3, uint64(len(tc.name))))
			for run := range 8 {
				data := randomArrays(t, k, tc.params)
				idx := data[tc.index].([]int32)
				for i := range idx {
					// The first run gathers one cell only, the most reuse.
					idx[i] = int32(rng.Int64N(tc.params["m"]) * int64(min(run, 1)))
				}
				traced := traceHierarchy(t, k, tc.params, data)
				for i, h := range hs {
					key := h.Name
					if h.Array != "" {
						key += " " + h.Array
					}
					// A sum is a bound where it sums one.
					bounded := h.Array == tc.target || h.Array == "" && slices.ContainsFunc(hs, func(b HierarchyCount) bool { return b.Array == tc.target && b.Name == h.Name })
					reuse := h.Name == ReuseWorkItem || h.Name == ReuseWorkItemStored
					switch {
					case h.Approximate != bounded:
						t.Errorf("%s approximate %v, want %v", key, h.Approximate, bounded)
					case !bounded && vals[i] != traced[key]:
						t.Errorf("run %d: %s = %d, the interpreter's accesses give %d", run, key, vals[i], traced[key])
					case bounded && !reuse && vals[i] < traced[key]:
						t.Errorf("run %d: %s = %d, below the interpreter's %d", run, key, vals[i], traced[key])
					case bounded && reuse && vals[i] > traced[key]:
						t.Errorf("run %d: %s = %d, above the interpreter's %d", run, key, vals[i], traced[key])
					}
				}
				tracedLines := traceLines(t, k, tc.params, 16, data)
				for i, l := range ls {
					key := l.Name
					if l.Array != "" {
						key += " " + l.Array
					}
					bounded := l.Array == tc.target || l.Array == ""
					if l.Approximate != bounded || !bounded && lvals[i] != tracedLines[key] || lvals[i] < tracedLines[key] {
						t.Errorf("run %d: %s = %d (approximate %v), the interpreter's accesses give %d", run, key, lvals[i], l.Approximate, tracedLines[key])
					}
				}
			}
		})
	}
}

// TestIndirectBoundReuse checks the repeat counts of the arrays with
// indirect accesses against counts derived by hand. regather's x is
// read at x[i] three times a work-item: 2 repeats each of its 10, a
// lower bound whatever idx holds; y, read and stored, repeats 2 a
// work-item at stored cells. scatter's h, read at h[0] twice a
// work-item and stored by an atomic at cells only data knows, has 0
// repeats at unstored cells (h[0] may be stored) and 0 at stored ones
// (it may not), the lower bounds; w repeats once a work-item, and z,
// read and stored, once at stored cells.
func TestIndirectBoundReuse(t *testing.T) {
	want := map[string]map[string]int64{
		"regather": {ReuseWorkItem + " x": 20, ReuseWorkItem + " y": 0, ReuseWorkItemStored + " y": 20, ReuseWorkItem + " a": 20, ReuseWorkItem + " idx": 0},
		"scatter":  {ReuseWorkItem + " h": 0, ReuseWorkItemStored + " h": 0, ReuseWorkItem + " w": 11, ReuseWorkItem + " idx": 0, ReuseWorkItem + " z": 0, ReuseWorkItemStored + " z": 11},
	}
	for _, tc := range indirectBoundCases {
		c, err := Count(parseSrc(t, tc.name, tc.src))
		if err != nil {
			t.Fatal(err)
		}
		hs, vals, err := c.HierarchyAt(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for i, h := range hs {
			if h.Array != "" && (h.Name == ReuseWorkItem || h.Name == ReuseWorkItemStored) {
				got[h.Name+" "+h.Array] = vals[i]
			}
		}
		if len(got) != len(want[tc.name]) {
			t.Errorf("%s: repeats %v, want %v", tc.name, got, want[tc.name])
		}
		for key, w := range want[tc.name] {
			if g, ok := got[key]; !ok || g != w {
				t.Errorf("%s: %s = %d, want %d", tc.name, key, g, w)
			}
		}
	}
}

// TestIndirectBoundEdges checks the bounds where the launch or the
// gathered array is empty, negative or near 2^63 bytes. At n = 0 no
// work-item runs (the local iname i_in is empty, local and global size
// 0): every count is 0. At m = -3, without the assumption m >= 1, x has
// no extent to cap its cells by: refused, naming x and its extent. With
// x f64 of m*k = (2^30-1)(2^30+1) = 2^60-1 cells, 2^63-8 bytes in
// 2^57 lines of 64 bytes, the 10 executions are the bound at each
// place: 10 lines each.
func TestIndirectBoundEdges(t *testing.T) {
	c, err := Count(parseSrc(t, "gather_affine", gatherAffineKernel))
	if err != nil {
		t.Fatal(err)
	}
	empty := map[string]int64{"n": 0, "m": 5}
	_, vals, err := c.HierarchyAt(empty)
	if err != nil {
		t.Fatal(err)
	}
	_, lvals, err := c.LinesAt(empty, 64)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(append(vals, lvals...), func(v int64) bool { return v != 0 }) {
		t.Errorf("n = 0: hierarchy counts %v, lines %v, want all 0", vals, lvals)
	}

	unassumed, err := Count(parseSrc(t, "gather_affine", strings.Replace(gatherAffineKernel, "assume m >= 1\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	negative := map[string]int64{"n": 10, "m": -3}
	_, _, herr := unassumed.HierarchyAt(negative)
	_, _, lerr := unassumed.LinesAt(negative, 64)
	for _, err := range []error{herr, lerr} {
		if err == nil || !strings.Contains(err.Error(), "gather_affine.knl:6:7: kernel gather_affine:") ||
			!strings.Contains(err.Error(), "of x: extent m along dimension 0 is -3 at n=10, m=-3") {
			t.Errorf("m = -3: err = %v", err)
		}
	}

	src := strings.NewReplacer("[n, m]", "[n, m, k]", "array x f32 [m]", "array x f64 [m*k]", " + a[i]", "").Replace(gatherAffineKernel)
	wide, err := Count(parseSrc(t, "gather_wide", src))
	if err != nil {
		t.Fatal(err)
	}
	ls, lvals, err := wide.LinesAt(map[string]int64{"n": 10, "m": 1<<30 - 1, "k": 1<<30 + 1}, 64)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range ls {
		if l.Array == "x" && lvals[i] != 10 {
			t.Errorf("x f64 [2^60-1]: %s = %d, want 10", l.Name, lvals[i])
		}
	}
}
