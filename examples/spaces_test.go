package examples_test

import (
	"os"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/tune"
)

// spaceCase is a kernel with a tuning space that ships beside it: how
// its consts follow from the tunables (tune's --map), and sizes to check
// every configuration at, which no tile divides where the kernel allows
// it. Matmul's n = 33 is one more than a multiple of every tile and slab
// 2 to 32 wide, so those leave a last group or slab one row or column
// wide, and wider ones a single partial group: each configuration gets
// as many groups and slabs on each axis as at 45, for 60% of the
// CPU time.
type spaceCase struct {
	kernel string
	maps   map[string]string
	params map[string]int64
}

var spaceCases = []spaceCase{
	{"convolution_kernel", map[string]string{"BX": "block_size_x", "BY": "block_size_y", "TX": "tile_size_x", "TY": "tile_size_y", "PAD": "0"},
		map[string]int64{"h": 13, "w": 37}},
	{"matmul_kernel", map[string]string{"BX": "block_size_x", "BY": "block_size_y", "TX": "tile_size_x", "TY": "tile_size_y"},
		map[string]int64{"n": 33}},
}

// TestTuningSpaces checks every configuration of each shipped space: the
// kernel takes its binding of the consts, its counts equal what the
// reference interpreter executes, and the interpreter's results equal
// the Go reimplementation of the original, as TestExamplesCount does for
// the kernel's defaults. Under -short it checks the configurations of
// pairwiseCover, in which every two tunables take every pair of values
// they take together in the space (24 of matmul's 272 configurations, 48
// of convolution's 432); make test-long checks them all.
func TestTuningSpaces(t *testing.T) {
	for _, sc := range spaceCases {
		t.Run(sc.kernel, func(t *testing.T) {
			data, err := os.ReadFile(sc.kernel + ".space.json")
			if err != nil {
				t.Fatal(err)
			}
			space, err := tune.ReadSpace(data, sc.kernel+".space.json")
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(sc.kernel + ".knl")
			if err != nil {
				t.Fatal(err)
			}
			k0 := parse(t, sc.kernel)
			var names []string
			for _, c := range k0.Consts {
				names = append(names, c.Name)
			}
			m, _, err := tune.NewMapping(space, names, sc.maps)
			if err != nil {
				t.Fatal(err)
			}
			configs, err := space.Configs()
			if err != nil {
				t.Fatal(err)
			}
			if len(configs) < 200 {
				t.Fatalf("%d configurations, want at least 200", len(configs))
			}
			if testing.Short() {
				configs = pairwiseCover(configs)
			}
			want := kernels[sc.kernel].want
			for _, cfg := range configs {
				consts, err := m.Bind(space, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := checkBinding(t, sc, src, consts, want); err != nil {
					t.Fatalf("%s: %v", space.Label(cfg), err)
				}
			}
		})
	}
}

// pairwiseCover picks configurations of configs, in their order, until
// every pair of values that two tunables take together in some
// configuration is taken by a picked one: each time the one that takes
// the most pairs not yet taken, the first of those on a tie.
func pairwiseCover(configs []tune.Config) []tune.Config {
	type pair struct{ i, vi, j, vj int32 }
	pairs := func(c tune.Config) []pair {
		var out []pair
		for i := range c {
			for j := i + 1; j < len(c); j++ {
				out = append(out, pair{int32(i), c[i], int32(j), c[j]})
			}
		}
		return out
	}
	open := map[pair]bool{}
	for _, c := range configs {
		for _, p := range pairs(c) {
			open[p] = true
		}
	}
	var picked []tune.Config
	for len(open) > 0 {
		best, most := 0, 0
		for k, c := range configs {
			n := 0
			for _, p := range pairs(c) {
				if open[p] {
					n++
				}
			}
			if n > most {
				best, most = k, n
			}
		}
		for _, p := range pairs(configs[best]) {
			delete(open, p)
		}
		picked = append(picked, configs[best])
	}
	return picked
}

// checkBinding counts the kernel with its consts bound, runs it in the
// interpreter at sc.params and compares counts and results.
func checkBinding(t *testing.T, sc spaceCase, src []byte, consts map[string]int64, want func(map[string]int64, map[string][]float32) map[string][]float32) error {
	t.Helper()
	k, err := counts.ParseKernel(sc.kernel+".knl", src, consts)
	if err != nil {
		return err
	}
	c, err := counts.Count(k)
	if err != nil {
		return err
	}
	if err := c.CheckBounds(sc.params); err != nil {
		return err
	}
	in := inputs(k, sc.params)
	data := map[string]any{}
	for n, s := range in {
		data[n] = toRun(k, n, s)
	}
	tl, err := counts.Run(k, sc.params, data, nil)
	if err != nil {
		return err
	}
	got, err := c.Eval(sc.params)
	if err != nil {
		return err
	}
	checkTotals(t, c, fold(got), tl.Totals())
	for arr, w := range want(sc.params, in) {
		compare(t, sc.kernel, arr, fromRun(data[arr]), w)
	}
	return nil
}
