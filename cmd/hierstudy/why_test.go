package main

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
)

// TestSummarize checks a class's diagnosis against figures worked by
// hand on four rows, one of which a feature without a weight leaves
// unpredicted.
func TestSummarize(t *testing.T) {
	rows := []heldRow{
		{measured: 1, predicted: 2, fold: map[string]float64{"a": 1.5, "b": 0.5}, all: map[string]float64{"a": 0.5, "b": 0.5}, allPredicted: 1},
		{measured: 2, predicted: 1, fold: map[string]float64{"a": 1}, all: map[string]float64{"a": 1, "b": 1}, allPredicted: 2},
		{measured: 1, predicted: 7, unpriced: []string{"x"}, fold: map[string]float64{"a": 7}, all: map[string]float64{"x": 1}, allPredicted: 1},
		{measured: 4, predicted: 6, fold: map[string]float64{"a": 3, "b": 3}, all: map[string]float64{"a": 4}, allPredicted: 4},
	}
	w := summarize("c", rows)
	// |p/m − 1| of the predicted rows: 1, 0.5, 0.5; signed +1, −0.5,
	// +0.5; every-row calibration exact on all three.
	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if w.rows != 4 || w.predicted != 3 || w.slow != 2 {
		t.Errorf("rows, predicted, slow = %d, %d, %d; want 4, 3, 2", w.rows, w.predicted, w.slow)
	}
	near("geomean", w.geomean, math.Cbrt(0.25))
	near("signed median", w.median, 0.5)
	near("every-row median", w.allMedian, 0)
	if len(w.unpriced) != 1 || w.unpriced["x"] != 1 {
		t.Errorf("unpriced = %v, want x in 1 row", w.unpriced)
	}
	// Shares of a: (1.5/2 + 1/1 + 3/6)/3 left out, (0.5/1 + 1/2 + 4/4)/3
	// on every row; of b: (0.5/2 + 0 + 3/6)/3, (0.5 + 0.5 + 0)/3.
	near("fold share a", w.foldShare["a"], 0.75)
	near("fold share b", w.foldShare["b"], 0.25)
	near("share a", w.share["a"], 2.0/3)
	near("share b", w.share["b"], 1.0/3)
	if _, ok := w.share["x"]; ok {
		t.Errorf("the unpredicted row's terms were counted: %v", w.share)
	}
	txt := w.text("F", func(string) float64 { return math.NaN() }, func(string) float64 { return 2 })
	for _, s := range []string{"F why c: 4 rows, 3 predicted", "signed median +0.50, 2 too slow, 1 too fast", "x (1 rows)", "a 75% (w left out none, every row 2)"} {
		if !strings.Contains(txt, s) {
			t.Errorf("text lacks %q:\n%s", s, txt)
		}
	}
}

// TestSummarizeNonePredicted checks a class whose every row a feature
// leaves unpredicted: no errors, and the features named.
func TestSummarizeNonePredicted(t *testing.T) {
	w := summarize("c", []heldRow{{measured: 1, unpriced: []string{"x", "y"}}, {measured: 2, unpriced: []string{"x"}}})
	if w.predicted != 0 || w.unpriced["x"] != 2 || w.unpriced["y"] != 1 {
		t.Errorf("predicted %d, unpriced %v; want 0, x 2 and y 1", w.predicted, w.unpriced)
	}
	if txt := w.text("F", nil, nil); !strings.Contains(txt, "x (2 rows), y (1 rows)") || strings.Contains(txt, "terms") {
		t.Errorf("text:\n%s", txt)
	}
}

func TestMedianAndTop(t *testing.T) {
	if m := median([]float64{3, 1, 2, 4}); m != 2.5 {
		t.Errorf("median of 3 1 2 4 = %v, want 2.5", m)
	}
	if m := median([]float64{5, -1, 2}); m != 2 {
		t.Errorf("median of 5 -1 2 = %v, want 2", m)
	}
	got := top(map[string]float64{"b": 1, "a": 1, "c": 3, "d": 0.5}, 3)
	if want := []string{"c", "a", "b"}; !slices.Equal(got, want) {
		t.Errorf("top = %v, want %v", got, want)
	}
}

// TestTerms checks that an explanation's part totals, which sum its
// terms, are not taken for terms, and that unpriced features are named.
func TestTerms(t *testing.T) {
	explain := []models.Quantity{
		{Name: "flop.f32.add", Value: 3e-3, Unit: "s"},
		{Name: "global.load.f32", Value: 1e-3, Unit: "s"},
		{Name: "local.load.i64", Unit: "s", Note: hierarchy.NoWeight},
		{Name: "traffic.dram", Value: 4096, Unit: "B"},
		{Name: hierarchy.PartPrefix + "compute", Value: 3e-3, Unit: "s"},
		{Name: hierarchy.PartPrefix + "memory", Value: 1e-3, Unit: "s"},
	}
	priced, unpriced := terms(explain)
	want := map[string]float64{"flop.f32.add": 3e-3, "global.load.f32": 1e-3}
	if len(priced) != len(want) || priced["flop.f32.add"] != want["flop.f32.add"] || priced["global.load.f32"] != want["global.load.f32"] {
		t.Errorf("terms = %v, want %v", priced, want)
	}
	if !slices.Equal(unpriced, []string{"local.load.i64"}) {
		t.Errorf("unpriced = %v, want local.load.i64", unpriced)
	}
}
