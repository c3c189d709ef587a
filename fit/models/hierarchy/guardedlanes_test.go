package hierarchy

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
)

// TestGuardedLanesSteps checks Config.GuardedLanes's steps against
// counts derived by hand from the kernels' text. The convolution
// (examples/convolution_kernel.knl) at BX = 4, BY = 2 and a 3 x 3 filter
// sums, in each work-item, the TY x TX cells of acc over the filter's
// 9 points, each cell bounded by the image's edge at the work-item's
// position: the first lane's (yi = xi = 0) steps are 9 for each
// work-item whose own pixel lies in the image. At h = 4, w = 10:
//
//   - TX = 2, TY = 1: tiles 8 wide, 2 groups across; the first's 4
//     work-items and 2 of the second's (columns 8 and 9) have their
//     pixel in the image, 6 columns; tiles 2 high, 2 groups down, 4
//     rows: 6·4·9 = 216 steps, 2 lanes;
//   - TX = 1, TY = 2: tiles 4 wide, 3 groups across, 10 columns in
//     the image; 4 high, one group down, 2 rows: 10·2·9 = 180, 2 lanes;
//   - TX = 2, TY = 2: the same 6 columns as at TY = 1; one group down, whose 2 rows
//     of work-items have their pixel in the image: 6·2·9 = 108, 4 lanes;
//   - TX = 4, TY = 2: 8 lanes, more than 4: none;
//   - TX = TY = 1: one lane, every pixel, 4·10·9 = 360 whatever the
//     option (ScalarChain counts it alone).
//
// guarded_lanes_f32 at LX = 16, n = 300, nl = 5: each work-item whose
// first output, K*16*g + t, is below n waits on a chain of 5 steps. At
// K = 1 every output, 1500; at K = 2, groups of 32 outputs, 9 whole ones
// (144 work-items) and of the tenth, from 288, the 12 below 300: 156
// work-items, 780 steps; at K = 4, groups of 64, 4 whole ones and the
// fifth's 16 first outputs, 256 to 271: 80 work-items, 400 steps; at
// K = 8 none. reg_chain_f32's K accumulators are bounded by K alone, no
// work-item's id: PoCL packs them into vector instructions, and they
// count nothing.
func TestGuardedLanesSteps(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	const conv = "../../../examples/convolution_kernel.knl"
	const chain = "../../../measurekernels/library/reg_chain_f32.knl"
	const lanes = "../../../measurekernels/library/guarded_lanes_f32.knl"
	image, sums := map[string]int64{"h": 4, "w": 10}, map[string]int64{"n": 300, "nl": 5}
	tile := func(tx, ty int64) map[string]int64 {
		return map[string]int64{"BX": 4, "BY": 2, "TX": tx, "TY": ty, "FH": 3, "FW": 3}
	}
	for _, c := range []struct {
		kernel string
		consts map[string]int64
		params map[string]int64
		// want is the f32 steps with no guarded lanes (ScalarChain
		// alone), with at most 2, and with at most 4.
		want [3]int64
	}{
		{conv, tile(1, 1), image, [3]int64{360, 360, 360}},
		{conv, tile(2, 1), image, [3]int64{0, 216, 216}},
		{conv, tile(1, 2), image, [3]int64{0, 180, 180}},
		{conv, tile(2, 2), image, [3]int64{0, 0, 108}},
		{conv, tile(4, 2), image, [3]int64{0, 0, 0}},
		{lanes, map[string]int64{"LX": 16, "K": 1}, sums, [3]int64{1500, 1500, 1500}},
		{lanes, map[string]int64{"LX": 16, "K": 2}, sums, [3]int64{0, 780, 780}},
		{lanes, map[string]int64{"LX": 16, "K": 4}, sums, [3]int64{0, 0, 400}},
		{lanes, map[string]int64{"LX": 16, "K": 8}, sums, [3]int64{0, 0, 0}},
		{chain, map[string]int64{"K": 2}, map[string]int64{"n": 300, "nl": 16}, [3]int64{0, 0, 0}},
		{chain, map[string]int64{"K": 4}, map[string]int64{"n": 300, "nl": 16}, [3]int64{0, 0, 0}},
	} {
		k, err := env.Counter.Kernel(c.kernel, c.consts)
		if err != nil {
			t.Fatal(err)
		}
		for i, lanes := range []int64{0, 2, 4} {
			set := scalarChains
			set.lanes = lanes
			got, err := regChainSteps(k, c.params, set)
			if err != nil {
				t.Fatalf("%s %v: %v", c.kernel, c.consts, err)
			}
			want := map[string]int64{}
			if c.want[i] != 0 {
				want[ScalarChainPrefix+"f32"] = c.want[i]
			}
			if !mapsEqual(got, want) {
				t.Errorf("%s %v, at most %d guarded lanes: steps %v, want %v", c.kernel, c.consts, lanes, got, want)
			}
		}
	}
}

// TestGuardedLanesStepsCached asks the cached steps of one launch, as
// features do, for chain sets that differ in their guarded lanes alone,
// in one process, as hierstudy's forms +lanes2, +lanes and the chosen
// form (none) do: each gets its own count, those of
// TestGuardedLanesSteps (guarded_lanes_f32 at K = 4, LX = 16, n = 300, nl =
// 5: 80 work-items of 5 steps with at most 4 lanes, none with fewer),
// whatever was asked first.
func TestGuardedLanesStepsCached(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	c := models.Case{Kernel: "../../../measurekernels/library/guarded_lanes_f32.knl", Consts: map[string]int64{"LX": 16, "K": 4}, Params: map[string]int64{"n": 300, "nl": 5}}
	want := map[int64]int64{0: 0, 2: 0, 4: 400}
	for _, lanes := range []int64{0, 4, 2, 4, 0} {
		set := scalarChains
		set.lanes = lanes
		got, err := regChainStepsOf(env, c, set)
		if err != nil {
			t.Fatal(err)
		}
		if got[ScalarChainPrefix+"f32"] != want[lanes] {
			t.Errorf("at most %d guarded lanes: steps %v, want %s%d", lanes, got, ScalarChainPrefix+"f32=", want[lanes])
		}
	}
}

// TestGuardedLanesConfig checks that GuardedLanes is refused without
// ScalarChain, whose features it adds to, and below zero.
func TestGuardedLanesConfig(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{GuardedLanes: 4}, "without config.scalar_chain"},
		{Config{ScalarChain: true, GuardedLanes: -1}, "config.guarded_lanes -1"},
		{Config{ScalarChain: true, GuardedLanes: 4}, ""},
	} {
		err := c.cfg.checkPairs()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}
