package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPredictOneRun: with --one-run, the cycles model takes global_copy's
// adjusting factor from one run of it (never calibrated on the GTX 460
// table of vector_scale_add). global_copy's estimate is proportional to
// n (1000 cycles per work-item, occupancy 1 with 256-wide groups), so a
// run of 300 µs at n = 2^16 predicts 1.2 ms at 2^18, and the output says
// a run was used.
func TestPredictOneRun(t *testing.T) {
	cal := filepath.Join(t.TempDir(), "gtx460.cycles.json")
	if code, _, errText := runFit(t, vsaTable(t), "--model", "cycles", "--out", cal); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errText)
	}
	code, out, errText := runPredict(t, "--model", "cycles", "--weights", cal, "global_copy", "--const", "LX=256",
		"--param", "n=65536,262144", "--one-run", "n=65536:3e-4")
	if code != 0 || !strings.Contains(out, "n=65536     300 µs") || !strings.Contains(out, "n=262144    1.2 ms") ||
		!strings.Contains(out, "from one measured run of global_copy at n=65536 (300 µs)") {
		t.Errorf("exit %d, output:\n%s%s", code, out, errText)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--weights", cal, "global_copy", "--param", "n=64", "--one-run", "n=64:1e-5"}, "for --model cycles only (have --model linear)"},
		{[]string{"--weights", cal, "--model", "cycles", "global_copy", "--param", "n=64", "--one-run", "n=64"}, "want PARAMS:SECONDS"},
		{[]string{"--weights", cal, "--model", "cycles", "global_copy", "--param", "n=64", "--one-run", "n=64:-1"}, "must be a positive number of seconds"},
	} {
		if code, _, errText := runPredict(t, c.args...); code != 2 || !strings.Contains(errText, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, errText, c.want)
		}
	}
}
