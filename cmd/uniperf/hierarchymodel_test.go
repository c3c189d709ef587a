package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestModelFlagHierarchy calibrates the hierarchy model on the shipped
// PoCL quick table (the traffic below is counted, whatever the weights;
// the paper table's calibration took seven times the CPU) and predicts vector_scale_add with it: x, y and z
// are read or written once each, so the launch's DRAM and L2 traffic
// are 12 n bytes (three f32 arrays of n cells, each cell once), and no
// load repeats in a work-item. The prediction is its explanation's
// terms combined.
func TestModelFlagHierarchy(t *testing.T) {
	cal := filepath.Join(t.TempDir(), "pocl.hierarchy.json")
	code, out, errText := runFit(t, "embedded:pocl-epyc-quick.arrow", "--model", "hierarchy", "--out", cal)
	if code != 0 || !strings.Contains(out, "form ") {
		t.Fatalf("fit: exit %d %s\n%s", code, errText, out)
	}
	// vector_scale_add moves 12 bytes an element (two f32 loads, one
	// store), all through L2; the CPU form keeps a launch within the
	// EPYC's 32 MiB shared L3 warm, so 3 MiB (n = 2^18) reads no DRAM
	// and 48 MiB (n = 2^22) all of it.
	var p modelPrediction
	for _, c := range []struct{ n, dram float64 }{{1 << 18, 0}, {1 << 22, 12 << 22}} {
		code, out, errText = runPredict(t, "--model", "hierarchy", "--weights", cal, "vector_scale_add", "--param", fmt.Sprintf("n=%d", int(c.n)), "--const", "LX=256", "--const", "STRIDE=1", "--json")
		if code != 0 || json.Unmarshal([]byte(out), &p) != nil || p.Model != "hierarchy" || !(p.Predicted > 0) {
			t.Fatalf("predict: exit %d %s\n%s", code, errText, out)
		}
		got := map[string]float64{}
		for _, q := range p.Explain {
			got[q.Name] = q.Value
		}
		if got["traffic.dram"] != c.dram || got["traffic.l2"] != 12*c.n || got["loads.reused"] != 0 {
			t.Errorf("n = %v: traffic %v, want DRAM %v and L2 %v bytes and no reused loads", c.n, got, c.dram, 12*c.n)
		}
	}
	// The quick table has no rows with a chain through memory (the
	// hierarchy suite's accumulate_global has): the calibration leaves
	// chains out rather than refusing gemver3's w[i] += ... over j.
	code, out, errText = runPredict(t, "--model", "hierarchy", "--weights", cal, "../../examples/gemver3.knl", "--param", "n=512", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &p) != nil || !(p.Predicted > 0) {
		t.Errorf("predict gemver3 with a calibration without chains: exit %d %s\n%s", code, errText, out)
	}
	code, out, errText = runValidate(t, "--model", "hierarchy", "--weights", cal, "embedded:pocl-epyc-quick.arrow")
	if code != 0 || !strings.Contains(out, "cross-kernel") {
		t.Errorf("validate: exit %d %s\n%s", code, errText, out)
	}
}
