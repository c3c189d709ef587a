package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/uniperf/uniperf/fit"
)

// table2Names maps the property names printed in seed 001's Table 2 to
// uniperf's. "Uncoalesced" is the stride > 4 class; the stride-3 (33%) class
// is 1/3 and (100%) 3/3.
var table2Names = map[string]string{
	"Addition/Subtraction":                 "flop.f32.add",
	"Multiplication":                       "flop.f32.mul",
	"Exponentiation":                       "flop.f32.pow",
	"Other Ops (rsqrt)":                    "flop.f32.special",
	"Local F32 Loads":                      "local.load.f32",
	"F32 Stride-1 Loads":                   "global.load.f32.stride=1",
	"F32 Stride-2 (100%) Loads":            "global.load.f32.stride=2/2",
	"F32 Stride-3 (33%) Loads":             "global.load.f32.stride=1/3",
	"F32 Stride-3 (100%) Loads":            "global.load.f32.stride=3/3",
	"F32 Uncoalesced (100%) Loads":         "global.load.f32.stride=4/>4",
	"F32 Stride-1 Stores":                  "global.store.f32.stride=1",
	"F32 Uncoalesced (100%) Stores":        "global.store.f32.stride=4/>4",
	"Min(Stride-1 Loads, Stride-1 Stores)": "global.minldst.f32.stride=1",
	"Barriers":                             "sync.barrier",
	"Thread Groups":                        "launch.groups",
	"Const(1)":                             "launch.const",
}

func furyWeights(t *testing.T) *fit.Weights {
	w := &fit.Weights{Device: "R9 Fury", Model: fit.ModelUnified, PropertySet: "sha256:x"}
	for _, r := range readPublished(t, "seed001-table2-r9fury-weights.csv") {
		name, ok := table2Names[r[0]]
		if !ok {
			t.Fatalf("unmapped Table 2 property %q", r[0])
		}
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		w.Properties = append(w.Properties, name)
		w.Values = append(w.Values, v)
	}
	return w
}

// The rates implied by Table 2, worked by hand: 4 bytes / 8.27e-12 s =
// 483.7 GB/s for stride-1 loads (the Fury's DRAM peak is 512 GB/s),
// 1 / 6.81e-13 s = 1468 GFLOP/s for additions, 3.75 ns per work-group,
// 129 µs per launch, 4.26e-11 s = 0.0426 ns per barrier (per work-item).
func TestDerivedRatesTable2(t *testing.T) {
	w := furyWeights(t)
	want := map[string]Rate{
		"global.load.f32.stride=1":     {Value: 4 / 8.27e-12 / 1e9, Unit: "GB/s", OK: true},
		"global.store.f32.stride=4/>4": {Value: 4 / 3.55e-10 / 1e9, Unit: "GB/s", OK: true},
		"flop.f32.add":                 {Value: 1 / 6.81e-13 / 1e9, Unit: "GFLOP/s", OK: true},
		"launch.groups":                {Value: 3.75, Unit: "ns", OK: true},
		"launch.const":                 {Value: 129, Unit: "µs", OK: true},
		"sync.barrier":                 {Value: 0.0426, Unit: "ns", OK: true},
		"local.load.f32":               {Unit: "GB/s", Note: "negative weight"},
		"global.minldst.f32.stride=1":  {Note: "correction term"},
	}
	for p, r := range want {
		v, _ := w.Weight(p)
		got := DerivedRate(p, v)
		if got.Unit != r.Unit || got.OK != r.OK || got.Note != r.Note || math.Abs(got.Value-r.Value) > 1e-9*r.Value {
			t.Errorf("%s: %+v, want %+v", p, got, r)
		}
	}
	if r := DerivedRate("global.load.f32.stride=1", 8.27e-12); r.String() != "483.7 GB/s" {
		t.Errorf("String() = %q", r)
	}
	for _, c := range []struct {
		p    string
		w    float64
		want string
	}{
		{"global.load.f64.stride=1", 1e-11, "800 GB/s"},
		{"global.load.f16x4.stride=1", 1e-11, "800 GB/s"},
		{"int.i32.add", 1e-12, "1000 GOP/s"},
		{"local.f32.conflict=8", 7.5e-13, "0.00075 ns"},
		{"flop.f32.mul", 0, "zero weight"},
		{"global.load.indirect.f32", 4e-12, "1000 GB/s"},
		{"local.store.indirect.b8", 1e-12, "1000 GB/s"},
		{"global.ldg.b16.stride=1", 2e-12, "1000 GB/s"},
		{"local.load.b8", 1e-12, "1000 GB/s"},
		{"global.atomic.i32.add", 2e-9, "0.5 GOP/s"},
		{"local.atomic.f32.add", 1e-10, "10 GOP/s"},
		{"global.load.indirect", 1e-12, "unknown data type"},
		{"global.load.q.stride=1", 1e-12, "unknown data type"},
		{"texture.fetch", 1e-12, "unknown property"},
	} {
		if got := DerivedRate(c.p, c.w).String(); got != c.want {
			t.Errorf("%s at %g: %q, want %q", c.p, c.w, got, c.want)
		}
	}
}

