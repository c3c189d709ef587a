package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var convolutionMaps = []string{"--map", "BX=block_size_x", "--map", "BY=block_size_y", "--map", "TX=tile_size_x", "--map", "TY=tile_size_y", "--map", "PAD=0"}

// TestTuneConvolutionEqualsPredict ranks the shipped convolution space
// (432 bindings of block and tile sizes, each counted at the sizes only)
// and checks every configuration's prediction in the T4 output against
// uniperf predict's for its binding (counted symbolically), all 432
// given to one predict through --configs.
func TestTuneConvolutionEqualsPredict(t *testing.T) {
	const weights = "../../datasets/tuning/pocl.weights.arrow"
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	args := append([]string{"tune", "../../examples/convolution_kernel.knl", "--space", "../../examples/convolution_kernel.space.json",
		"--weights", weights, "--param", "h=512", "--param", "w=512", "--out", out}, convolutionMaps...)
	if code, _, stderr := runCommand(t, tuneCmd, args...); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var t4 struct {
		Results []struct {
			Configuration map[string]int64
			Measurements  []struct{ Value float64 }
		}
	}
	if err := json.Unmarshal(data, &t4); err != nil {
		t.Fatal(err)
	}
	if len(t4.Results) != 432 {
		t.Fatalf("%d results, want 432", len(t4.Results))
	}
	csv := "BX,BY,TX,TY,PAD,h,w\n"
	for _, r := range t4.Results {
		c := r.Configuration
		csv += fmt.Sprintf("%d,%d,%d,%d,0,512,512\n", c["block_size_x"], c["block_size_y"], c["tile_size_x"], c["tile_size_y"])
	}
	configs := filepath.Join(dir, "configs.csv")
	if err := os.WriteFile(configs, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, "../../examples/convolution_kernel.knl", "--configs", configs, "--json")
	var preds []prediction
	if code != 0 || json.Unmarshal([]byte(stdout), &preds) != nil {
		t.Fatalf("predict: exit %d: %s\n%.300s", code, stderr, stdout)
	}
	if len(preds) != len(t4.Results) {
		t.Fatalf("predict: %d predictions, want %d", len(preds), len(t4.Results))
	}
	for i, r := range t4.Results {
		c, p := r.Configuration, preds[i]
		if p.Consts["BX"] != c["block_size_x"] || p.Consts["BY"] != c["block_size_y"] || p.Consts["TX"] != c["tile_size_x"] || p.Consts["TY"] != c["tile_size_y"] {
			t.Fatalf("prediction %d is of %v, want the configuration %v", i, p.Consts, c)
		}
		if got := r.Measurements[0].Value; got != p.Predicted*1e3 {
			t.Errorf("%v: tune %g ms, predict %g ms", c, got, p.Predicted*1e3)
		}
	}
}

// TestTuneComparesLaunches ranks the shipped convolution space at the
// image size of its T1 file (4096 x 4096: each binding launches 4096 /
// (BX*TX) x 4096 / (BY*TY) groups, as its GlobalSize says) and at half
// its height, where every one of the 432 bindings launches half the
// groups along y that Kernel Tuner would.
func TestTuneComparesLaunches(t *testing.T) {
	args := []string{"tune", "../../examples/convolution_kernel.knl", "--space", "../../examples/convolution_kernel.space.json",
		"--weights", "../../datasets/tuning/pocl.weights.arrow", "--param", "w=4096", "--top", "1"}
	args = append(args, convolutionMaps...)
	for _, c := range []struct{ h, want string }{{"4096", ""}, {"2048", "432 of 432 const bindings launch otherwise"}} {
		code, _, stderr := runCommand(t, tuneCmd, append(args, "--param", "h="+c.h)...)
		if code != 0 {
			t.Fatalf("h=%s: exit %d: %s", c.h, code, stderr)
		}
		if got := strings.Contains(stderr, "launch otherwise"); got != (c.want != "") || !strings.Contains(stderr, c.want) {
			t.Errorf("h=%s: stderr %q, want %q", c.h, stderr, c.want)
		}
	}
}
