package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/tune"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// TestDeviceFileOfAnotherCPU gives pocl-cpu, the EPYC's device file, for
// rows of another CPU (the shipped quick table renamed to a made-up PoCL
// device): the fit goes on with a note that names both devices and
// --device-file, and without the flag it is refused with the same advice.
// The EPYC's own rows get no such note.
func TestDeviceFileOfAnotherCPU(t *testing.T) {
	const other = "pthread-haswell-Example CPU 9000"
	table := writeRenamed(t, "../../datasets/pocl-epyc-quick.arrow", other)
	out := t.TempDir() + "/c.json"

	code, stdout, stderr := runFit(t, table, "--model", "cycles", "--device-file", "pocl-cpu", "--out", out)
	if code != 0 {
		t.Fatalf("fit with --device-file pocl-cpu: exit %d: %s", code, stderr)
	}
	want := `note: the device file devices/pocl-cpu.json describes "PoCL CPU (pthread, AMD EPYC)", not "` + other + `"`
	if !strings.Contains(stdout, want) || !strings.Contains(stdout, "--device-file") {
		t.Errorf("fit on %s with the EPYC's file: no note %q in\n%s", other, want, stdout)
	}

	code, _, stderr = runFit(t, table, "--model", "cycles", "--out", out)
	if code != 2 || !strings.Contains(stderr, `device "`+other+`"`) || !strings.Contains(stderr, "give one with --device-file (docs/device-files.md") {
		t.Errorf("fit on %s without a device file: exit %d, %s; want exit 2 asking for --device-file", other, code, stderr)
	}

	code, stdout, stderr = runFit(t, "embedded:pocl-epyc-quick.arrow", "--model", "cycles", "--device-file", "pocl-cpu", "--out", out)
	if code != 0 || strings.Contains(stdout, "describes") {
		t.Errorf("fit on the EPYC's own table: exit %d, a note of another device:\n%s%s", code, stdout, stderr)
	}
}

// TestDescribes matches a device by its whole name or an alias, ignoring
// case and surrounding space: another CPU under the same PoCL build, whose
// name shares the "pthread-skylake-avx512-" prefix and the vendor's, is
// another device.
func TestDescribes(t *testing.T) {
	d := &gpus.Device{Name: "PoCL CPU (pthread, Example)", Aliases: []string{"pthread-skylake-avx512-Example CPU"}}
	for _, c := range []struct {
		device string
		want   bool
	}{
		{"PoCL CPU (pthread, Example)", true},
		{"  pthread-skylake-avx512-example cpu ", true},
		{"pthread-skylake-avx512-Example CPU 7B13", false},
		{"pthread-skylake-avx512-Example", false},
		{"pthread-skylake-avx512-Other CPU", false},
	} {
		if got := describes(d, c.device); got != c.want {
			t.Errorf("describes(%q) = %v, want %v", c.device, got, c.want)
		}
	}
}

// TestBlocksizeMeasureOtherDevice times two group sizes on PoCL with a
// device file of a made-up CPU, which warns that the file describes
// another device than the one timed, and again with the same file given
// the PoCL device's own name as an alias, which does not.
func TestBlocksizeMeasureOtherDevice(t *testing.T) {
	name := pocltest.Open(t).Info().Name
	run := func(aliases []string) string {
		file := deviceFileNamed(t, "Example CPU 9000", aliases)
		code, _, errOut := runBlocksize(t, "global_copy", "--device-file", file, "--param", "n=65536",
			"--sizes", "16,64", "--model", "xu", "--measure", "pocl", "--runs", "3", "--discard", "1")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		return errOut
	}
	want := `describes "Example CPU 9000", the kernel was timed on "` + name + `"`
	if warn := run(nil); !strings.Contains(warn, want) {
		t.Errorf("a device file of another CPU: no warning %q in %q", want, warn)
	}
	if warn := run([]string{name}); strings.Contains(warn, "describes") {
		t.Errorf("a device file naming the timed device: warned %q", warn)
	}
}

