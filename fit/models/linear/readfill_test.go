package linear

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// Rows of the three grid-fill classes, each timed by the class's own
// form (a launch time plus a time per work-item of the busiest of the
// units, which takes as long as sat work-items when it holds fewer), give
// Calibrate each class's saturation: the
// shared one from grid_fill_chain, the latency-bound one from
// grid_fill_local, the coalesced global accesses' from grid_fill_stream, whatever
// the weights of the whole fit make of the rows.
func TestCalibrateReadsFillClasses(t *testing.T) {
	const units = 16
	classes := []fillClass{
		{"grid_fill_chain", map[string]int64{"nk": 64}, 96},
		{"grid_fill_local", map[string]int64{"nr": 2}, 320},
		{"grid_fill_stream", map[string]int64{"nk": 8}, 160},
	}
	tab := fillClassTable(units, classes)
	c := models.NewCounter(nil)
	opts := Options{Fit: fit.Options{MinNorm: true}, Fill: &fit.GridFill{Latency: new(int64)}}
	w, err := CalibrateTables(c, map[string]*datasets.Table{"m.arrow": tab}, opts)
	if err != nil {
		t.Fatal(err)
	}
	f := w.Fill
	if f == nil || f.Saturation != 96 || f.Latency == nil || *f.Latency != 320 || f.Global == nil || *f.Global != 160 {
		t.Fatalf("grid fill %v, want saturations 96, 320 (latency-bound) and 160 (global)", f)
	}
	read := map[string]string{}
	for _, r := range w.Diagnostics.FillRead {
		read[r.Of] = r.Class
		if r.Rows != 27 {
			t.Errorf("%s read from %d rows of %s, want 27", r.Of, r.Rows, r.Class)
		}
	}
	want := map[string]string{fit.SharedSaturation: "grid_fill_chain", fit.LatencySaturation: "grid_fill_local", fit.GlobalSaturation: "grid_fill_stream"}
	for of, class := range want {
		if read[of] != class {
			t.Errorf("the %s saturation read from %q, want %s", of, read[of], class)
		}
	}

	// With one saturation for every property (the form before), nothing
	// is read: the training error chooses.
	opts.Fill = &fit.GridFill{}
	if w, err = CalibrateTables(c, map[string]*datasets.Table{"m.arrow": tab}, opts); err != nil {
		t.Fatal(err)
	}
	if len(w.Diagnostics.FillRead) != 0 || w.Fill.Latency != nil || w.Fill.Global != nil {
		t.Errorf("one saturation: read %v, grid fill %v", w.Diagnostics.FillRead, w.Fill)
	}
}

// fillClass is a grid-fill kernel, its parameters but ng, and the
// saturation its rows are timed with.
type fillClass struct {
	kernel string
	params map[string]int64
	sat    int64
}

// fillClassTable times each class's rows, ng = 1 to 256 groups of lxs
// work-items (32, 64 and 128 where none are given) on units units, by the
// class's form: 5 µs plus 2 ns per work-item of units·max(⌈ng/units⌉·wg,
// sat).
func fillClassTable(units int64, classes []fillClass, lxs ...int64) *datasets.Table {
	if len(lxs) == 0 {
		lxs = []int64{32, 64, 128}
	}
	tab := emptyTable(units)
	for _, k := range classes {
		for ng := int64(1); ng <= 256; ng *= 2 {
			for _, lx := range lxs {
				busiest := (ng + units - 1) / units * lx
				secs := 5e-6 + 2e-9*float64(units*max(busiest, k.sat))
				params := map[string]int64{"ng": ng}
				for p, v := range k.params {
					params[p] = v
				}
				tab.Rows = append(tab.Rows, fillRow(k.kernel, lx, params, secs))
			}
		}
	}
	return tab
}

// emptyTable is an empty measurement table of device "dev", an OpenCL
// device of units compute units.
func emptyTable(units int64) *datasets.Table {
	return &datasets.Table{Meta: datasets.Meta{DeviceName: "dev", Backend: "opencl", Suite: "test", Method: "synthetic", ComputeUnits: int(units)}}
}

