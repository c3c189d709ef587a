package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestBlocksizeRanking scores the default fit's ranking of the quick PoCL
// table's work-group variants and checks the report's structure: the
// figures themselves are checked by hand in fit/report's tests.
func TestBlocksizeRanking(t *testing.T) {
	code, out, errOut := runBlocksize(t, "--ranking", "embedded:pocl-epyc-quick.arrow", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r rankingResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Device == "" || r.Backend != "opencl" || r.Apart != 0.05 || r.Tie != 0.001 {
		t.Errorf("device %q, backend %q, apart %v, tie %v", r.Device, r.Backend, r.Apart, r.Tie)
	}
	for k, want := range map[string][]string{"matmul_tiled": {"LX", "LY"}, "vector_scale_add": {"LX"}, "global_copy_strided": {"LX"}} {
		if got := r.GroupConsts[k]; !slices.Equal(got, want) {
			t.Errorf("work-group consts of %s: %v, want %v", k, got, want)
		}
	}
	var lines []string
	for _, l := range r.Rankings {
		lines = append(lines, l.Role+" "+l.Predictions)
		if l.Groups == 0 || l.Right+l.Wrong+l.Tied != l.Pairs || l.PickBest > l.Groups || l.PickTied > l.Groups {
			t.Errorf("%s %s: %+v", l.Role, l.Predictions, l.Ranking)
		}
		if l.FractionRight == nil || *l.FractionRight != float64(l.Right)/float64(l.Pairs) {
			t.Errorf("%s %s: fraction right %v of %d/%d", l.Role, l.Predictions, l.FractionRight, l.Right, l.Pairs)
		}
		if !(l.PickCost >= 1 && l.PickWorst >= l.PickCost) || l.Worst == nil || l.Worst.PickedS/l.Worst.BestS != l.PickWorst {
			t.Errorf("%s %s: pick cost %v, worst %v (%+v)", l.Role, l.Predictions, l.PickCost, l.PickWorst, l.Worst)
		}
	}
	if want := []string{"measurement held-out", "measurement in-sample", "test held-out"}; !slices.Equal(lines, want) {
		t.Fatalf("rankings %v, want %v", lines, want)
	}
	// The cross-validation cannot predict every row (the arithmetic class
	// alone exercises its operations), so fewer rows are held out.
	if ho, in := r.Rankings[0], r.Rankings[1]; ho.Rows >= in.Rows || len(r.Skipped) == 0 {
		t.Errorf("%d rows held out, %d in sample, skipped %v", ho.Rows, in.Rows, r.Skipped)
	}

	code, out, errOut = runBlocksize(t, "--ranking", "embedded:pocl-epyc-quick.arrow")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"work-group ranking of the default linear fit", "fraction right", "measurement     held-out", "worst pick"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

func TestBlocksizeRankingRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--ranking", "embedded:pocl-epyc-quick.arrow", "--device-file", "gtx460"}, "takes only --json, not --device-file"},
		{[]string{"--ranking"}, "requires at least 1 arg"},
	} {
		code, _, errOut := runBlocksize(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
