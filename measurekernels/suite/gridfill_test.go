package suite

import (
	"reflect"
	"slices"
	"testing"
)

// The three grid-fill classes vary only the number of groups, ng = N =
// 2^t from one group (p = 0) up, at fixed work per work-item K: the paper
// suite runs t = 0 to 11 at five work-group sizes and keeps one size
// whatever the time budget, and a second variant at ng = 3·2^t, so that
// the busiest unit's work-items fall between powers of two too (3, 6, 12
// groups a unit at 396, 792, 1584 groups on 132 units), where a
// saturation between 512 and 1024 shows; the quick suite runs t = 0 and
// 3 at two sizes, one variant.
// grid_fill_local's K counts rounds over its local array of M = 32
// elements, its parameter nr rather than nk: K = 32 rounds make 1024
// steps, a quarter of grid_fill_chain's 4096, its step being a local
// load, an addition and an rsqrt rather than an addition.
func TestGridFillClasses(t *testing.T) {
	wantK := map[string]int64{"grid_fill_chain": 4096, "grid_fill_stream": 64, "grid_fill_local": 32}
	kParam := map[string]string{"grid_fill_chain": "nk", "grid_fill_stream": "nk", "grid_fill_local": "nr"}
	for _, c := range []struct {
		suite  string
		t      []int
		groups [][]int64
		ng     []int64 // multiples of 2^t, one per variant
	}{
		{"paper", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, [][]int64{{64}, {128}, {256}, {512}, {1024}}, []int64{1, 3}},
		{"quick", []int{0, 3}, [][]int64{{64}, {256}}, []int64{1}},
	} {
		s, err := Load(c.suite)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, k := range s.Kernels {
			K, ok := wantK[k.Kernel]
			if !ok {
				continue
			}
			seen[k.Kernel] = true
			if k.Class != k.Kernel || k.Role != "measurement" || k.Groups != "1d" {
				t.Errorf("%s %s: class %s, role %s, groups %s", c.suite, k.Kernel, k.Class, k.Role, k.Groups)
			}
			if want := (Sizes{P: []int{0}, T: c.t, Step: 1}); !reflect.DeepEqual(k.Sizes, want) {
				t.Errorf("%s %s: sizes %+v, want %+v", c.suite, k.Kernel, k.Sizes, want)
			}
			if !reflect.DeepEqual(k.GroupSizes, c.groups) || k.MinSizes != 1 {
				t.Errorf("%s %s: group sizes %v, min sizes %d", c.suite, k.Kernel, k.GroupSizes, k.MinSizes)
			}
			cases, err := s.Cases(k, "large", 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := len(c.ng) * len(c.t) * len(c.groups); len(cases) != want {
				t.Errorf("%s %s: %d cases, want %d", c.suite, k.Kernel, len(cases), want)
			}
			seenNG := map[int64]int{}
			for _, cs := range cases {
				ng := cs.Params["ng"]
				if ng%(1<<cs.T) != 0 || !slices.Contains(c.ng, ng>>cs.T) {
					t.Errorf("%s %s: ng = %d at t = %d, want 2^t times one of %v", c.suite, k.Kernel, ng, cs.T, c.ng)
				}
				seenNG[ng>>cs.T]++
				if want := map[string]int64{"ng": ng, kParam[k.Kernel]: K}; !reflect.DeepEqual(cs.Params, want) {
					t.Errorf("%s %s: params %v, want %v", c.suite, k.Kernel, cs.Params, want)
				}
			}
			for _, m := range c.ng {
				if seenNG[m] != len(c.t)*len(c.groups) {
					t.Errorf("%s %s: %d cases at ng = %d·2^t, want %d", c.suite, k.Kernel, seenNG[m], m, len(c.t)*len(c.groups))
				}
			}
		}
		for k := range wantK {
			if !seen[k] {
				t.Errorf("suite %s lacks %s", c.suite, k)
			}
		}
	}
}
