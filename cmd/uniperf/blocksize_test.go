package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// runBlocksize runs uniperf blocksize with args and returns the exit
// status, the standard output and what was reported on stderr.
func runBlocksize(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out bytes.Buffer
	reset := func() {
		blocksizeCmd.SetOut(nil)
		blocksizeOpts = blocksizeOptions{}
		for _, name := range []string{"runs", "discard", "json"} {
			f := blocksizeCmd.Flags().Lookup(name)
			_ = f.Value.Set(f.DefValue)
		}
		// A slice flag set once appends what it is given next to its
		// value: emptied here, it takes --model's list alone, and the
		// default goes in below only when --model is not given.
		_ = blocksizeCmd.Flags().Lookup("model").Value.(pflag.SliceValue).Replace(nil)
		blocksizeCmd.Flags().VisitAll(func(f *pflag.Flag) { f.Changed = false })
	}
	reset()
	t.Cleanup(reset)
	if !slices.ContainsFunc(args, func(a string) bool { return a == "--model" || strings.HasPrefix(a, "--model=") }) {
		blocksizeOpts.models = []string{"xu", "resios"}
	}
	blocksizeCmd.SetOut(&out)
	var code int
	errOut := captureStderr(t, func() { code = run(append([]string{"blocksize"}, args...)) })
	return code, out.String(), errOut
}

// TestBlocksizeGTX460 ranks matmul_tiled's shapes on the GTX 460 from its
// device file. The occupancy columns follow from the limits by hand:
// 16×16 is 8 warps, 6 blocks fill the 48 warps; 8×4 is one warp, 8
// blocks (the block limit) hold 8 warps.
func TestBlocksizeGTX460(t *testing.T) {
	code, out, errOut := runBlocksize(t, "matmul_tiled", "--device-file", "gtx460",
		"--param", "n=1024", "--param", "m=1024", "--param", "ell=1024", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r blocksizeResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Groups) != 2 || r.Heuristic == "" || r.Calibrated != "" {
		t.Errorf("groups %v, heuristic %q, calibrated %q", r.Groups, r.Heuristic, r.Calibrated)
	}
	occ := map[string][2]int{}
	for _, c := range r.Candidates {
		if c.Occupancy == nil {
			t.Fatalf("%s: %s", c.Label, c.Error)
		}
		occ[c.Label] = [2]int{c.Occupancy.BlocksPerSM, c.Occupancy.ActiveWarps}
		for _, m := range []string{"xu", "resios"} {
			if p := c.Predictions[m]; p.Error != "" || p.Rank == 0 || !(p.Seconds > 0) {
				t.Errorf("%s under %s: %+v", c.Label, m, p)
			}
		}
	}
	if occ["LX=16 LY=16"] != [2]int{6, 48} || occ["LX=8 LY=4"] != [2]int{8, 8} {
		t.Errorf("occupancies %v", occ)
	}
	code, out, _ = runBlocksize(t, "global_copy", "--device-file", "gtx460", "--param", "n=65536", "--sizes", "64,256")
	if code != 0 || !strings.Contains(out, "LX=64 ") || !strings.Contains(out, "LX=256 ") || strings.Contains(out, "LX=128") {
		t.Errorf("--sizes: exit %d\n%s", code, out)
	}
}

// TestBlocksizeMeasure times three group sizes of global_copy on PoCL and
// reports each model's Spearman correlation with them. Under -short it
// leaves out resios, whose calibration on the PoCL table took six of its
// seven CPU-s: the Spearman is the same code for every model, xu stands
// for the calibrated analytical ones and linear for the fitted one,
// TestBlocksizeGTX460 runs resios in blocksize on published parameters,
// and TestDemoSummaryCache calibrates resios on a PoCL table.
func TestBlocksizeMeasure(t *testing.T) {
	models := []string{"xu", "resios", "linear"}
	if testing.Short() {
		models = []string{"xu", "linear"}
	}
	code, out, errOut := runBlocksize(t, "global_copy", "--device-file", "pocl-cpu", "--param", "n=65536",
		"--sizes", "16,64,256", "--model", strings.Join(models, ","), "--measure", "opencl", "--runs", "4", "--discard", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r blocksizeResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Models, models) {
		t.Errorf("models %v, want %v", r.Models, models)
	}
	// Of the two shipped PoCL tables, measured on different hosts, the
	// paper suite's calibrates alone.
	if !strings.Contains(r.Calibrated, "embedded:pocl-epyc-paper.arrow") || strings.Contains(r.Calibrated, "quick") || r.Measured == "" {
		t.Errorf("calibrated on %q, measured on %q", r.Calibrated, r.Measured)
	}
	for _, c := range r.Candidates {
		if c.Measured == nil || !(c.Measured.Seconds > 0) || c.Measured.Rank == 0 {
			t.Errorf("%s: measured %+v", c.Label, c.Measured)
		}
	}
	for _, m := range models {
		if rho, ok := r.Spearman[m]; !ok || rho < -1 || rho > 1 {
			t.Errorf("Spearman of %s: %v", m, r.Spearman)
		}
	}
}