// deviceFileNamed writes pocl-cpu's device file under another name and
// aliases.
func deviceFileNamed(t *testing.T, name string, aliases []string) string {
	t.Helper()
	data, err := os.ReadFile("../../fit/gpus/devices/pocl-cpu.json")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	d["name"], d["aliases"] = name, aliases
	if data, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "example.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestTuneResumeOtherDevice times a two-configuration stencil space on
// PoCL into an Arrow file, which records the device; a rerun with
// --resume takes its times. A file recording a made-up device is refused
// untouched; an Arrow file recording none, and a CSV file, which cannot
// record one, are resumed with a warning that says so, the Arrow file
// rewritten without a device.
func TestTuneResumeOtherDevice(t *testing.T) {
	weights := fitQuickWeights(t)
	dir := t.TempDir()
	spaceJSON := `{"tune_params": {"block_size_x": [32], "block_size_y": [2, 4]}}`
	space := filepath.Join(dir, "s.json")
	if err := os.WriteFile(space, []byte(spaceJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	tuneOn := func(out string) (int, string) {
		var code int
		var msg string
		warn := captureStderr(t, func() {
			code, _, msg = runCommand(t, tuneCmd, "tune", "../../examples/stencil_kernel.knl", "--space", space, "--weights", weights,
				"--param", "w=66", "--param", "h=34", "--map", "BX=block_size_x", "--map", "BY=block_size_y", "--measure", "opencl",
				"--brute-force", "--runs", "2", "--discard", "1", "--out", out, "--resume", "--json")
		})
		return code, msg + warn
	}
	own := filepath.Join(dir, "own.arrow")
	if code, msg := tuneOn(own); code != 0 {
		t.Fatalf("tune --measure: exit %d: %s", code, msg)
	}
	data, err := os.ReadFile(own)
	if err != nil {
		t.Fatal(err)
	}
	name := pocltest.Open(t).Info().Name
	if got, err := tune.TimedOn(data, own); got != name || err != nil {
		t.Errorf("the table records %q (%v), want the device that timed it, %q", got, err, name)
	}
	if code, msg := tuneOn(own); code != 0 || strings.Contains(msg, "does not record") {
		t.Errorf("resuming on the same device: exit %d: %s", code, msg)
	}

	s, err := tune.ReadSpace([]byte(spaceJSON), space)
	if err != nil {
		t.Fatal(err)
	}
	configs, err := s.Configs()
	if err != nil {
		t.Fatal(err)
	}
	results := []tune.Result{{Config: configs[0], Rank: 1, Predicted: 1e-3, Measured: 5e-3}, {Config: configs[1], Rank: 2, Predicted: 1e-3, Measured: 7e-3}}
	other := filepath.Join(dir, "other.arrow")
	table, err := tune.WriteArrow(s, results, "Example CPU 9000")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, table, 0o644); err != nil {
		t.Fatal(err)
	}
	code, msg := tuneOn(other)
	if want := `holds times measured on "Example CPU 9000"`; code != 2 || !strings.Contains(msg, want) || !strings.Contains(msg, "give another --out") {
		t.Errorf("resuming another device's times: exit %d: %s; want exit 2 with %q", code, msg, want)
	}
	if after, err := os.ReadFile(other); err != nil || string(after) != string(table) {
		t.Errorf("the other device's table changed (%v)", err)
	}

	// An Arrow file of an older uniperf: resumed with the warning, and
	// rewritten without claiming the device, whose times it may not hold.
	older := filepath.Join(dir, "older.arrow")
	if table, err = tune.WriteArrow(s, results, ""); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(older, table, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, msg := tuneOn(older); code != 0 || !strings.Contains(msg, "does not record the device that timed it") {
		t.Errorf("resuming an Arrow file without a device: exit %d: %s", code, msg)
	}
	if data, err := os.ReadFile(older); err != nil {
		t.Fatal(err)
	} else if got, err := tune.TimedOn(data, older); got != "" || err != nil {
		t.Errorf("the resumed file of no device now records %q (%v)", got, err)
	}

	csvPath := filepath.Join(dir, "r.csv")
	csv, err := tune.WriteCSV(s, results)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(csvPath, csv, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, msg := tuneOn(csvPath); code != 0 || !strings.Contains(msg, "does not record the device that timed it") || !strings.Contains(msg, "2 times") {
		t.Errorf("resuming a CSV file: exit %d: %s; want a warning that it records no device", code, msg)
	}
}

// TestBlocksizeTablesOfAnotherCPU calibrates blocksize's models on the
// quick table renamed to a made-up CPU with pocl-cpu's file: a warning
// names the table, both devices and --device-file; the EPYC's own table
// gets none.
func TestBlocksizeTablesOfAnotherCPU(t *testing.T) {
	const other = "pthread-haswell-Example CPU 9000"
	table := writeRenamed(t, "../../datasets/pocl-epyc-quick.arrow", other)
	for _, c := range []struct {
		table string
		warn  bool
	}{{table, true}, {"embedded:pocl-epyc-quick.arrow", false}} {
		code, _, errOut := runBlocksize(t, "global_copy", "--device-file", "pocl-cpu", "--param", "n=65536",
			"--sizes", "16,64", "--model", "linear", "--tables", c.table)
		want := c.table + ` was measured on "` + other + `": the device file devices/pocl-cpu.json describes "PoCL CPU (pthread, AMD EPYC)"`
		if code != 0 || strings.Contains(errOut, want) != c.warn || strings.Contains(errOut, "describes") != c.warn {
			t.Errorf("blocksize calibrated on %s: exit %d, stderr %q; want a warning %v", c.table, code, errOut, c.warn)
		}
	}
}

// TestTimedWithWeightsOfAnotherDevice fits weights on the quick table
// renamed to a made-up CPU and times with them on PoCL: measure
// --compare-with and tune --measure each warn that the weights were
// fitted on the made-up CPU and name the device that timed the kernel.
func TestTimedWithWeightsOfAnotherDevice(t *testing.T) {
	const other = "pthread-haswell-Example CPU 9000"
	dir := t.TempDir()
	weights := filepath.Join(dir, "w.arrow")
	if code, _, msg := runFit(t, writeRenamed(t, "../../datasets/pocl-epyc-quick.arrow", other), "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, msg)
	}
	want := `fitted on "` + other + `", the kernel was timed on "` + pocltest.Open(t).Info().Name + `"`

	warn := captureStderr(t, func() {
		if code, out, msg := runMeasure(t, "global_copy", "--device", "opencl", "--param", "n=4096", "--runs", "2", "--discard", "1",
			"--compare-with", weights); code != 0 {
			t.Errorf("measure: exit %d: %s%s", code, out, msg)
		}
	})
	if !strings.Contains(warn, want) {
		t.Errorf("measure --compare-with: no warning %q in %q", want, warn)
	}

	space := filepath.Join(dir, "s.json")
	if err := os.WriteFile(space, []byte(`{"tune_params": {"block_size_x": [32], "block_size_y": [2]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, msg := runCommand(t, tuneCmd, "tune", "../../examples/stencil_kernel.knl", "--space", space, "--weights", weights,
		"--param", "w=66", "--param", "h=34", "--map", "BX=block_size_x", "--map", "BY=block_size_y", "--measure", "opencl",
		"--top", "1", "--runs", "2", "--discard", "1")
	if code != 0 || !strings.Contains(msg, want) {
		t.Errorf("tune --measure: exit %d; no warning %q in %q", code, want, msg)
	}
}

// TestPredictWithDeviceFileOfAnotherCPU predicts with an xu calibration
// of the EPYC's table and a device file of a made-up CPU: the prediction
// comes with a warning naming both; with pocl-cpu, the calibration's own
// file, there is none. (The cycles model refuses outright a device file
// other than its calibration's.)
func TestPredictWithDeviceFileOfAnotherCPU(t *testing.T) {
	cal := filepath.Join(t.TempDir(), "c.json")
	if code, _, msg := runFit(t, "embedded:pocl-epyc-quick.arrow", "--model", "xu", "--out", cal); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, msg)
	}
	for _, c := range []struct {
		file string
		warn bool
	}{{deviceFileNamed(t, "Example CPU 9000", nil), true}, {"pocl-cpu", false}} {
		var code int
		var msg string
		warn := captureStderr(t, func() {
			code, _, msg = runPredict(t, "--model", "xu", "--weights", cal, "--device-file", c.file, "vector_scale_add", "--param", "n=65536")
		})
		all := msg + warn
		want := `describes "Example CPU 9000", not "pthread-skylake-avx512-AMD EPYC"`
		if code != 0 || strings.Contains(all, want) != c.warn || strings.Contains(all, "describes") != c.warn {
			t.Errorf("predict with --device-file %s: exit %d, %q; want a warning %v", c.file, code, all, c.warn)
		}
	}
}
