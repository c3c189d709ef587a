package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fitQuickWeights fits the default weights to the shipped PoCL quick
// table into a temporary file.
func fitQuickWeights(t *testing.T) string {
	t.Helper()
	weights := filepath.Join(t.TempDir(), "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+"pocl-epyc-quick.arrow", "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	return weights
}

// predictOne runs predict for one const and parameter binding.
func predictOne(t *testing.T, weights, kernel string, consts, params map[string]int64) prediction {
	t.Helper()
	args := []string{"predict", "--weights", weights, kernel, "--json"}
	for k, v := range consts {
		args = append(args, "--const", fmt.Sprintf("%s=%d", k, v))
	}
	for k, v := range params {
		args = append(args, "--param", fmt.Sprintf("%s=%d", k, v))
	}
	code, out, stderr := runCommand(t, predictCmd, args...)
	var p prediction
	if code != 0 || json.Unmarshal([]byte(out), &p) != nil {
		t.Fatalf("%v: exit %d: %s\n%s", args, code, stderr, out)
	}
	return p
}

// TestPredictSeveralConsts checks that several --const values, tied
// names and --configs (a file and stdin, JSON and CSV) predict what one
// predict per binding does.
func TestPredictSeveralConsts(t *testing.T) {
	weights := fitQuickWeights(t)
	check := func(label string, preds []prediction, want [][2]int64) {
		t.Helper()
		if len(preds) != len(want) {
			t.Fatalf("%s: %d predictions, want %d", label, len(preds), len(want))
		}
		for i, p := range preds {
			lx, n := want[i][0], want[i][1]
			if p.Consts["LX"] != lx || p.Params["n"] != n {
				t.Errorf("%s: prediction %d at %v %v, want LX=%d n=%d", label, i, p.Consts, p.Params, lx, n)
			}
			one := predictOne(t, weights, "global_copy", map[string]int64{"LX": lx}, map[string]int64{"n": n})
			if p.Predicted != one.Predicted {
				t.Errorf("%s: LX=%d n=%d: %g s, predict alone %g s", label, lx, n, p.Predicted, one.Predicted)
			}
		}
	}
	run := func(stdin string, args ...string) []prediction {
		t.Helper()
		predictCmd.SetIn(strings.NewReader(stdin))
		t.Cleanup(func() { predictCmd.SetIn(nil) })
		code, out, stderr := runCommand(t, predictCmd, append([]string{"predict", "--weights", weights, "global_copy", "--json"}, args...)...)
		var preds []prediction
		if code != 0 || json.Unmarshal([]byte(out), &preds) != nil {
			t.Fatalf("%v: exit %d: %s\n%s", args, code, stderr, out)
		}
		return preds
	}
	check("--const LX=64,256", run("", "--const", "LX=64,256", "--param", "n=4096,65536"),
		[][2]int64{{64, 4096}, {64, 65536}, {256, 4096}, {256, 65536}})
	check("CSV on stdin", run("LX,n\n128,8192\n32,1024\n", "--configs", "-"), [][2]int64{{128, 8192}, {32, 1024}})
	file := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(file, []byte("{\"LX\": 64}\n{\"LX\": 512}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("JSON lines with --param", run("", "--configs", file, "--param", "n=16384"), [][2]int64{{64, 16384}, {512, 16384}})

	code, _, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, "global_copy", "--configs", file, "--const", "LX=64", "--param", "n=64")
	if code != 2 || !strings.Contains(stderr, "binds LX, which --const binds too") {
		t.Errorf("a const bound twice: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCommand(t, predictCmd, "predict", "--weights", weights, "global_copy", "--const", "LX=LX=64", "--param", "n=64")
	if code != 2 || !strings.Contains(stderr, "tied to itself") {
		t.Errorf("--const LX=LX=64: exit %d: %s", code, stderr)
	}
}

// FuzzReadConfigs feeds --configs - arbitrary text: it must be an error or
// between one and maxParamSets configurations. The seeds
// (testdata/fuzz/FuzzReadConfigs) hold a JSON array, JSON lines and CSV.
func FuzzReadConfigs(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		configs, err := readConfigs("-", bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(configs) == 0 || len(configs) > maxParamSets {
			t.Fatalf("%d configurations", len(configs))
		}
	})
}
