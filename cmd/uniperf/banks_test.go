package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// predict counts with the bank layout the weights record, and refuses
// --banks or --bank-bytes that ask for another. local_bank with S = 32 at
// n = 1024 (LX = 256, R = 32) makes n*R = 32768 local loads and
// n + (n/LX)*R = 1152 local stores at stride 32 words: in 16 banks of 4
// bytes (half-warps of 16 lanes) all 16 lanes of a half-warp meet in bank
// 0, 16-way, so local.f32.conflict=16 counts 33920; the default 32 banks
// would make it 32-way.
func TestPredictBanks(t *testing.T) {
	props := []string{"launch.const", "local.f32.conflict=16", "local.load.f32"}
	w := &fit.Weights{Device: "GeForce 8800GT", Model: fit.ModelUnified, Version: "test", PropertySet: fit.PropertySetID(props),
		Properties: props, Values: []float64{5e-6, 1e-9, 1e-11}, Banks: &fit.BankLayout{Banks: 16, BankBytes: 4},
		Diagnostics: fit.Diagnostics{Rows: 3, Properties: 3, Rank: 3}}
	weights := filepath.Join(t.TempDir(), "w.arrow")
	if err := weightsio.WriteWeights(weights, w); err != nil {
		t.Fatal(err)
	}
	base := []string{"predict", "--weights", weights, "local_bank", "--const", "S=32", "--param", "n=1024", "--json"}
	for _, extra := range [][]string{nil, {"--banks", "16"}, {"--banks", "16", "--bank-bytes", "4"}} {
		code, out, stderr := runCommand(t, predictCmd, append(base, extra...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		var p prediction
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		counts := map[string]float64{}
		for _, term := range p.Terms {
			counts[term.Property] = term.Count
		}
		if counts["local.f32.conflict=16"] != 33920 || counts["local.f32.conflict=32"] != 0 {
			t.Errorf("%v: conflict counts %v, want 33920 16-way and no 32-way", extra, counts)
		}
	}
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--banks", "32"}, "--banks/--bank-bytes ask for 32 banks of 4 bytes, but the weights for GeForce 8800GT were fitted on counts of 16 banks of 4 bytes"},
		{[]string{"--bank-bytes", "8"}, "ask for 16 banks of 8 bytes"},
		{[]string{"--banks", "-1"}, "give positive numbers"},
	} {
		code, _, stderr := runCommand(t, predictCmd, append(base, c.flags...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.flags, code, stderr, c.want)
		}
	}
}
