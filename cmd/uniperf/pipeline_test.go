package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// shippedTable is the embedded PoCL table the pipeline tests run on.
const shippedTable = "pocl-epyc-quick.arrow"

// TestFitPredictValidate runs fit, predict and validate on the shipped
// table and checks the prediction of global_copy against its counts
// derived by hand: n loads and n stores of stride 1, as many of their
// minimum, ceil(n/LX) work-groups and one launch.
func TestFitPredictValidate(t *testing.T) {
	dir := t.TempDir()
	weights := filepath.Join(dir, "w.arrow")
	code, out, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+shippedTable, "--out", weights)
	if code != 0 || !strings.Contains(out, "wrote "+weights) {
		t.Fatalf("fit: exit %d: %s\n%s", code, stderr, out)
	}
	w, err := weightsio.ReadWeights(weights)
	if err != nil {
		t.Fatal(err)
	}
	data, err := datasets.ShippedBytes(shippedTable)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if len(w.Inputs) != 1 || w.Inputs[0].SHA256 != hex.EncodeToString(sum[:]) || !w.Diagnostics.NonNegative {
		t.Errorf("weights record inputs %+v, non-negative %v", w.Inputs, w.Diagnostics.NonNegative)
	}

	const n, lx = 3000000, 128
	weight := map[string]float64{}
	for i, p := range w.Properties {
		weight[p] = w.Values[i]
	}
	want := weight["global.load.f32.stride=1"]*n + weight["global.store.f32.stride=1"]*n +
		weight["global.minldst.f32.stride=1"]*n + weight["launch.groups"]*((n+lx-1)/lx) + weight["launch.const"]
	code, out, stderr = runCommand(t, predictCmd, "predict", "--weights", weights, "global_copy",
		"--param", "n=3000000", "--const", "LX=128", "--json")
	if code != 0 {
		t.Fatalf("predict: exit %d: %s", code, stderr)
	}
	var p prediction
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("predict --json: %v\n%s", err, out)
	}
	if math.Abs(p.Predicted-want) > 1e-9*want || p.Device != w.Device || len(p.Terms) == 0 {
		t.Errorf("predicted %g s on %q, want %g s from the hand counts", p.Predicted, p.Device, want)
	}

	code, out, stderr = runCommand(t, predictCmd, "predict", "--weights", weights, "global_copy", "--sweep", "n=2^16..2^20")
	if code != 0 || strings.Count(out, "\n") != 6 || !strings.Contains(out, "n=1048576") {
		t.Errorf("predict --sweep: exit %d: %s\n%s", code, stderr, out)
	}

	svg := filepath.Join(dir, "v.svg")
	code, out, stderr = runCommand(t, validateCmd, "validate", "--weights", weights, embeddedPrefix+shippedTable, "--plot", svg)
	if code != 0 || !strings.Contains(out, "cross-kernel") || !strings.Contains(out, "nbody") {
		t.Fatalf("validate: exit %d: %s\n%s", code, stderr, out)
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("validate --plot wrote no SVG: %v", err)
	}
	code, out, stderr = runCommand(t, validateCmd, "validate", "--weights", weights, embeddedPrefix+shippedTable, "--coverage")
	for _, want := range []string{"weights of the test kernels' properties", "flop.f32.pow", "predictions of the test rows", "leverage"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("validate --coverage: exit %d, output lacks %q: %s\n%s", code, want, stderr, out)
		}
	}
	code, out, stderr = runCommand(t, validateCmd, "validate", "--cv", embeddedPrefix+shippedTable, "--free")
	if code != 0 || !strings.Contains(out, "matmul_tiled") {
		t.Errorf("validate --cv: exit %d: %s\n%s", code, stderr, out)
	}
}

