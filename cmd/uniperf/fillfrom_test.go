package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// --fill-from auto reads the grid-fill classes of the H100's OpenCL
// table from its CUDA table, whose rows of each class (60, in groups up to
// 1024 work-items) reach wider than the OpenCL table's (36, up to 256);
// without the flag the OpenCL table's own rows are read; a table of
// another device is refused as bad input.
func TestFitFillFrom(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.arrow")
	table := "embedded:h100-opencl-paper.arrow"
	code, stdout := runOut(t, "fit", table, "--out", out)
	if code != 0 || !strings.Contains(stdout, "read from the 36 rows of grid_fill_local, rms") {
		t.Fatalf("fit without --fill-from: exit %d, want the 36 own rows of grid_fill_local read:\n%s", code, stdout)
	}
	code, stdout = runOut(t, "fit", table, "--fill-from", "auto", "--out", out)
	for _, class := range []string{"grid_fill_chain", "grid_fill_local", "grid_fill_stream"} {
		want := "read from the 60 rows of " + class + " in embedded:h100-cuda-paper.arrow"
		if code != 0 || !strings.Contains(stdout, want) {
			t.Fatalf("fit --fill-from auto: exit %d, want %q:\n%s", code, want, stdout)
		}
	}
	code, msg := runAll(t, "fit", table, "--fill-from", "embedded:h200-cuda-paper.arrow", "--out", out)
	if code != 2 || !strings.Contains(msg, "measured on NVIDIA H200") {
		t.Fatalf("--fill-from of another device: exit %d, %q; want 2 naming the H200", code, msg)
	}
}
