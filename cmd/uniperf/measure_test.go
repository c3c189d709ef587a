package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

// runMeasure runs uniperf measure with args, every flag reset to its
// default first, and returns the exit status and the standard output and
// error.
func runMeasure(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	reset := func() {
		measureCmd.SetOut(nil)
		measureCmd.SetErr(nil)
		resetFlags(measureCmd)
	}
	reset()
	t.Cleanup(reset)
	measureCmd.SetOut(&out)
	measureCmd.SetErr(&errOut)
	code := run(append([]string{"measure"}, args...))
	return code, out.String(), errOut.String()
}

// TestMeasureOnPoCL is the end-to-end test of measurement: generated
// OpenCL C for three library kernels is checked against the reference
// interpreter, timed on PoCL, written to an Arrow table, read back, and a
// second run resumes without measuring again.
func TestMeasureOnPoCL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pocl.arrow")
	args := []string{"--device", "opencl", "--suite", "quick", "--kernels", "empty,global_copy,vector_scale_add",
		"--runs", "4", "--discard", "1", "--out", path}
	code, out, progress := runMeasure(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, progress)
	}
	tab, err := datasets.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// quick: empty 2 sizes, global_copy 2 sizes, vector_scale_add 2 sizes
	// x 3 strides, each at 2 work-group sizes.
	if len(tab.Rows) != 20 {
		t.Fatalf("%d rows, want 20\n%s", len(tab.Rows), out)
	}
	if tab.Rows[0].Kernel != "empty" {
		t.Errorf("first row %s: the empty kernel must be measured first", tab.Rows[0].Kernel)
	}
	for _, r := range tab.Rows {
		if len(r.RawTimesS) != 4 || r.RunsDiscarded != 1 || r.TimeS != slices.Min(r.RawTimesS[1:]) || r.Backend != "opencl" {
			t.Errorf("%s %v: raw %v time %g backend %s", r.Kernel, r.Params, r.RawTimesS, r.TimeS, r.Backend)
		}
	}
	if !strings.Contains(out, "20 rows measured in this run") || !strings.Contains(progress, "measure [") {
		t.Errorf("summary:\n%s\nprogress:\n%s", out, progress)
	}

	code, out, _ = runMeasure(t, args...)
	if code != 0 || !strings.Contains(out, "0 rows measured in this run, 20 already present") {
		t.Errorf("resumed run: exit %d\n%s", code, out)
	}
}

func TestMeasureErrors(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.arrow")
	if err := os.WriteFile(corrupt, []byte("not a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.knl")
	if err := os.WriteFile(bad, []byte("kernel bad\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\na[i] = 2*a[i] +\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", filepath.Join(dir, "a.arrow")}, "--device is required"},
		{[]string{"--device", "opencl"}, "--out is required"},
		{[]string{"--device", "no-such-gpu", "--out", filepath.Join(dir, "b.arrow")}, "no such device"},
		{[]string{"--device", "opencl", "--suite", "huge", "--out", filepath.Join(dir, "c.arrow")}, `no suite "huge"`},
		{[]string{"--device", "opencl", "--size-class", "xl", "--out", filepath.Join(dir, "d.arrow")}, "want small, med or large"},
		{[]string{"--device", "opencl", "--kernels", "nosuch", "--out", filepath.Join(dir, "e.arrow")}, "not in suite quick"},
		{[]string{"--device", "opencl", "--out", filepath.Join(dir, "missing", "f.arrow")}, "f.arrow: its directory " + filepath.Join(dir, "missing") + " does not exist"},
		{[]string{"--device", "opencl", "--kernels", "empty", "--out", corrupt}, "cannot resume"},
		// uniperf measure KERNEL
		{[]string{"global_copy", "--device", "opencl"}, "give the kernel's parameters"},
		{[]string{"global_copy", "--param", "n=100"}, "--device is required"},
		{[]string{"no_such_kernel", "--device", "opencl", "--param", "n=100"}, "neither a .knl file nor a library kernel"},
		{[]string{bad, "--device", "opencl", "--param", "n=100"}, "bad.knl:4:16: expected an expression"},
		{[]string{"matmul_naive", "--device", "opencl", "--param", "n=4096"}, "would interpret 2.75e+11 operations"},
		{[]string{"matmul_naive", "--device", "opencl", "--param", "n=4096", "--check-param", "n=2048"}, "choose a smaller --check-param"},
		{[]string{"global_copy", "--device", "opencl", "--param", "n=100", "--suite", "paper"}, "--suite is for measuring a suite"},
		{[]string{"--device", "opencl", "--param", "n=100", "--out", filepath.Join(dir, "x.arrow")}, "--param is for uniperf measure KERNEL"},
		{[]string{"global_copy", "--device", "opencl", "--param", "n=100", "--compare-with", filepath.Join(dir, "none.arrow")}, "none.arrow"},
		{[]string{"global_copy", "--device", "no-such-gpu", "--param", "n=100"}, "no such device"},
	} {
		var code int
		stderr := captureStderr(t, func() { code, _, _ = runMeasure(t, c.args...) })
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if data, _ := os.ReadFile(corrupt); string(data) != "not a table" {
		t.Errorf("the corrupt table was changed: %q", data)
	}
}
