package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// TestPredictDoubt checks the warning about a prediction resting on
// weights held at zero or weakly determined, on hand-built weights and a
// kernel whose counts at n = 1024 are known by hand: 1024 stride-1 f32
// loads, stores, min(loads, stores) and additions, 1024/256 = 4
// work-groups and one launch, 4101 counts in all. The loads' weight is
// held at zero: 1024/4101 = 24.97% of the counts. The additions' weight
// is weak: 2e-9·1024 = 2.048 µs of 1e-9·1024 + 1e-10·1024 + 2.048 µs +
// 1e-6·4 + 5e-6 = 12.1744 µs, 16.82% of the time. So --warn-share 0.25
// (the default) warns of neither, 0.2 of the held weight only, 0.1 of
// both.
func TestPredictDoubt(t *testing.T) {
	dir := t.TempDir()
	kernel := filepath.Join(dir, "inc.knl")
	src := "kernel inc\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\n" +
		"split i 256 i_out i_in\ntag i_out g.0, i_in l.0\nb[i] = a[i] + 1.0f\n"
	if err := os.WriteFile(kernel, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	props := []string{"flop.f32.add", "global.load.f32.stride=1", "global.minldst.f32.stride=1", "global.store.f32.stride=1", "launch.const", "launch.groups"}
	w := &fit.Weights{Device: "hand", Model: fit.ModelUnified, Version: "test", PropertySet: fit.PropertySetID(props),
		Properties: props, Values: []float64{2e-9, 0, 1e-10, 1e-9, 5e-6, 1e-6},
		Diagnostics: fit.Diagnostics{Rows: 6, Properties: 6, Rank: 6, NonNegative: true, AtZero: []string{"global.load.f32.stride=1"}, Weak: []string{"flop.f32.add"}}}
	weights := filepath.Join(dir, "w.arrow")
	if err := weightsio.WriteWeights(weights, w); err != nil {
		t.Fatal(err)
	}
	held := "25% of the counts are priced at zero by weights the fit held at zero (global.load.f32.stride=1 25%)"
	weak := "17% of the predicted time rests on weakly determined weights (flop.f32.add 17%;"
	for _, c := range []struct {
		share      string
		held, weak bool
	}{{"", false, false}, {"0.2", true, false}, {"0.1", true, true}, {"0.17", true, false}, {"0.16", true, true}} {
		args := []string{"predict", "--weights", weights, kernel, "--param", "n=1024", "--json"}
		if c.share != "" {
			args = append(args, "--warn-share", c.share)
		}
		code, out, stderr := runCommand(t, predictCmd, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if strings.Contains(stderr, held) != c.held || strings.Contains(stderr, weak) != c.weak {
			t.Errorf("--warn-share %q: stderr %q, want held %v, weak %v", c.share, stderr, c.held, c.weak)
		}
		var p prediction
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		if d := p.Predicted - 12.1744e-6; d > 1e-18 || d < -1e-18 {
			t.Errorf("predicted %g s, want 12.1744 µs", p.Predicted)
		}
	}
	for _, bad := range []string{"-0.1", "1.5", "NaN"} {
		if code, _, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, kernel, "--param", "n=1024", "--warn-share", bad); code != 2 || !strings.Contains(stderr, "--warn-share") {
			t.Errorf("--warn-share %s: exit %d, stderr %q", bad, code, stderr)
		}
	}
}

// TestValidateUnweighted checks that validate prices a property the
// weights have no weight for at zero, as predict does: the weights of the
// shipped table less launch.const predict every test row exactly as the
// same weights with launch.const at zero, which price it through the
// ordinary path; every test kernel launches once per row, so each is
// warned of, with its number of rows; --strict refuses.
func TestValidateUnweighted(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+shippedTable, "--out", full); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	w, err := weightsio.ReadWeights(full)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.Index(w.Properties, "launch.const")
	if i < 0 {
		t.Fatal("the fit has no weight for launch.const")
	}
	zero := *w
	zero.Values = slices.Clone(w.Values)
	zero.Values[i] = 0
	less := *w
	less.Properties = slices.Delete(slices.Clone(w.Properties), i, i+1)
	less.Values = slices.Delete(slices.Clone(w.Values), i, i+1)
	predicted := map[string][]float64{}
	rows := map[string]int{}
	for name, v := range map[string]*fit.Weights{"zero": &zero, "less": &less} {
		path := filepath.Join(dir, name+".arrow")
		if err := weightsio.WriteWeights(path, v); err != nil {
			t.Fatal(err)
		}
		code, out, stderr := runCommand(t, validateCmd, "validate", "--weights", path, embeddedPrefix+shippedTable, "--json")
		if code != 0 {
			t.Fatalf("validate %s: exit %d: %s", name, code, stderr)
		}
		var got validationJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		for _, c := range got.Cases {
			predicted[name] = append(predicted[name], *c.PredictedS)
			if name == "less" {
				rows[c.Kernel]++
			}
		}
		if name == "zero" {
			if strings.Contains(stderr, "no weight for") {
				t.Errorf("validate with launch.const at zero warns: %s", stderr)
			}
			continue
		}
		for kernel, n := range rows {
			want := fmt.Sprintf("warning: %s (%d of %d rows): the weights have no weight for launch.const (", kernel, n, n)
			if !strings.Contains(stderr, want) {
				t.Errorf("validate stderr %q lacks %q", stderr, want)
			}
		}
		if code, _, stderr := runCommand(t, validateCmd, "validate", "--weights", path, embeddedPrefix+shippedTable, "--strict"); code != 2 || !strings.Contains(stderr, "no weight for launch.const") {
			t.Errorf("validate --strict: exit %d, stderr %q", code, stderr)
		}
	}
	if len(rows) != 4 || !slices.Equal(predicted["zero"], predicted["less"]) {
		t.Errorf("rows per kernel %v; predicted with launch.const at zero %v, without it %v", rows, predicted["zero"], predicted["less"])
	}
}
