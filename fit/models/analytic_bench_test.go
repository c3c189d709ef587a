package models

import (
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
)

// benchCalibrate calibrates a model on the shipped PoCL table's 156
// measurement rows, as compare does once per fold.
func benchCalibrate(b *testing.B, name string) {
	tb, err := datasets.OpenShipped("pocl-epyc-quick.arrow")
	if err != nil {
		b.Fatal(err)
	}
	dev, err := gpus.Lookup("pocl-cpu")
	if err != nil {
		b.Fatal(err)
	}
	rows := Rows(map[string]*datasets.Table{"pocl": tb}, datasets.RoleMeasurement)
	env := &Env{Counter: NewCounter(nil), Device: dev}
	for b.Loop() {
		m, _ := New(name)
		if err := m.Calibrate(env, rows); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCalibrateResios(b *testing.B) { benchCalibrate(b, "resios") }
func BenchmarkCalibrateXu(b *testing.B)     { benchCalibrate(b, "xu") }