func TestPipelineErrors(t *testing.T) {
	dir := t.TempDir()
	table := embeddedPrefix + shippedTable
	data, err := datasets.ShippedBytes(shippedTable)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.arrow")
	if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.weights.arrow")
	if err := weightsio.WriteWeights(foreign, &fit.Weights{Device: "pthread-skylake-avx512-AMD EPYC", Model: fit.ModelUnified, Version: "0.0.1",
		PropertySet: "sha256:0", Properties: []string{"global.load.float.stride1"}, Values: []float64{1e-9}}); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.weights.arrow")
	if err := weightsio.WriteWeights(other, &fit.Weights{Device: "Another GPU", Model: fit.ModelUnified, Version: "0.0.1",
		PropertySet: "sha256:0", Properties: []string{"launch.const"}, Values: []float64{1e-5}}); err != nil {
		t.Fatal(err)
	}
	fewer := filepath.Join(dir, "fewer.arrow")
	shipped, err := datasets.Decode(shippedTable, data)
	if err != nil {
		t.Fatal(err)
	}
	shipped.Rows = shipped.Rows[1:]
	if err := datasets.WriteFile(fewer, shipped); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", table, "--out", good); code != 0 {
		t.Fatalf("fit: %s", stderr)
	}
	for _, c := range []struct {
		cmd  *cobra.Command
		args []string
		want string
	}{
		{fitCmd, []string{"fit", table}, "--out is required"},
		{fitCmd, []string{"fit", filepath.Join(dir, "none.arrow"), "--out", good}, "no such file"},
		{fitCmd, []string{"fit", truncated, "--out", good}, truncated},
		{fitCmd, []string{"fit", foreign, "--out", good}, "not a uniperf measurement table"},
		{fitCmd, []string{"fit", "embedded:none.arrow", "--out", good}, "no such embedded table"},
		{fitCmd, []string{"fit", table, table, "--out", good}, "given twice"},
		{predictCmd, []string{"predict", "global_copy", "--param", "n=5"}, "--weights is required"},
		{predictCmd, []string{"predict", "--weights", good, "global_copy"}, "give the kernel's parameters"},
		{predictCmd, []string{"predict", "--weights", foreign, "global_copy", "--param", "n=5"}, "another property set"},
		{predictCmd, []string{"predict", "--weights", good, "no_such_kernel", "--param", "n=5"}, "neither a .knl file nor a library kernel"},
		{predictCmd, []string{"predict", "--weights", good, "global_copy", "--param", "m=5"}, "global_copy has no parameter m"},
		{predictCmd, []string{"predict", "--weights", good, "matmul_tiled", "--param", "n=5"}, "missing parameter m"},
		{predictCmd, []string{"predict", "--weights", good, "global_copy", "--param", "n=0"}, "assum"},
		{predictCmd, []string{"predict", "--weights", good, filepath.Join(dir, "none.knl"), "--param", "n=5"}, "none.knl"},
		{validateCmd, []string{"validate", table}, "either --weights"},
		{validateCmd, []string{"validate", "--weights", other, table}, "validate a device with its own weights"},
		{validateCmd, []string{"validate", "--weights", good, "--role", "train", table}, "--role"},
		{validateCmd, []string{"validate", "--cv", "--coverage", table}, "give --weights"},
		{validateCmd, []string{"validate", "--weights", good, "--coverage", truncated}, truncated},
		{validateCmd, []string{"validate", "--weights", good, "--coverage", fewer}, "fitted on other tables (" + table + ")"},
		{fitCmd, []string{"fit", table, "--coverage", "--model", "cycles", "--out", good}, "--coverage, --no-grid-fill, --one-saturation, --no-ties, --own-ldg, --ldg-fallback and --fill-from concern the linear model"},
		{fitCmd, []string{"fit", table, "--ldg-fallback", "--own-ldg", "--out", good}, "--ldg-fallback keeps the strided readonly loads' tie"},
		{validateCmd, []string{"validate", "--cv", "--ldg-fallback", "--no-ties", table}, "give one or the other"},
		{validateCmd, []string{"validate", "--weights", good, "--ldg-fallback", table}, "set up the fits of --cv; --weights validates weights already fitted"},
		{validateCmd, []string{"validate", "--weights", good, "--own-ldg", table}, "set up the fits of --cv"},
		{validateCmd, []string{"validate", "--weights", good, "--fill-from", table, table}, "set up the fits of --cv"},
		{fitCmd, []string{"fit", table, "--no-ties", "--model", "xu", "--out", good}, "concern the linear model's fit, not the xu model's"},
	} {
		code, _, stderr := runCommand(t, c.cmd, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestFitTies checks the wiring of the filled-stride ties: the default fit
// of a GPU table records the cross-validation that chose them and ties
// exactly when it prefers them, and says so; --no-ties fits apart.
func TestFitTies(t *testing.T) {
	dir := t.TempDir()
	for _, noTies := range []bool{false, true} {
		path := filepath.Join(dir, "w.arrow")
		args := []string{"fit", embeddedPrefix + "h100-cuda-paper.arrow", "--out", path}
		if noTies {
			args = append(args, "--no-ties")
		}
		code, out, stderr := runCommand(t, fitCmd, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		w, err := weightsio.ReadWeights(path)
		if err != nil {
			t.Fatal(err)
		}
		c := w.Diagnostics.TieCheck
		switch {
		case noTies && (len(w.Ties) > 0 || c != nil || strings.Contains(out, "tied")):
			t.Errorf("--no-ties: ties %v, check %+v in the weights:\n%s", w.Ties, c, out)
		case noTies:
		case c == nil || (len(w.Ties) > 0) != (c.Tied < c.Apart):
			t.Errorf("ties %v with check %+v: want ties exactly where the tied error is the lower", w.Ties, c)
		case !strings.Contains(out, "filled strided accesses"):
			t.Errorf("the report does not say how the ties were chosen:\n%s", out)
		}
		for p, to := range w.Ties {
			if a, _ := w.Weight(p); a != w.Values[slices.Index(w.Properties, to)] {
				t.Errorf("%s weighs %g, not %s's", p, a, to)
			}
		}
	}
}
