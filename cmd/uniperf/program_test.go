package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeProgram writes a program file and kernels into a temporary
// directory and returns the program's path.
func writeProgram(t *testing.T, prog string, kernels map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range kernels {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "p.prog")
	if err := os.WriteFile(path, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func programJSON(t *testing.T, path string, opts programOptions) programReport {
	t.Helper()
	opts.json = true
	var out bytes.Buffer
	if err := predictProgram(&out, path, opts); err != nil {
		t.Fatal(err)
	}
	var r programReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPredictProgramByHand sums two launches on the GTX 460 under the xu
// model from its device file; each launch's time is derived by hand in
// fit/models' TestXuByHand: arith_add_f32 at n = 64, nk = 8 takes
// (1000 + 48·1024)·16/42 cycles, transpose_read_coalesced at n = 1024
// takes 9000·4096/42, at 1.35 GHz.
func TestPredictProgramByHand(t *testing.T) {
	path := writeProgram(t, "program two\nlayer compute\nlaunch arith_add_f32 n=64 nk=8\nlayer copy\nlaunch transpose_read_coalesced n=1024\n", nil)
	r := programJSON(t, path, programOptions{models: []string{"xu"}, devices: []string{"gtx460"}})
	compute, transpose := (1000+48*1024)*16.0/42/1.35e9, 9000*4096.0/42/1.35e9
	tot := r.Totals["xu"]
	if !nearRel(tot.Layers["compute"], compute) || !nearRel(tot.Layers["copy"], transpose) || !nearRel(tot.Total, compute+transpose) || !nearRel(tot.Forward, tot.Total) {
		t.Errorf("totals %+v; want compute %g, copy %g", tot, compute, transpose)
	}
	if len(r.Launches) != 2 || r.Launches[1].Line != 5 || r.Launches[1].Layer != "copy" {
		t.Errorf("launches %+v", r.Launches)
	}
	var out bytes.Buffer
	if err := predictProgram(&out, path, programOptions{models: []string{"xu"}, devices: []string{"gtx460"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(program total, (6-4))") || !strings.Contains(out.String(), "arith_add_f32") {
		t.Errorf("text output:\n%s", out.String())
	}
}

func nearRel(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }

// TestPredictProgramSplit splits a batch of 8 over two GTX 460s: equal
// devices get 4 each, and a ring all-reduce of 1 MB between two devices
// sends 1 MB, 1 ms at 1 GB/s.
func TestPredictProgramSplit(t *testing.T) {
	path := writeProgram(t, "let B = 8\nbatch B\nexchange 1000000\nlayer l\nlaunch global_copy n=B*65536\n", nil)
	r := programJSON(t, path, programOptions{models: []string{"xu"}, devices: []string{"gtx460", "gtx460"}, exchange: "ring", bandwidth: 1e9})
	s := r.Splits["xu"]
	if s == nil || len(s.Shares) != 2 || s.Shares[0].Batch != 4 || s.Shares[1].Batch != 4 {
		t.Fatalf("split %+v", s)
	}
	share := s.Shares[0].Result.Breakdown.Total
	if !nearRel(s.Step.Transfer, 1e-3) || !nearRel(s.Step.Total, share+1e-3) || s.Shares[0].Result.Launches[0].Params["n"] != 4*65536 {
		t.Errorf("step %+v, share %g", s.Step, share)
	}
	err := predictProgram(&bytes.Buffer{}, path, programOptions{models: []string{"xu"}, devices: []string{"gtx460", "gtx460"}, exchange: "ring"})
	if err == nil || !strings.Contains(err.Error(), "--bandwidth") {
		t.Errorf("split without a bandwidth: %v", err)
	}
}

// TestPredictProgramCNN predicts the shipped CNN at a batch of 2 with
// every model on PoCL and measures it there: every kernel of the program
// passes the check against the reference interpreter, and the measured
// total is the sum of the launches. Under -short it predicts with linear
// and xu, not resios, whose calibration on the PoCL table was most of
// its time: the program's predictions loop over the models alike, and
// TestDemoSummaryCache calibrates resios on a PoCL table.
func TestPredictProgramCNN(t *testing.T) {
	models := []string{"linear", "xu", "resios"}
	if testing.Short() {
		models = models[:2]
	}
	// On a CPU other than pocl-cpu's EPYC the measurement warns that the
	// file describes another device: kept out of the test's output.
	var r programReport
	captureStderr(t, func() {
		r = programJSON(t, "embedded:cnn", programOptions{models: models, devices: []string{"pocl-cpu"},
			batch: 2, measure: "opencl", runs: 3, discard: 1})
	})
	if r.Batch != 2 || len(r.Launches) != 5 || r.Measured == nil || !slices.Equal(r.Models, models) {
		t.Fatalf("report %+v", r)
	}
	var sum float64
	for _, l := range r.Launches {
		if l.Params["b"] != 2 || !(l.Measured > 0) {
			t.Errorf("launch %+v", l)
		}
		for _, m := range r.Models {
			if !(l.Predicted[m] > 0) {
				t.Errorf("%s: %s predicts %g", l.Kernel, m, l.Predicted[m])
			}
		}
		sum += l.Measured
	}
	if !nearRel(r.Measured.Total, sum) {
		t.Errorf("measured total %g, sum of launches %g", r.Measured.Total, sum)
	}
}

func TestPredictProgramErrors(t *testing.T) {
	bad := writeProgram(t, "let B = 2\nlayer l\nlaunch global_copy n=B\nlaunch global_copy m=C\n", nil)
	missing := writeProgram(t, "layer l\nlaunch nothere.knl n=4\n", nil)
	odd := writeProgram(t, "let B = 3\nlayer l\nlaunch global_copy n=B/2\n", nil)
	good := writeProgram(t, "layer l\nlaunch global_copy n=4096\n", nil)
	for _, c := range []struct {
		path string
		opts programOptions
		want string
	}{
		{bad, programOptions{devices: []string{"gtx460"}, models: []string{"xu"}}, "p.prog:4: launch global_copy: m: C is not a let"},
		{missing, programOptions{devices: []string{"gtx460"}, models: []string{"xu"}}, "p.prog:2: launch nothere.knl"},
		{odd, programOptions{devices: []string{"gtx460"}, models: []string{"xu"}}, "p.prog:3: launch global_copy: n: 3/2 is not an exact"},
		{good, programOptions{models: []string{"xu"}}, "--device-file is required"},
		{good, programOptions{devices: []string{"gtx460"}, models: []string{"oracle"}}, `no model "oracle"`},
		{good, programOptions{devices: []string{"gtx460"}, models: []string{"linear"}}, "--model linear on GeForce GTX 460"},
		{filepath.Join(t.TempDir(), "none.prog"), programOptions{devices: []string{"gtx460"}}, "--program"},
		{"embedded:nonet", programOptions{devices: []string{"gtx460"}}, `no example program "nonet"`},
	} {
		err := predictProgram(&bytes.Buffer{}, c.path, c.opts)
		var f *failure
		if err == nil || errors.As(err, &f) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v; want bad input naming %q", c.path, c.opts, err, c.want)
		}
	}
}
