package main

import (
	"encoding/json"
	"math"
	"os"
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

// TestPredictMostlyUnpriced checks that predict refuses a prediction
// where more than half of the counts have no weight, and that
// --allow-unpriced prints it: an i32 copy, whose integer loads and stores
// no kernel of the shipped suite prices. At n = 1024 in groups of 256, by
// hand: 1024 loads, 1024 stores and 1024 minima of them unpriced among
// those and 4 + 1 launch counts, 3072/3077 = 99.8% of the counts.
func TestPredictMostlyUnpriced(t *testing.T) {
	dir := t.TempDir()
	weights := filepath.Join(dir, "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+shippedTable, "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	kernel := filepath.Join(dir, "icopy.knl")
	src := "kernel icopy\nconst LX = 256\ndomain [n] -> { [i] : 0 <= i < n }\narray a i32 [n]\narray b i32 [n]\n" +
		"split i LX i_out i_in\ntag i_out g.0, i_in l.0\nb[i] = a[i]\n"
	if err := os.WriteFile(kernel, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, kernel, "--param", "n=1024")
	want := "99.8% of the kernel's counts have no weight (global.load.i32.stride=1, global.minldst.i32.stride=1, global.store.i32.stride=1), so the prediction would be mostly launch overhead"
	if code != 2 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "--allow-unpriced") {
		t.Errorf("predict: exit %d, stderr %q, want exit 2 and %q", code, stderr, want)
	}
	code, out, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, kernel, "--param", "n=1024", "--allow-unpriced")
	if code != 0 || out == "" || !strings.Contains(stderr, "no weight for global.load.i32.stride=1") {
		t.Errorf("predict --allow-unpriced: exit %d, output %q, stderr %q", code, out, stderr)
	}
}
