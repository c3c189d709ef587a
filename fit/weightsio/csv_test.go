package weightsio_test

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/report"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// exportCSV writes weight tables as uniperf export --format csv does.
func exportCSV(t *testing.T, tables ...*fit.Weights) []byte {
	t.Helper()
	c, err := report.CompareWeights(tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// byName maps each property of w to its weight.
func byName(w *fit.Weights) map[string]float64 {
	m := map[string]float64{}
	for i, p := range w.Properties {
		m[p] = w.Values[i]
	}
	return m
}

func weights(device string, props []string, values []float64) *fit.Weights {
	return &fit.Weights{Device: device, Model: fit.ModelUnified, PropertySet: "sha256:same",
		Properties: props, Values: values}
}

// TestWeightsCSVRoundTrip reads back each device of an export: the weights
// it was written from, a property that device has no weight for left out.
func TestWeightsCSVRoundTrip(t *testing.T) {
	fury := weights("R9 Fury", []string{"flop.f32.add", "global.load.f32.stride=1", "launch.const"}, []float64{6.81e-13, -8.27e-12, 1.29e-4})
	k40 := weights("Tesla K40", []string{"flop.f32.add", "launch.const"}, []float64{1.5e-12, 7e-6})
	data := exportCSV(t, fury, k40)
	for _, want := range []*fit.Weights{fury, k40} {
		got, err := weightsio.DecodeWeightsCSV(data, want.Device)
		if err != nil {
			t.Fatal(err)
		}
		if got.Device != want.Device || got.Model != fit.ModelUnified || !maps.Equal(byName(got), byName(want)) {
			t.Errorf("%s: read %+v", want.Device, got)
		}
		if got.PropertySet != fit.PropertySetID(got.Properties) {
			t.Errorf("%s: property set %s", want.Device, got.PropertySet)
		}
	}

	// One device needs no label, and ReadWeights reads a .csv path and
	// FILE.csv#DEVICE.
	dir := t.TempDir()
	one := filepath.Join(dir, "fury.csv")
	two := filepath.Join(dir, "both.CSV")
	if err := os.WriteFile(one, exportCSV(t, fury), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(two, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{one, two + "#R9 Fury"} {
		got, err := weightsio.ReadWeights(path)
		if err != nil || !maps.Equal(byName(got), byName(fury)) {
			t.Errorf("%s: %+v, %v", path, got, err)
		}
	}
}

func TestWeightsCSVErrors(t *testing.T) {
	fury := weights("R9 Fury", []string{"flop.f32.add"}, []float64{6.81e-13})
	k40 := weights("Tesla K40", []string{"flop.f32.add"}, []float64{1.5e-12})
	both := string(exportCSV(t, fury, k40))
	for _, c := range []struct {
		name, data, label, want string
	}{
		{"two devices, no label", both, "", "the file holds 2 devices (R9 Fury, Tesla K40): name one as FILE.csv#DEVICE"},
		{"unknown label", both, "Titan X", `no device "Titan X" (the file holds R9 Fury, Tesla K40)`},
		{"not an export", "a,b,c\n1,2,3\n", "", "line 1: the header does not start property, rate_unit"},
		{"columns not in threes", "property,rate_unit,X weight_s,X rate,X note,Y weight_s\n", "", "line 1: 6 columns"},
		{"misnamed column", "property,rate_unit,X weight_s,Y rate,X note\n", "", `columns 3 to 5 are "X weight_s", "Y rate", "X note"`},
		{"infinite weight", "property,rate_unit,X weight_s,X rate,X note\nflop.f32.add,GFLOP/s,+Inf,,\n", "", `line 2: weight "+Inf" of flop.f32.add is not a finite number`},
		{"short row", "property,rate_unit,X weight_s,X rate,X note\nflop.f32.add,GFLOP/s,1e-12\n", "", "line 2: 3 fields, the header has 5"},
		{"property twice", "property,rate_unit,X weight_s,X rate,X note\na,,1,,\na,,2,,\n", "", `line 3: property "a" is empty or given twice`},
		{"no weights", "property,rate_unit,X weight_s,X rate,X note\na,,,,no weight\n", "", `device "X" has no weights`},
		{"no device label", "property,rate_unit, weight_s, rate, note\nflop.f32.add,GFLOP/s,1e-12,1000,\n", "", `line 1: column 3, " weight_s", names no device`},
		{"bad quoting", "property,rate_unit,X weight_s,X rate,X note\n\"a,,1,,\n", "", "line 2, column"},
	} {
		_, err := weightsio.DecodeWeightsCSV([]byte(c.data), c.label)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// FuzzDecodeWeightsCSV feeds DecodeWeightsCSV arbitrary text and labels:
// it must return an error or weights that pass Validate, the check every
// weight table meets before it prices a count. The seeds
// (testdata/fuzz/FuzzDecodeWeightsCSV) hold an export of two devices read
// by label, one device read without, and a device column with no label.
func FuzzDecodeWeightsCSV(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, label string) {
		w, err := weightsio.DecodeWeightsCSV(data, label)
		if err != nil {
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("decoded weights that do not validate: %v", err)
		}
	})
}
