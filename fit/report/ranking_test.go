package report

import (
	"math"
	"testing"
)

// rankingCases are four groups of work-group variants, a singleton and
// two unpredicted cases, scored by hand in TestRankVariants.
func rankingCases() []Case {
	c := func(kernel string, n int64, consts map[string]int64, measured, predicted float64) Case {
		return Case{Kernel: kernel, Params: map[string]int64{"n": n}, Consts: consts, Measured: measured, Predicted: predicted}
	}
	return []Case{
		// A: k n=1 S=1.
		c("k", 1, map[string]int64{"LX": 32, "S": 1}, 1.0, 2.0),
		c("k", 1, map[string]int64{"LX": 64, "S": 1}, 1.5, 3.0),
		c("k", 1, map[string]int64{"LX": 128, "S": 1}, 1.02, 2.001),
		// B: k n=1 S=2, told apart from A by S, not a work-group const.
		c("k", 1, map[string]int64{"LX": 32, "S": 2}, 2.0, 1.0),
		c("k", 1, map[string]int64{"LX": 64, "S": 2}, 1.0, 2.0),
		c("k", 1, map[string]int64{"LX": 128, "S": 2}, 0.5, 0), // not predicted
		// C: k n=2 S=1.
		c("k", 2, map[string]int64{"LX": 32, "S": 1}, 3.0, 1.0),
		c("k", 2, map[string]int64{"LX": 64, "S": 1}, 4.0, 1.0005),
		// D: j n=1, two work-group consts.
		c("j", 1, map[string]int64{"LX": 16, "LY": 16}, 1.0, 1.0),
		c("j", 1, map[string]int64{"LX": 32, "LY": 8}, 2.0, 3.0),
		{Kernel: "j", Params: map[string]int64{"n": 1}, Consts: map[string]int64{"LX": 64, "LY": 4}, Measured: 0.1, Err: "cannot"},
		// E: a single variant, no group.
		c("j", 2, map[string]int64{"LX": 16, "LY": 16}, 1.0, 1.0),
	}
}

var rankingConsts = map[string][]string{"k": {"LX"}, "j": {"LY", "LX"}}

func TestGroupVariants(t *testing.T) {
	gs := GroupVariants(rankingCases(), rankingConsts)
	want := []struct {
		label    string
		variants []string
	}{
		{"k n=1 S=1", []string{"LX=32", "LX=64", "LX=128"}},
		{"k n=1 S=2", []string{"LX=32", "LX=64"}},
		{"k n=2 S=1", []string{"LX=32", "LX=64"}},
		{"j n=1", []string{"LX=16 LY=16", "LX=32 LY=8"}},
	}
	if len(gs) != len(want) {
		t.Fatalf("%d groups, want %d: %+v", len(gs), len(want), gs)
	}
	for i, w := range want {
		if got := gs[i].Label(); got != w.label {
			t.Errorf("group %d is %q, want %q", i, got, w.label)
		}
		if len(gs[i].Cases) != len(w.variants) {
			t.Errorf("group %s has %d variants, want %d", w.label, len(gs[i].Cases), len(w.variants))
			continue
		}
		for j, v := range w.variants {
			if got := gs[i].Variant(j); got != v {
				t.Errorf("group %s variant %d is %q, want %q", w.label, j, got, v)
			}
		}
	}
}

func TestRankVariants(t *testing.T) {
	r := RankVariants(GroupVariants(rankingCases(), rankingConsts))
	// Pairs by hand:
	//   A: 32/64 measured 1.5× apart, predicted 2 < 3: right; 32/128 1.02
	//      apart: close; 64/128 1.47× apart, predicted 3 > 2.001 with 128
	//      faster: right.
	//   B: 2× apart, the slower (LX=32) predicted faster: wrong.
	//   C: 4/3 apart, predictions 1 and 1.0005 within 0.1%: tied.
	//   D: 2× apart, predicted 1 < 3: right.
	// Picks: A's least prediction (LX=32, 2.0) ties LX=128 (2.001), so the
	// pick is the slower of them, LX=128: cost 1.02/1.0. B picks LX=32: 2.0.
	// C ties: the pick is LX=64, 4/3. D picks the fastest: 1.
	want := Ranking{Groups: 4, Pairs: 5, Right: 3, Wrong: 1, Tied: 1, Close: 1, PickBest: 1, PickTied: 2, PickWorst: 2}
	got := r
	got.PickCost, got.Worst = 0, nil
	if got != want {
		t.Errorf("ranking %+v, want %+v", got, want)
	}
	if g := math.Pow(1.02*2*4.0/3, 0.25); math.Abs(r.PickCost-g) > 1e-12 {
		t.Errorf("pick cost geomean %v, want %v", r.PickCost, g)
	}
	w := WorstPick{Group: "k n=1 S=2", Picked: "LX=32", PickedS: 2, Best: "LX=64", BestS: 1}
	if r.Worst == nil || *r.Worst != w {
		t.Errorf("worst pick %+v, want %+v", r.Worst, w)
	}
	if f := r.FractionRight(); f != 0.6 {
		t.Errorf("fraction right %v, want 0.6", f)
	}
}

func TestRankVariantsEmpty(t *testing.T) {
	r := RankVariants(nil)
	if r.Groups != 0 || r.Worst != nil || r.PickCost != 0 || !math.IsNaN(r.FractionRight()) {
		t.Errorf("no groups: %+v, fraction right %v", r, r.FractionRight())
	}
}
