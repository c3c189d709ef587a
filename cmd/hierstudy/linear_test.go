package main

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
)

// TestLinearIsUniperfFit calibrates the form linear as a study does (its
// ties chosen once on all the measurement rows, then a model that keeps
// them fitted on those rows, as every fold is) on two shipped tables: the
// PoCL paper table, a CPU's, whose strided readonly loads the tie
// prices, and the H100's CUDA table, where the filled strided ties are
// chosen by cross-validation. Its weights must be uniperf fit's default
// ones, those of linear.CalibrateTables with linear.DefaultOptions and
// the tables' banks (cmd/uniperf's TestFitIsDefaultOptions shows that
// uniperf fit writes those): the same properties, weights, ties and
// grid fill, to the bit.
func TestLinearIsUniperfFit(t *testing.T) {
	for _, name := range []string{"pocl-epyc-paper.arrow", "h100-cuda-paper.arrow"} {
		tab, err := datasets.Read("../../datasets/" + name)
		if err != nil {
			t.Fatal(err)
		}
		tables := map[string]*datasets.Table{name: tab}
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
		got := m.(*linear.Model).Weights
		banks, err := models.TablesBanks(tables)
		if err != nil {
			t.Fatal(err)
		}
		want, err := linear.CalibrateTables(models.NewCounterWith(models.Library, banks), tables, linear.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Properties, want.Properties) || !slices.Equal(got.Values, want.Values) ||
			!maps.Equal(got.Ties, want.Ties) || !reflect.DeepEqual(got.Fill, want.Fill) {
			t.Errorf("%s: hierstudy's linear\n%v %v\n%v %+v\nwant uniperf fit's\n%v %v\n%v %+v", name,
				got.Properties, got.Values, got.Ties, got.Fill, want.Properties, want.Values, want.Ties, want.Fill)
		}
		if len(want.Ties) == 0 {
			t.Errorf("%s: no ties, so the test does not show that they are chosen alike", name)
		}
	}
}
