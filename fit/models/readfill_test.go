package models

import (
	"testing"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
)

// Rows of the three grid-fill classes, each timed as the class's own
// model says (a launch time plus a time per work-item of the busiest of
// the units, which takes as long as sat work-items when it holds fewer;
// worked out here by hand), give Calibrate each class's saturation: the
// shared one from grid_fill_chain, the latency-bound one from
// grid_fill_local, the coalesced global accesses' from grid_fill_stream, whatever
// the weights of the whole fit make of the rows.
func TestCalibrateReadsFillClasses(t *testing.T) {
	const units = 16
	classes := []struct {
		kernel string
		params map[string]int64
		sat    int64
	}{
		{"grid_fill_chain", map[string]int64{"nk": 64}, 96},
		{"grid_fill_local", map[string]int64{"nr": 2}, 320},
		{"grid_fill_stream", map[string]int64{"nk": 8}, 160},
	}
	tab := &datasets.Table{Meta: datasets.Meta{DeviceName: "dev", Backend: "opencl", Suite: "test", Method: "synthetic", ComputeUnits: units}}
	for _, k := range classes {
		for ng := int64(1); ng <= 256; ng *= 2 {
			for _, lx := range []int64{32, 64, 128} {
				busiest := (ng + units - 1) / units * lx
				secs := 5e-6 + 2e-9*float64(units*max(busiest, k.sat))
				params := map[string]int64{"ng": ng}
				for p, v := range k.params {
					params[p] = v
				}
				tab.Rows = append(tab.Rows, datasets.Row{
					Device: "dev", Backend: "opencl", Kernel: k.kernel, Class: k.kernel, Role: datasets.RoleMeasurement, Variant: "v",
					Consts: map[string]int64{"LX": lx}, Params: params, LocalSize: []int64{lx}, GlobalSize: []int64{ng * lx},
					TimeS: secs, RawTimesS: []float64{secs}, RunsKept: 1, Timestamp: time.Unix(0, 0).UTC(), Version: "test",
				})
			}
		}
	}
	c := NewCounter(nil)
	opts := LinearOptions{Fit: fit.Options{MinNorm: true}, Fill: &fit.GridFill{Latency: new(int64)}}
	w, err := c.CalibrateTables(map[string]*datasets.Table{"m.arrow": tab}, opts)
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
	want := map[string]string{"shared": "grid_fill_chain", "latency-bound": "grid_fill_local", "coalesced global": "grid_fill_stream"}
	for of, class := range want {
		if read[of] != class {
			t.Errorf("the %s saturation read from %q, want %s", of, read[of], class)
		}
	}

	// With one saturation for every property (the form before), nothing
	// is read: the training error chooses.
	opts.Fill = &fit.GridFill{}
	if w, err = c.CalibrateTables(map[string]*datasets.Table{"m.arrow": tab}, opts); err != nil {
		t.Fatal(err)
	}
	if len(w.Diagnostics.FillRead) != 0 || w.Fill.Latency != nil || w.Fill.Global != nil {
		t.Errorf("one saturation: read %v, grid fill %v", w.Diagnostics.FillRead, w.Fill)
	}
}
