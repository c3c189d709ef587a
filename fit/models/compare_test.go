package models

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/fit/report"
)

// TestErrorTable checks the geometric means by hand: errors 0.1 and 0.4
// have the geometric mean 0.2; a row a model did not predict counts in
// its rows but not in its mean.
func TestErrorTable(t *testing.T) {
	outs := []report.Case{
		{Model: "a", Class: "x", Kernel: "k1", Size: "1", Measured: 1, Predicted: 1.1},
		{Model: "a", Class: "x", Kernel: "k1", Size: "2", Measured: 2, Predicted: 1.2},
		{Model: "b", Class: "x", Kernel: "k1", Size: "1", Measured: 1, Predicted: 0.5},
		{Model: "b", Class: "x", Kernel: "k1", Size: "2", Measured: 2, Err: "cannot"},
		{Model: "a", Class: "y", Kernel: "k2", Size: "1", Measured: 4, Predicted: 5},
		{Model: "b", Class: "y", Kernel: "k2", Size: "1", Measured: 4, Predicted: 3},
	}
	groups, cells := errorTable(outs, []string{"a", "b"}, func(o report.Case) string { return o.Class })
	if len(groups) != 2 || groups[0] != "x" {
		t.Fatalf("groups %v", groups)
	}
	check := func(name string, got errorCell, rows, predicted int, geo float64) {
		t.Helper()
		if got.Rows != rows || got.Predicted != predicted || math.Abs(got.GeoMean-geo) > 1e-12 {
			t.Errorf("%s: %+v, want %d rows, %d predicted, %g", name, got, rows, predicted, geo)
		}
	}
	check("a on x", cells["x"][0], 2, 2, 0.2)
	check("b on x", cells["x"][1], 2, 1, 0.5)
	check("a on y", cells["y"][0], 1, 1, 0.25)
	common := commonRows(outs)
	if len(common) != 4 {
		t.Errorf("common rows %v, want k1 size 1 and k2 for both models", common)
	}
	if f := failures(outs); len(f) != 1 || f[0] != "b, k1 (1 rows): cannot" {
		t.Errorf("failures %v", f)
	}
}