func TestBlocksizeErrors(t *testing.T) {
	dir := t.TempDir()
	fixed := filepath.Join(dir, "fixed.knl")
	src := "kernel fixed\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\nsplit i 64 io ii\ntag io g.0, ii l.0\na[i] = 1\n"
	if err := os.WriteFile(fixed, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"global_copy", "--param", "n=64"}, "--device-file is required"},
		{[]string{"global_copy", "--device-file", "no-such-gpu", "--param", "n=64"}, "--device-file no-such-gpu"},
		{[]string{"global_copy", "--device", "gtx460", "--param", "n=64"}, "blocksize takes the device parameter file as --device-file gtx460"},
		{[]string{"global_copy", "--device-file", "gtx460", "--param", "n=64", "--model", "oracle"}, `no model "oracle"`},
		{[]string{fixed, "--device-file", "gtx460", "--param", "n=64"}, "no const sets its work-group size"},
		{[]string{"global_copy", "--device-file", "gtx460", "--param", "n=64", "--sizes", "16x16"}, "want 1 value"},
		{[]string{"global_copy", "--device-file", "gtx460", "--param", "n=64", "--const", "LX=64"}, "--const LX"},
		{[]string{"global_copy", "--device-file", "gtx460", "--param", "m=64"}, "kernel global_copy"},
		// The GTX 460 has no table to fit the linear model on.
		{[]string{"global_copy", "--device-file", "gtx460", "--param", "n=64", "--model", "linear"}, "--model linear"},
		{[]string{"global_copy", "--device-file", "pocl-cpu", "--param", "n=64", "--measure", "no-such-device"}, "--measure no-such-device"},
	} {
		code, _, errOut := runBlocksize(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// On the H100, whose paper suite ships measured through CUDA and through
// OpenCL, the linear model calibrates on the CUDA table alone; given both
// with --tables, blocksize refuses them.
func TestBlocksizeCalibratesOnOneBackend(t *testing.T) {
	code, out, errOut := runBlocksize(t, "global_copy", "--device-file", "h100-sxm5", "--param", "n=16777216",
		"--sizes", "128,256", "--model", "linear", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r blocksizeResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Calibrated, "embedded:h100-cuda-paper.arrow (") || strings.Contains(r.Calibrated, "opencl") {
		t.Errorf("calibrated on %q", r.Calibrated)
	}
	both := []string{"embedded:h100-cuda-paper.arrow", "embedded:h100-opencl-paper.arrow"}
	want := "embedded:h100-opencl-paper.arrow was measured through opencl, embedded:h100-cuda-paper.arrow through cuda: give the tables of one backend"
	for _, run := range []struct {
		name string
		run  func() (int, string, string)
	}{
		{"blocksize", func() (int, string, string) {
			return runBlocksize(t, "global_copy", "--device-file", "h100-sxm5", "--param", "n=16777216", "--model", "linear", "--tables", both[0], "--tables", both[1])
		}},
		{"compare", func() (int, string, string) { return runCompare(t, append([]string{"--models", "linear"}, both...)...) }},
		{"fit --model cycles", func() (int, string, string) {
			return runFit(t, append([]string{"--model", "cycles", "--out", filepath.Join(t.TempDir(), "c.json")}, both...)...)
		}},
	} {
		if code, _, errOut := run.run(); code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("%s on both backends: exit %d, %q", run.name, code, errOut)
		}
	}
}

// TestBlocksizeLinearIsTheDefaultFit checks that blocksize's linear model
// is uniperf fit's default: its prediction of each candidate equals
// uniperf predict's with the weights uniperf fit writes from the same
// table.
func TestBlocksizeLinearIsTheDefaultFit(t *testing.T) {
	table := embeddedPrefix + "pocl-epyc-quick.arrow"
	weights := filepath.Join(t.TempDir(), "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", table, "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, out, stderr := runBlocksize(t, "global_copy", "--device-file", "pocl-cpu", "--param", "n=1048576",
		"--sizes", "64,256", "--model", "linear", "--tables", table, "--json")
	if code != 0 {
		t.Fatalf("blocksize: exit %d: %s", code, stderr)
	}
	var res blocksizeResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Candidates {
		code, out, stderr := runCommand(t, predictCmd, "predict", "--weights", weights, "global_copy",
			"--param", "n=1048576", "--const", fmt.Sprintf("LX=%d", c.Consts["LX"]), "--json")
		var p prediction
		if code != 0 || json.Unmarshal([]byte(out), &p) != nil {
			t.Fatalf("predict: exit %d: %s\n%s", code, stderr, out)
		}
		if got := c.Predictions["linear"].Seconds; math.Abs(got-p.Predicted) > 1e-9*p.Predicted {
			t.Errorf("%s: blocksize's linear %g s, predict with uniperf fit's weights %g s", c.Label, got, p.Predicted)
		}
	}
}