func twoDevices(t *testing.T) *WeightComparison {
	fury := furyWeights(t)
	other := &fit.Weights{Device: "Other GPU", Model: fit.ModelUnified, PropertySet: "sha256:x",
		Properties: []string{"launch.const", "global.load.f32.stride=1", "flop.f64.add"},
		Values:     []float64{5e-6, 4e-12, 2e-12}}
	c, err := CompareWeights([]*fit.Weights{fury, other}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompareOrderAndLabels(t *testing.T) {
	c := twoDevices(t)
	if got := strings.Join(c.Labels, ","); got != "R9 Fury,Other GPU" {
		t.Errorf("labels %s", got)
	}
	// Memory first (loads, stores, min), then local, arithmetic, barriers, launch.
	want := "global.load.f32.stride=1 global.load.f32.stride=2/2 global.load.f32.stride=1/3 global.load.f32.stride=3/3 global.load.f32.stride=4/>4 " +
		"global.store.f32.stride=1 global.store.f32.stride=4/>4 global.minldst.f32.stride=1 local.load.f32 " +
		"flop.f32.add flop.f32.mul flop.f32.pow flop.f32.special flop.f64.add sync.barrier launch.groups launch.const"
	if got := strings.Join(c.Properties, " "); got != want {
		t.Errorf("order\n got %s\nwant %s", got, want)
	}
	w := furyWeights(t)
	c2, err := CompareWeights([]*fit.Weights{w, w}, nil)
	if err != nil || c2.Labels[1] != "R9 Fury (2)" {
		t.Errorf("labels %v, %v", c2.Labels, err)
	}
	other := furyWeights(t)
	other.Model = "hongkim"
	if _, err := CompareWeights([]*fit.Weights{w, other}, nil); err == nil || !strings.Contains(err.Error(), `"hongkim"`) {
		t.Errorf("mixed models: %v", err)
	}
}

func TestCompareFormats(t *testing.T) {
	c := twoDevices(t)

	var md bytes.Buffer
	if err := c.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(md.String()), "\n")
	if len(lines) != 2+len(c.Properties) {
		t.Fatalf("%d markdown lines", len(lines))
	}
	row := func(prop string) []string {
		for _, l := range lines {
			cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if cells[0] == prop {
				return cells
			}
		}
		t.Fatalf("no markdown row for %s", prop)
		return nil
	}
	if got := strings.Join(row("global.load.f32.stride=1"), ";"); got != "global.load.f32.stride=1;GB/s;8.270e-12;483.7;4.000e-12;1000" {
		t.Errorf("markdown row %s", got)
	}
	if got := strings.Join(row("local.load.f32"), ";"); got != "local.load.f32;GB/s;-1.760e-12;negative weight;;" {
		t.Errorf("markdown row %s", got)
	}

	var cb bytes.Buffer
	if err := c.WriteCSV(&cb); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(recs[0], ","); got != "property,rate_unit,R9 Fury weight_s,R9 Fury rate,R9 Fury note,Other GPU weight_s,Other GPU rate,Other GPU note" {
		t.Errorf("csv header %s", got)
	}
	for _, r := range recs[1:] {
		if r[0] == "flop.f64.add" && strings.Join(r[2:], ",") != ",,no weight,2e-12,500," {
			t.Errorf("csv row %v", r)
		}
	}

	var jb bytes.Buffer
	if err := c.WriteJSON(&jb); err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Devices    []struct{ Label string }
		Properties []struct {
			Property string
			Values   []*struct {
				Weight float64  `json:"weight_s"`
				Rate   *float64 `json:"rate"`
				Note   string
			}
		}
	}
	if err := json.Unmarshal(jb.Bytes(), &parsed); err != nil {
		t.Fatal(err)
	}
	if len(parsed.Devices) != 2 || len(parsed.Properties) != len(c.Properties) {
		t.Fatalf("json %s", jb.String())
	}
	for _, p := range parsed.Properties {
		switch p.Property {
		case "flop.f32.add":
			if p.Values[1] != nil || p.Values[0].Rate == nil || math.Abs(*p.Values[0].Rate-1468.4) > 0.1 {
				t.Errorf("json flop.f32.add %+v", p.Values)
			}
		case "local.load.f32":
			if p.Values[0].Rate != nil || p.Values[0].Note != "negative weight" {
				t.Errorf("json local.load.f32 %+v", p.Values[0])
			}
		}
	}

	var ab bytes.Buffer
	if err := c.WriteArrow(&ab); err != nil {
		t.Fatal(err)
	}
	r, err := ipc.NewFileReader(bytes.NewReader(ab.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec, err := r.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	// 16 Fury rows and 3 of the other device.
	if rec.NumRows() != 19 {
		t.Errorf("%d arrow rows", rec.NumRows())
	}
	prop := rec.Column(3).(*array.String)
	rate := rec.Column(5).(*array.Float64)
	for i := 0; i < int(rec.NumRows()); i++ {
		if prop.Value(i) == "global.minldst.f32.stride=1" && !rate.IsNull(i) {
			t.Error("arrow: a correction term has a rate")
		}
	}
}

// A tied property is listed with its target's weight and a note, so that
// the CSV read back prices it as the tied table does.
func TestCompareWeightsListsTies(t *testing.T) {
	w := &fit.Weights{Device: "GPU", Model: fit.ModelUnified, PropertySet: "sha256:x",
		Properties: []string{"global.load.f32.stride=1", "launch.const"}, Values: []float64{4e-13, 5e-6},
		Ties: map[string]string{"global.load.f32.stride=3/3": "global.load.f32.stride=1"}}
	c, err := CompareWeights([]*fit.Weights{w}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := c.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	// 4 bytes in 4e-13 s: 10000 GB/s.
	if want := "global.load.f32.stride=3/3,GB/s,4e-13,10000,tied to global.load.f32.stride=1\n"; !strings.Contains(b.String(), want) {
		t.Errorf("CSV lacks %q:\n%s", want, b.String())
	}
}
