package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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
		// The default fit's grid fill scales every count but the launch
		// terms: the busiest of U units runs ⌈groups/U⌉ groups of 64,
		// at least the saturation S.
		fill := 1.0
		if f := w.Fill; f != nil {
			u := float64(f.Units)
			fill = u * math.Max(math.Ceil(groups/u)*64, float64(f.Saturation)) / (groups * 64)
		}
		want := (weight["global.load.f32.stride=1"]*2*n+weight["global.store.f32.stride=1"]*n+
			weight["global.minldst.f32.stride=1"]*n+weight["flop.f32.mul"]*n+weight["flop.f32.add"]*n)*fill +
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

	// validate finds the kernel of the rows by the path they record. It
	// validates a device with its own weights only, and the shipped table
	// is one CPU's while the tests run on whatever CPU the machine has:
	// so the same weights, labelled with the device the rows name.
	w.Device = tab.Meta.DeviceName
	own := filepath.Join(dir, "own.arrow")
	if err := weightsio.WriteWeights(own, w); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCommand(t, validateCmd, "validate", "--weights", own, table)
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

// TestMeasureKernelWithoutParameters times a kernel whose sizes are all
// consts (as an import with -D makes one) without --param, at its one
// size: 4096 work-items in groups of 256 (N and LX by hand), a row whose
// parameters are empty and whose variant is the source digest alone; a
// kernel with parameters still asks for them.
func TestMeasureKernelWithoutParameters(t *testing.T) {
	dir := t.TempDir()
	knl := filepath.Join(dir, "inc.knl")
	text := "kernel inc\nconst N = 4096\nconst LX = 256\ndomain { [i] : 0 <= i < N }\narray a f32 [N]\narray b f32 [N]\nsplit i LX i_out i_in\ntag i_out g.0, i_in l.0\nb[i] = a[i] + 1.0f\n"
	if err := os.WriteFile(knl, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(dir, "inc.arrow")
	code, out, errOut := runMeasure(t, knl, "--device", "opencl", "--runs", "3", "--discard", "1", "--out", table, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var got []kernelTime
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	if r := got[0]; len(r.Params) != 0 || !slices.Equal(r.Global, []int64{4096}) || !slices.Equal(r.Local, []int64{256}) || !(r.Measured > 0) {
		t.Errorf("params %v, launch %v x %v, time %g: want none, 4096 x 256, a time", r.Params, r.Global, r.Local, r.Measured)
	}
	tab, err := datasets.Read(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 1 || !strings.HasPrefix(tab.Rows[0].Variant, "source=") {
		t.Errorf("rows %+v: want one, its variant the source digest alone", tab.Rows)
	}
	// Too large to check against the interpreter: the message names its
	// one size and says that --check-param cannot help.
	big := filepath.Join(dir, "big.knl")
	if err := os.WriteFile(big, []byte(strings.Replace(text, "N = 4096", "N = 268435456", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr := captureStderr(t, func() { code, _, _ = runMeasure(t, big, "--device", "opencl") })
	if code != 2 || !strings.Contains(stderr, "against the reference interpreter at its one size") || !strings.Contains(stderr, "its sizes are consts") {
		t.Errorf("a kernel too large to check: exit %d, %q", code, stderr)
	}
	withParams := filepath.Join(dir, "axpy.knl")
	if err := os.WriteFile(withParams, []byte(axpyKnl), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr = captureStderr(t, func() { code, _, _ = runMeasure(t, withParams, "--device", "opencl") })
	if code != 2 || !strings.Contains(stderr, "give the kernel's parameters with --param") {
		t.Errorf("a kernel with parameters and no --param: exit %d, %q", code, stderr)
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

// TestRepeatUntilStable follows the rule on made-up runs: one discarded,
// then batches of 4. Kept 10,20,20 (median 20, 100% above 10) fails;
// after 10,10,10,10 more the kept runs are 10,20,20,10,10,10,10, median
// 10: stable at 8 runs. A tail that stays slow gives up at the cap.
func TestRepeatUntilStable(t *testing.T) {
	rule := &stableRule{tolerance: 0.05, maxRuns: 14}
	batches := [][]float64{{10, 10, 10, 10}, {10, 10, 10, 10}}
	more := func(n int) ([]float64, error) {
		b := batches[0][:n]
		batches = batches[1:]
		return b, nil
	}
	raw, stable, err := repeatUntilStable([]float64{99, 10, 20, 20}, 1, 4, rule, more)
	if err != nil || !stable || len(raw) != 8 {
		t.Errorf("quieting runs: %v stable %v, %v; want 8 runs, stable", raw, stable, err)
	}
	var asked []int
	slow := func(n int) ([]float64, error) {
		asked = append(asked, n)
		return slices.Repeat([]float64{30}, n), nil
	}
	raw, stable, err = repeatUntilStable([]float64{99, 10, 20, 20}, 1, 4, rule, slow)
	if err != nil || stable || len(raw) != 14 || !slices.Equal(asked, []int{4, 4, 2}) {
		t.Errorf("slow runs: %d runs, stable %v, batches %v, %v; want 14 runs in batches 4, 4, 2, not stable", len(raw), stable, asked, err)
	}
	raw, stable, _ = repeatUntilStable([]float64{99, 10, 10.4, 20}, 1, 4, rule, slow)
	if !stable || len(raw) != 4 {
		t.Errorf("median 4%% above the minimum: %d runs, stable %v; want the first 4, stable", len(raw), stable)
	}
}

// TestMeasureUntilStableOnPoCL times axpy on PoCL with the rule's
// tolerance at zero (met only where half the kept runs tie with the
// fastest) and a cap of 25 runs in batches of 10, and re-checks from the
// row's raw times that it stopped at the first batch where the rule held,
// or at the cap with a note on screen. A tolerance no spread reaches stops
// after the first batch. The table records every run and refuses a rerun
// with another tolerance.
func TestMeasureUntilStableOnPoCL(t *testing.T) {
	dir := t.TempDir()
	knl := filepath.Join(dir, "axpy.knl")
	if err := os.WriteFile(knl, []byte(axpyKnl), 0o644); err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(dir, "t.arrow")
	args := []string{knl, "--device", "opencl", "--param", "n=4096", "--runs", "10", "--discard", "2",
		"--repeat-until-stable", "--tolerance", "0", "--max-runs", "25", "--out", table}
	code, out, errOut := runMeasure(t, append(args, "--json")...)
	var got []kernelTime
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || len(got) != 1 || got[0].Stable == nil {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	raw := got[0].Raw
	want := 25
	for _, b := range []int{10, 20} {
		if s := datasets.SpreadOf(raw[:b], 2); s.Median <= s.Min {
			want = b
			break
		}
	}
	held := datasets.SpreadOf(raw, 2).Median <= datasets.SpreadOf(raw, 2).Min
	if len(raw) != want || *got[0].Stable != held {
		t.Errorf("%d runs, stable %v; the rule re-checked from the raw times stops at %d runs, stable %v", len(raw), *got[0].Stable, want, held)
	}
	tab, err := datasets.Read(table)
	if err != nil || len(tab.Rows) != 1 || int(tab.Rows[0].RunsKept) != len(raw)-2 || !strings.Contains(tab.Meta.Method, "within 0 of their minimum, at most 25 runs") {
		t.Fatalf("table: %v %+v", err, tab)
	}
	// On screen, from the table: the runs column, and the note where it gave up.
	code, out, _ = runMeasure(t, args...)
	if code != 0 || !regexp.MustCompile(`runs\n.*\s`+strconv.Itoa(len(raw))+`  \(from the table\)`).MatchString(out) ||
		strings.Contains(out, "gave up repeating at n=4096") == held {
		t.Errorf("screen (%d runs, stable %v):\n%s", len(raw), held, out)
	}
	stderr := captureStderr(t, func() {
		code, _, _ = runMeasure(t, knl, "--device", "opencl", "--param", "n=4096", "--runs", "10", "--discard", "2",
			"--repeat-until-stable", "--tolerance", "0.5", "--max-runs", "25", "--out", table)
	})
	if code != 2 || !strings.Contains(stderr, "cannot resume") {
		t.Errorf("rerun with another tolerance: exit %d, %q", code, stderr)
	}

	code, out, errOut = runMeasure(t, knl, "--device", "opencl", "--param", "n=4096", "--runs", "10", "--discard", "2",
		"--repeat-until-stable", "--tolerance", "1e9", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || len(got[0].Raw) != 10 || !*got[0].Stable {
		t.Errorf("a tolerance no spread reaches: exit %d\n%s\n%s", code, out, errOut)
	}
}

// TestMeasureUntilStableFlags refuses the rule's flags out of range or
// without --repeat-until-stable, before any device is opened.
func TestMeasureUntilStableFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--tolerance", "0.1"}, "--tolerance is for --repeat-until-stable"},
		{[]string{"--max-runs", "100"}, "--max-runs is for --repeat-until-stable"},
		{[]string{"--repeat-until-stable", "--tolerance", "-0.1"}, "--tolerance -0.1 must be a non-negative fraction"},
		{[]string{"--repeat-until-stable", "--max-runs", "20"}, "--max-runs 20 must be at least --runs 30"},
		{[]string{"--repeat-until-stable", "--max-runs", "10001"}, "at most 10000"},
	} {
		var code int
		stderr := captureStderr(t, func() {
			code, _, _ = runMeasure(t, append([]string{"k.knl", "--device", "no-such-device", "--param", "n=1"}, c.args...)...)
		})
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	var code int
	stderr := captureStderr(t, func() { code, _, _ = runMeasure(t, "--device", "opencl", "--repeat-until-stable", "--out", "x.arrow") })
	if code != 2 || !strings.Contains(stderr, "--repeat-until-stable is for uniperf measure KERNEL") {
		t.Errorf("suite with --repeat-until-stable: exit %d, %q", code, stderr)
	}
}
