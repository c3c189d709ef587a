package gpu_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeUniperf stands in for uniperf measure: it appends its kernel to
// calls and, where refuse is set, answers as measure does when --out
// holds another device's table (exit 2), else succeeds.
const fakeUniperf = `#!/bin/sh
echo "$2" >>"$CALLS"
if [ -n "${REFUSE:-}" ]; then
	echo "uniperf: out.arrow: cannot resume: the table was measured with device.name \"Example CPU A\", but this run has \"Example CPU B\" (the file is left as it is; choose another output, or rerun with the table's settings)" >&2
	exit 2
fi
`

// runExamples runs the script on two kernels with the fake uniperf (its
// path, or with onPath its name, uniperf, found on PATH, as
// docs/measuring-on-gpus.md runs it) and returns its exit status, its
// output and the kernels measure was asked for.
func runExamples(t *testing.T, refuse, onPath bool) (int, string, []string) {
	t.Helper()
	dir := t.TempDir()
	fake := filepath.Join(dir, "uniperf")
	if err := os.WriteFile(fake, []byte(fakeUniperf), 0o755); err != nil {
		t.Fatal(err)
	}
	calls := filepath.Join(dir, "calls")
	cmd := exec.Command("sh", "measurekernels/gpu/run-examples", filepath.Join(dir, "out"))
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "DEVICE=pocl", "SIZES=pocl", "EXAMPLES=atax1,bicg", "UNIPERF="+fake, "CALLS="+calls, "REFUSE=")
	if refuse {
		cmd.Env = append(cmd.Env, "REFUSE=1")
	}
	if onPath {
		cmd.Env = append(cmd.Env, "UNIPERF=uniperf", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(calls)
	return code, string(out), strings.Fields(string(data))
}

// TestRunExamplesOtherDevice: where measure refuses OUTDIR's table as
// another device's, run-examples stops at the first kernel with exit 2
// and names both devices and TAG; where measure succeeds, both kernels
// run.
func TestRunExamplesOtherDevice(t *testing.T) {
	code, out, calls := runExamples(t, true, false)
	want := `holds tables of another device (device.name "Example CPU A", but this run has "Example CPU B")`
	if code != 2 || !strings.Contains(out, want) || !strings.Contains(out, "TAG=NAME") || len(calls) != 1 {
		t.Errorf("another device's tables: exit %d, measure called for %v:\n%s\nwant exit 2, one call and %q", code, calls, out, want)
	}
	code, out, calls = runExamples(t, false, false)
	if code != 0 || len(calls) != 2 || strings.Contains(out, "another device") {
		t.Errorf("this device's tables: exit %d, measure called for %v:\n%s", code, calls, out)
	}
}

// TestRunExamplesOnPath: UNIPERF naming a command on PATH rather than a
// path (UNIPERF=uniperf) runs every kernel.
func TestRunExamplesOnPath(t *testing.T) {
	if code, out, calls := runExamples(t, false, true); code != 0 || len(calls) != 2 {
		t.Errorf("UNIPERF=uniperf on PATH: exit %d, measure called for %v:\n%s\nwant exit 0 and two calls", code, calls, out)
	}
}

// TestRunExamplesNoBinary: BIN naming the binary rather than its folder
// (or any path with no uniperf) stops the script before the first kernel,
// with exit 2 and a message that says what BIN and UNIPERF are.
func TestRunExamplesNoBinary(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "uniperf")
	if err := os.WriteFile(file, []byte(fakeUniperf), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "measurekernels/gpu/run-examples", filepath.Join(dir, "out"))
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "DEVICE=pocl", "SIZES=pocl", "EXAMPLES=atax1", "BIN="+file, "UNIPERF=")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	want := "no uniperf at " + file + "/uniperf: BIN is the folder"
	if !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), want) || strings.Contains(string(out), "==") {
		t.Errorf("BIN naming a file: %v\n%s\nwant exit 2 and %q before any kernel", err, out, want)
	}
}
