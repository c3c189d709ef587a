package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/weightsio"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// axpyKnl is a user kernel: y = 2.5 x + y over n elements in work-groups
// of 64.
const axpyKnl = `kernel axpy
const LX = 64
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
y[i] = 2.5f*x[i] + y[i]
`

// TestMeasureKernelOnPoCL times a .knl file of the user's at two sizes on
// PoCL, writes the rows, resumes, and compares with the prediction that
// the counts derived by hand give: per element two stride-1 loads, one
// store (and their minimum), a multiply and an add; ceil(n/64) groups and
// one launch.
func TestMeasureKernelOnPoCL(t *testing.T) {
	dir := t.TempDir()
	knl := filepath.Join(dir, "axpy.knl")
	if err := os.WriteFile(knl, []byte(axpyKnl), 0o644); err != nil {
		t.Fatal(err)
	}
	weights := filepath.Join(dir, "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+shippedTable, "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	w, err := weightsio.ReadWeights(weights)
	if err != nil {
		t.Fatal(err)
	}
	weight := map[string]float64{}
	for i, p := range w.Properties {
		weight[p] = w.Values[i]
	}
	table := filepath.Join(dir, "axpy.arrow")
	args := []string{knl, "--device", "opencl", "--param", "n=1000,5000", "--runs", "4", "--discard", "1",
		"--out", table, "--compare-with", weights, "--json"}
	code, out, errOut := runMeasure(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var got []kernelTime
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got) != 2 {
		t.Fatalf("%d results, want 2", len(got))
	}
	for _, r := range got {
		n := float64(r.Params["n"])
		groups := math.Ceil(n / 64)
		if !slices.Equal(r.Local, []int64{64}) || !slices.Equal(r.Global, []int64{int64(groups) * 64}) {
			t.Errorf("n=%g: launch %v x %v, want %g x 64", n, r.Global, r.Local, groups)
		}
		if len(r.Raw) != 4 || r.Measured != slices.Min(r.Raw[1:]) || r.Resumed {
			t.Errorf("n=%g: raw %v, measured %g, resumed %v", n, r.Raw, r.Measured, r.Resumed)
		}
		want := weight["global.load.f32.stride=1"]*2*n + weight["global.store.f32.stride=1"]*n +
			weight["global.minldst.f32.stride=1"]*n + weight["flop.f32.mul"]*n + weight["flop.f32.add"]*n +
			weight["launch.groups"]*groups + weight["launch.const"]
		if r.Predicted == nil || math.Abs(*r.Predicted-want) > 1e-9*want {
			t.Fatalf("n=%g: predicted %v, want %g s from the hand counts", n, r.Predicted, want)
		}
		if rel := (want - r.Measured) / r.Measured; math.Abs(*r.RelErr-rel) > 1e-12 {
			t.Errorf("n=%g: relative error %g, want %g", n, *r.RelErr, rel)
		}
	}
	tab, err := datasets.Read(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 2 || tab.Meta.Suite != "kernel" {
		t.Fatalf("%d rows, suite %q; want 2 rows of suite kernel", len(tab.Rows), tab.Meta.Suite)
	}
	for i, r := range tab.Rows {
		if r.Kernel != knl || r.Class != "axpy" || r.Role != datasets.RoleTest || r.TimeS != got[i].Measured {
			t.Errorf("row %d: kernel %s class %s role %s time %g", i, r.Kernel, r.Class, r.Role, r.TimeS)
		}
	}

	// validate finds the kernel of the rows by the path they record.
	code, out, errOut = runCommand(t, validateCmd, "validate", "--weights", weights, table)
	if code != 0 || !strings.Contains(out, knl) {
		t.Errorf("validate of the user's rows: exit %d: %s\n%s", code, errOut, out)
	}

	// The same command again measures nothing and reports the table's times.
	code, out, errOut = runMeasure(t, args...)
	var again []kernelTime
	if code != 0 || json.Unmarshal([]byte(out), &again) != nil || len(again) != 2 || !again[0].Resumed || again[1].Measured != got[1].Measured {
		t.Errorf("rerun: exit %d\n%s\n%s", code, out, errOut)
	}
	// Other timing settings are refused rather than mixed into the table.
	stderr := captureStderr(t, func() {
		code, _, _ = runMeasure(t, knl, "--device", "opencl", "--param", "n=1000", "--runs", "5", "--out", table)
	})
	if code != 2 || !strings.Contains(stderr, "cannot resume") {
		t.Errorf("rerun with --runs 5: exit %d, %q", code, stderr)
	}
	if tab2, err := datasets.Read(table); err != nil || len(tab2.Rows) != 2 {
		t.Errorf("the table changed: %v", err)
	}
	// An edited kernel is a new kernel: the table's times are not its.
	if err := os.WriteFile(knl, []byte(strings.Replace(axpyKnl, "2.5f", "3.5f", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr = captureStderr(t, func() { code, _, _ = runMeasure(t, args...) })
	if code != 2 || !strings.Contains(stderr, "another text of the kernel") {
		t.Errorf("rerun after an edit: exit %d, %q", code, stderr)
	}
	if tab2, err := datasets.Read(table); err != nil || len(tab2.Rows) != 2 {
		t.Errorf("the table changed: %v", err)
	}
}

// TestKernelsShowFile shows a .knl file of the user's: the source is the
// library kernel's when the file holds the library kernel's text, and a
// file with errors is refused with its line and column.
func TestKernelsShowFile(t *testing.T) {
	dir := t.TempDir()
	src, err := library.Source("finite_diff")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "mine.knl")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"opencl", "cuda"} {
		code, fromFile := runShow(t, file, "--lang", lang, "--const", "LX=8")
		_, fromLibrary := runShow(t, "finite_diff", "--lang", lang, "--const", "LX=8")
		if code != 0 || !strings.Contains(fromFile, "from "+file) {
			t.Fatalf("%s: exit %d\n%s", lang, code, fromFile)
		}
		if strings.ReplaceAll(fromFile, file, "finite_diff.knl") != fromLibrary {
			t.Errorf("%s: the file's source differs from the library kernel's:\n%s\n---\n%s", lang, fromFile, fromLibrary)
		}
	}
	bad := filepath.Join(dir, "bad.knl")
	if err := os.WriteFile(bad, []byte("kernel bad\nconst LX = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var code int
	var out string
	stderr := captureStderr(t, func() { code, out = runShow(t, bad) })
	if code != 2 || out != "" || !strings.Contains(stderr, "bad.knl:2:") {
		t.Errorf("bad file: exit %d, output %q, stderr %q", code, out, stderr)
	}
}

// TestPrintKernelTimesResumed prints a time taken from the table apart
// from the time itself.
func TestPrintKernelTimesResumed(t *testing.T) {
	var b strings.Builder
	results := []kernelTime{{Kernel: "k.knl", Device: "dev", Params: map[string]int64{"n": 37}, Local: []int64{4}, Global: []int64{40},
		Measured: 7.39e-6, Median: 7.5e-6, Max: 8e-6, Resumed: true}}
	if err := printKernelTimes(&b, results, nil); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`7\.39 µs\s+7\.5 µs\s+8 µs  \(from the table\)`).MatchString(b.String()) {
		t.Errorf("got\n%s", b.String())
	}
}

// TestKernelTimesSpread prints a row whose kept runs scatter (median 25%
// above the minimum) with a prediction 10% off: the error is within the
// noise, and the runs are flagged; a tight row is neither.
func TestKernelTimesSpread(t *testing.T) {
	pred, rel, tight, tightRel := 1.1e-3, 0.1, 2.2e-3, 0.1
	results := []kernelTime{
		{Kernel: "k", Device: "d", Params: map[string]int64{"n": 1}, Measured: 1e-3, Median: 1.25e-3, Max: 2e-3, Predicted: &pred, RelErr: &rel},
		{Kernel: "k", Device: "d", Params: map[string]int64{"n": 2}, Measured: 2e-3, Median: 2.02e-3, Max: 2.1e-3, Predicted: &tight, RelErr: &tightRel},
	}
	var out strings.Builder
	if err := printKernelTimes(&out, results, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.Contains(lines[2], "1.25 ms") || !strings.HasSuffix(lines[2], "(within the noise)") || strings.Contains(lines[3], "noise") {
		t.Errorf("rows:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "warning: the runs scatter at n=1 (median 25% above the minimum)") || strings.Contains(out.String(), "n=2 (median") {
		t.Errorf("warning:\n%s", out.String())
	}
}
