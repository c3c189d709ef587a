package main

import (
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/models/linear/lineartest"
)

// TestLinearIsUniperfFit calibrates the form linear as a study does (its
// ties chosen once on all the measurement rows, then a model that keeps
// them fitted on those rows, as every fold is) on two shipped tables: the
// PoCL paper table, a CPU's, whose strided readonly loads the tie
// prices, and the H100's CUDA table, where the filled strided ties are
// chosen by cross-validation. Its weights must be uniperf fit's default
// ones (lineartest.ShippedDefault; cmd/uniperf's TestFitIsDefaultOptions
// shows that uniperf fit writes those) to the bit.
func TestLinearIsUniperfFit(t *testing.T) {
	for _, name := range []string{"pocl-epyc-paper.arrow", "h100-cuda-paper.arrow"} {
		tables, want := lineartest.ShippedDefault(t, name)
		if len(want.Ties) == 0 {
			t.Errorf("%s: no ties, so the test does not show that they are chosen alike", name)
		}
		device, err := models.OneDevice(tables)
		if err != nil {
			t.Fatal(err)
		}
		d, err := gpus.Lookup(device)
		if err != nil {
			t.Fatal(err)
		}
		env := studyEnv(device, d)
		meas := models.Rows(tables, datasets.RoleMeasurement)
		if err := chooseTies(env, meas, []string{"linear"}); err != nil {
			t.Fatal(err)
		}
		m, err := newModel("linear")
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Calibrate(env, meas); err != nil {
			t.Fatal(err)
		}
		lineartest.SameFit(t, "hierstudy's linear on "+name, m.(*linear.Model).Weights, want)
	}
}