// fillRow is a measurement row of kernel, its own class, on emptyTable's
// device: params["ng"] groups of lx work-items (the const LX), timed
// secs.
func fillRow(kernel string, lx int64, params map[string]int64, secs float64) datasets.Row {
	return datasets.Row{
		Device: "dev", Backend: "opencl", Kernel: kernel, Class: kernel, Role: datasets.RoleMeasurement, Variant: "v",
		Consts: map[string]int64{"LX": lx}, Params: params, LocalSize: []int64{lx}, GlobalSize: []int64{params["ng"] * lx},
		TimeS: secs, RawTimesS: []float64{secs}, RunsKept: 1, Timestamp: time.Unix(0, 0).UTC(), Version: "test",
	}
}

// A class whose rows do not do the same work per work-item (here
// grid_fill_local at two round counts, as tables measured before and
// after its redesign would be) reads nothing: the reading says why, and
// the latency-bound saturation is searched by training error instead.
func TestCalibrateRefusesMixedFillClass(t *testing.T) {
	const units = 16
	tab := fillClassTable(units, []fillClass{
		{"grid_fill_chain", map[string]int64{"nk": 64}, 96},
		{"grid_fill_local", map[string]int64{"nr": 2}, 320},
	})
	more := fillClassTable(units, []fillClass{{"grid_fill_local", map[string]int64{"nr": 3}, 320}})
	tab.Rows = append(tab.Rows, more.Rows...)
	opts := Options{Fit: fit.Options{MinNorm: true}, Fill: &fit.GridFill{Latency: new(int64)}}
	w, err := CalibrateTables(models.NewCounter(nil), map[string]*datasets.Table{"m.arrow": tab}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var local *fit.SaturationReading
	for i, r := range w.Diagnostics.FillRead {
		if r.Class == "grid_fill_local" {
			local = &w.Diagnostics.FillRead[i]
		}
	}
	if local == nil || !strings.Contains(local.Error, "nr=2; nr=3") || local.Value != 0 {
		t.Fatalf("grid_fill_local's reading %+v, want an error naming nr=2 and nr=3", local)
	}
	if w.Fill.Saturation != 96 || w.Fill.Latency == nil || !slices.Contains(SaturationCandidates, *w.Fill.Latency) {
		t.Errorf("grid fill %v: want the shared saturation 96 read and the latency-bound one among the candidates", w.Fill)
	}
}

// Rows of the same device from another table (FillRows) give a fill
// class's saturation where they reach wider work-groups than the fitted
// rows of the class do, and only then; a class the fitted rows lack is
// not read from them.
func TestCalibrateReadsWiderFillRows(t *testing.T) {
	const units = 16
	own := fillClassTable(units, []fillClass{
		{"grid_fill_chain", map[string]int64{"nk": 64}, 96},
		{"grid_fill_local", map[string]int64{"nr": 2}, 320},
	})
	wider := fillClassTable(units, []fillClass{
		{"grid_fill_chain", map[string]int64{"nk": 64}, 128},
		{"grid_fill_local", map[string]int64{"nr": 2}, 448},
		{"grid_fill_stream", map[string]int64{"nk": 8}, 160},
	}, 32, 64, 128, 256, 512)
	same := fillClassTable(units, []fillClass{{"grid_fill_local", map[string]int64{"nr": 2}, 448}})
	fitWith := func(other *datasets.Table) *fit.Weights {
		t.Helper()
		opts := Options{Fit: fit.Options{MinNorm: true}, Fill: &fit.GridFill{Latency: new(int64)},
			FillRows: models.Rows(map[string]*datasets.Table{"other.arrow": other}, datasets.RoleMeasurement)}
		w, err := CalibrateTables(models.NewCounter(nil), map[string]*datasets.Table{"m.arrow": own}, opts)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}

	w := fitWith(wider)
	if f := w.Fill; f.Saturation != 128 || f.Latency == nil || *f.Latency != 448 || f.Global != nil {
		t.Errorf("with wider rows: grid fill %v, want 128 and 448 read from them and no global saturation", f)
	}
	for _, r := range w.Diagnostics.FillRead {
		if r.Table != "other.arrow" || r.Rows != 45 {
			t.Errorf("with wider rows: %s read from %d rows of table %q, want 45 of other.arrow", r.Of, r.Rows, r.Table)
		}
	}

	w = fitWith(same)
	if f := w.Fill; f.Saturation != 96 || f.Latency == nil || *f.Latency != 320 {
		t.Errorf("with rows as wide: grid fill %v, want the own 96 and 320", f)
	}
	for _, r := range w.Diagnostics.FillRead {
		if r.Table != "" || r.Rows != 27 {
			t.Errorf("with rows as wide: %s read from %d rows of table %q, want the 27 own", r.Of, r.Rows, r.Table)
		}
	}
}
