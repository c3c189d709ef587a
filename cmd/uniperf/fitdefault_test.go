package main

import (
	"path/filepath"
	"testing"

	"github.com/uniperf/uniperf/fit/models/linear/lineartest"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// TestFitIsDefaultOptions fits two shipped tables with uniperf fit and
// no flags, the PoCL paper table (whose strided readonly loads the
// default ties to plain ones) and the H100's CUDA table (whose filled
// strided ties cross-validation chooses), and checks that the weights
// written are those of linear.DefaultOptions
// (lineartest.ShippedDefault) to the bit: the fit hierstudy's form
// linear studies (cmd/hierstudy's TestLinearIsUniperfFit).
func TestFitIsDefaultOptions(t *testing.T) {
	for _, name := range []string{"pocl-epyc-paper.arrow", "h100-cuda-paper.arrow"} {
		out := filepath.Join(t.TempDir(), "w.arrow")
		if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+name, "--out", out); code != 0 {
			t.Fatalf("fit %s: exit %d: %s", name, code, stderr)
		}
		got, err := weightsio.ReadWeights(out)
		if err != nil {
			t.Fatal(err)
		}
		_, want := lineartest.ShippedDefault(t, name)
		lineartest.SameFit(t, "uniperf fit "+name, got, want)
	}
}
