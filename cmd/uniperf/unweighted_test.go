package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestPredictUnweighted checks that a property the weights have no weight
// for is priced at zero with a warning naming it and its share of the
// counts, and that --strict refuses it: examples/reduction.knl stores
// once per group with stride 0, which no kernel of the shipped suite does.
// At n = 1024 groups, by hand: 1024 such stores among 131072 global loads,
// 130048 adds, local loads and local stores each, 458752 barriers and
// 1025 launch counts, 1024/(131072 + 1024 + 3*130048 + 458752 + 1025) =
// 0.10% of the counts.
func TestPredictUnweighted(t *testing.T) {
	weights := filepath.Join(t.TempDir(), "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+shippedTable, "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	kernel := filepath.Join("..", "..", "examples", "reduction.knl")
	code, out, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, kernel, "--param", "n=1024", "--json")
	want := "the weights have no weight for global.store.f32.stride=0 (count 1024, 0.1% of the kernel's counts); priced at zero (--strict refuses)"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Fatalf("predict: exit %d, stderr %q, want %q", code, stderr, want)
	}
	var p prediction
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, tm := range p.Terms {
		sum += tm.Seconds
		if tm.Property == "global.store.f32.stride=0" && (!tm.Unweighted || tm.Seconds != 0) {
			t.Errorf("term %+v: want unweighted at zero", tm)
		}
	}
	// The terms are listed by share and summed in property order, so the
	// sums may differ in the last bit.
	if p.Predicted <= 0 || math.Abs(sum-p.Predicted) > 1e-12*p.Predicted {
		t.Errorf("predicted %g, terms sum to %g", p.Predicted, sum)
	}
	code, _, stderr = runCommand(t, predictCmd, "predict", "--weights", weights, kernel, "--param", "n=1024", "--strict")
	if code != 2 || !strings.Contains(stderr, "no weight for global.store.f32.stride=0") {
		t.Errorf("predict --strict: exit %d, stderr %q", code, stderr)
	}
}
