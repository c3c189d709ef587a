package main

import (
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// TestFitIsDefaultOptions fits two shipped tables with uniperf fit and
// no flags, the PoCL paper table (whose strided readonly loads the
// default ties to plain ones) and the H100's CUDA table (whose filled
// strided ties cross-validation chooses), and checks that the weights
// written are those of linear.CalibrateTables with linear.DefaultOptions
// and the tables' banks, to the bit: the fit hierstudy's form linear
// studies (cmd/hierstudy's TestLinearIsUniperfFit).
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
		data, err := datasets.ShippedBytes(name)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := datasets.Decode(name, data)
		if err != nil {
			t.Fatal(err)
		}
		tables := map[string]*datasets.Table{name: tab}
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
			t.Errorf("%s: uniperf fit wrote\n%v %v\n%v %+v\nwant linear.DefaultOptions'\n%v %v\n%v %+v", name,
				got.Properties, got.Values, got.Ties, got.Fill, want.Properties, want.Values, want.Ties, want.Fill)
		}
	}
}
