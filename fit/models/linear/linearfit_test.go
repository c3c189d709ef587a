package linear

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// The tests run on four small kernels whose counts are derived by hand:
// with n elements and LX work-items per group, every kernel launches
// ceil(n/LX) groups and touches each element once.
var testKernels = map[string]string{
	"store": `kernel store
const LX = 64
domain [n] -> { [i] : 0 <= i < n }
array b f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
b[i] = 1.5`,
	"copy": `kernel copy
const LX = 64
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array b f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
b[i] = a[i]`,
	"add2": `kernel add2
const LX = 64
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array c f32 [n]
array b f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
b[i] = a[i] + c[i]`,
	"mul2": `kernel mul2
const LX = 64
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array c f32 [n]
array b f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
b[i] = a[i]*c[i]`,
	"scale": `kernel scale
const LX = 64
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array b f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
b[i] = 2.5f*a[i]`,
}

func testSource(name string) (string, []byte, error) {
	src, ok := testKernels[name]
	if !ok {
		return "", nil, fmt.Errorf("no kernel %q", name)
	}
	return name + ".knl", []byte(src), nil
}

// handCounts are the kernels' properties at n and LX, derived from the
// kernel text: loads and stores per element, the minimum of the two, one
// flop per element where the instruction has one, ceil(n/LX) groups.
func handCounts(kernel string, n, lx int64) map[string]float64 {
	loads := map[string]int64{"store": 0, "copy": 1, "add2": 2, "mul2": 2, "scale": 1}[kernel]
	c := map[string]float64{
		"global.load.f32.stride=1":    float64(loads * n),
		"global.store.f32.stride=1":   float64(n),
		"global.minldst.f32.stride=1": float64(min(loads, 1) * n),
		"launch.groups":               float64((n + lx - 1) / lx),
		"launch.const":                1,
	}
	switch kernel {
	case "add2":
		c["flop.f32.add"] = float64(n)
	case "scale", "mul2":
		c["flop.f32.mul"] = float64(n)
	}
	return c
}

var trueWeights = map[string]float64{
	"global.load.f32.stride=1":    2e-10,
	"global.store.f32.stride=1":   3e-10,
	"global.minldst.f32.stride=1": -5e-11,
	"flop.f32.add":                4e-11,
	"flop.f32.mul":                6e-11,
	"launch.groups":               1e-7,
	"launch.const":                5e-6,
}

// allKernels make every property of trueWeights separable: loads,
// stores, their minimum and the flops vary independently across them.
var allKernels = []string{"store", "copy", "add2", "mul2", "scale"}

// syntheticTable has a row per kernel, size and work-group size, timed by
// the true weights on the hand-derived counts. A row's class is its
// kernel's name.
func syntheticTable(device string, kernels []string, role string) *datasets.Table {
	t := &datasets.Table{Meta: datasets.Meta{DeviceName: device, Backend: "opencl", Suite: "test", Method: "synthetic"}}
	for _, k := range kernels {
		for _, n := range []int64{1000, 4096, 50000, 333333} {
			for _, lx := range []int64{64, 256} {
				secs := 0.0
				for p, c := range handCounts(k, n, lx) {
					secs += trueWeights[p] * c
				}
				t.Rows = append(t.Rows, datasets.Row{
					Device: device, Backend: "opencl", Kernel: k, Class: k, Role: role, Variant: "v",
					Consts: map[string]int64{"LX": lx}, Params: map[string]int64{"n": n},
					LocalSize: []int64{lx}, GlobalSize: []int64{(n + lx - 1) / lx * lx},
					TimeS: secs, RawTimesS: []float64{secs}, RunsKept: 1,
					Timestamp: time.Unix(0, 0).UTC(), Version: "test",
				})
			}
		}
	}
	return t
}

func TestSamplesMatchHandCounts(t *testing.T) {
	c := models.NewCounter(testSource)
	rows := models.Rows(map[string]*datasets.Table{"t": syntheticTable("dev", allKernels, datasets.RoleMeasurement)}, "")
	props, samples, err := Samples(c, rows, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(props) != len(trueWeights) {
		t.Errorf("properties %v, want the %d of trueWeights", props, len(trueWeights))
	}
	for i, s := range samples {
		want := handCounts(rows[i].Kernel, rows[i].Params["n"], rows[i].Consts["LX"])
		for j, p := range props {
			if s.Counts[j] != want[p] {
				t.Errorf("%s: %s = %g, want %g", s.Label, p, s.Counts[j], want[p])
			}
		}
	}
}

func TestTrainRecoversWeights(t *testing.T) {
	c := models.NewCounter(testSource)
	tables := map[string]*datasets.Table{
		"m.arrow": syntheticTable("dev", allKernels, datasets.RoleMeasurement),
	}
	w, err := CalibrateTables(c, tables, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w.Device != "dev" || w.Model != fit.ModelUnified || w.PropertySet != fit.PropertySetID(w.Properties) {
		t.Errorf("table identity: device %q model %q set %q", w.Device, w.Model, w.PropertySet)
	}
	for i, p := range w.Properties {
		if got, want := w.Values[i], trueWeights[p]; math.Abs(got-want) > 1e-6*math.Abs(want) {
			t.Errorf("%s: weight %g, want %g", p, got, want)
		}
	}
	if err := models.CheckWeights(w); err != nil {
		t.Error(err)
	}

	// Predictions of new sizes are the hand-derived dot products.
	for _, k := range []string{"copy", "scale"} {
		got, terms, err := Predict(c, w, k, map[string]int64{"LX": 128}, map[string]int64{"n": 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		for p, n := range handCounts(k, 1<<20, 128) {
			want += trueWeights[p] * n
		}
		if math.Abs(got-want) > 1e-6*want || len(terms) == 0 {
			t.Errorf("%s: predicted %g, want %g (%d terms)", k, got, want, len(terms))
		}
	}
}

func TestValidateAndCrossValidate(t *testing.T) {
	c := models.NewCounter(testSource)
	m := syntheticTable("dev", allKernels, datasets.RoleMeasurement)
	test := syntheticTable("dev", []string{"copy", "scale"}, datasets.RoleTest)
	m.Rows = append(m.Rows, test.Rows...)
	tables := map[string]*datasets.Table{"m": m}
	w, err := CalibrateTables(c, tables, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases, err := Validate(c, w, models.Rows(tables, datasets.RoleTest))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != len(test.Rows) {
		t.Fatalf("%d cases for %d test rows", len(cases), len(test.Rows))
	}
	for _, cs := range cases {
		if cs.RelErr() > 1e-6 {
			t.Errorf("%s %s: measured %g predicted %g", cs.Kernel, cs.Size, cs.Measured, cs.Predicted)
		}
	}

	// Classes "small" and "large" each hold every kernel, so each can be
	// fitted without the other and predicted exactly; class "adds" holds
	// the only add2 rows, and without it flop.f32.add has no price.
	for i, r := range m.Rows {
		switch {
		case r.Role == datasets.RoleTest:
		case r.Kernel == "add2":
			m.Rows[i].Class = "adds"
		case r.Params["n"] < 10000:
			m.Rows[i].Class = "small"
		default:
			m.Rows[i].Class = "large"
		}
	}
	cases, skipped, err := CrossValidate(c, tables, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || !strings.HasPrefix(skipped[0], "adds: ") || !strings.Contains(skipped[0], "flop.f32.add") {
		t.Errorf("skipped %q; want adds, for flop.f32.add", skipped)
	}
	if len(cases) != 32 {
		t.Errorf("%d cross-validated cases, want the 32 rows of small and large", len(cases))
	}
	for _, cs := range cases {
		if cs.RelErr() > 1e-6 {
			t.Errorf("cross-validated %s %s: measured %g predicted %g", cs.Kernel, cs.Size, cs.Measured, cs.Predicted)
		}
	}
}

func TestErrors(t *testing.T) {
	c := models.NewCounter(testSource)
	a := syntheticTable("gpu A", []string{"copy"}, datasets.RoleMeasurement)
	b := syntheticTable("gpu B", []string{"copy"}, datasets.RoleMeasurement)
	if _, err := CalibrateTables(c, map[string]*datasets.Table{"a": a, "b": b}, Options{}); err == nil || !strings.Contains(err.Error(), "one device at a time") {
		t.Errorf("two devices: %v", err)
	}
	cuda := syntheticTable("gpu A", []string{"copy"}, datasets.RoleMeasurement)
	cuda.Meta.Backend = "cuda"
	if _, err := CalibrateTables(c, map[string]*datasets.Table{"a": a, "c": cuda}, Options{}); err == nil || !strings.Contains(err.Error(), "fit: c was measured through cuda, a through opencl: give the tables of one backend") {
		t.Errorf("two backends: %v", err)
	}
	tests := syntheticTable("gpu A", []string{"copy"}, datasets.RoleTest)
	if _, err := CalibrateTables(c, map[string]*datasets.Table{"t": tests}, Options{}); err == nil || !strings.Contains(err.Error(), "no measurement rows") {
		t.Errorf("only test rows: %v", err)
	}
	unknown := syntheticTable("gpu A", []string{"copy"}, datasets.RoleMeasurement)
	unknown.Rows[3].Kernel = "nosuch"
	if _, err := CalibrateTables(c, map[string]*datasets.Table{"u.arrow": unknown}, Options{}); err == nil ||
		!strings.Contains(err.Error(), "u.arrow row 3") || !strings.Contains(err.Error(), "no .knl description") {
		t.Errorf("kernel without .knl: %v", err)
	}
	few := syntheticTable("gpu A", []string{"copy"}, datasets.RoleMeasurement)
	few.Rows = few.Rows[:2]
	if _, err := CalibrateTables(c, map[string]*datasets.Table{"f": few}, Options{}); err == nil || !strings.Contains(err.Error(), "at least as many measurement rows as properties") {
		t.Errorf("fewer rows than properties: %v", err)
	}
	missing := syntheticTable("gpu A", []string{"copy"}, datasets.RoleMeasurement)
	missing.Rows[0].Params = map[string]int64{"m": 5}
	if _, err := CalibrateTables(c, map[string]*datasets.Table{"p": missing}, Options{}); err == nil || !strings.Contains(err.Error(), "p row 0") {
		t.Errorf("missing parameter: %v", err)
	}

	w := &fit.Weights{Device: "d", Model: fit.ModelUnified, Version: "0.0.1", Properties: []string{"global.load.f32.stride1"}, Values: []float64{1}}
	if err := models.CheckWeights(w); err == nil || !strings.Contains(err.Error(), "another property set") {
		t.Errorf("foreign property: %v", err)
	}
	w = &fit.Weights{Device: "d", Model: "hongkim"}
	if err := models.CheckWeights(w); err == nil || !strings.Contains(err.Error(), "not the unified linear model") {
		t.Errorf("foreign model: %v", err)
	}
}

func TestPredictor(t *testing.T) {
	c := models.NewCounter(testSource)
	tables := map[string]*datasets.Table{"m": syntheticTable("dev", allKernels, datasets.RoleMeasurement)}
	w, err := CalibrateTables(c, tables, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range allKernels {
		p, err := NewPredictor(c, w, k, map[string]int64{"LX": 32})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Params(), []string{"n"}) {
			t.Fatalf("%s: parameters %v", k, p.Params())
		}
		for _, n := range []int64{1, 31, 33, 123456789} {
			got, err := p.Predict([]int64{n})
			if err != nil {
				t.Fatal(err)
			}
			want := 0.0
			for prop, cnt := range handCounts(k, n, 32) {
				want += trueWeights[prop] * cnt
			}
			if math.Abs(got-want) > 1e-6*want {
				t.Errorf("%s at n=%d: predicted %g, want %g", k, n, got, want)
			}
		}
	}

	// Weights fitted without any multiplication cannot price scale.
	noMul := map[string]*datasets.Table{"m": syntheticTable("dev", []string{"store", "copy", "add2"}, datasets.RoleMeasurement)}
	w, err = CalibrateTables(c, noMul, Options{Fit: fit.Options{MinNorm: true}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPredictor(c, w, "scale", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Predict([]int64{100}); err == nil || !strings.Contains(err.Error(), "flop.f32.mul = 100 but the weights have no price") {
		t.Errorf("unpriced property: %v", err)
	}
}

// BenchmarkPredictor times one prediction of library kernels, from the
// simplest to the tiled matrix multiplication: the kernel's counts
// evaluated from compiled expressions and their dot product with a
// weight per property.
func BenchmarkPredictor(b *testing.B) {
	for _, name := range []string{"global_copy", "vector_scale_add", "matmul_tiled", "finite_diff"} {
		b.Run(name, func(b *testing.B) {
			c := models.NewCounter(nil)
			k, err := c.Kernel(name, nil)
			if err != nil {
				b.Fatal(err)
			}
			w := &fit.Weights{Device: "bench", Model: fit.ModelUnified, Properties: k.Names()}
			for range w.Properties {
				w.Values = append(w.Values, 1e-10)
			}
			p, err := NewPredictor(c, w, name, nil)
			if err != nil {
				b.Fatal(err)
			}
			params := make([]int64, len(p.Params()))
			for i := range params {
				params[i] = 4096
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Predict(params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Leaving out a class predicts the rows the other classes determine and
// says why it leaves the others: copy's rows split into two classes
// predict each other exactly (the other classes leave loads and
// min(loads, stores) collinear, so the fit is the minimum-norm one, along
// which copy lies); without the add2 rows flop.f32.add has no price; and
// without the store rows their stores cannot be told from the loads and
// min(loads, stores) that always come with them.
func TestCrossValidateRowByRow(t *testing.T) {
	c := models.NewCounter(testSource)
	m := syntheticTable("dev", []string{"copy", "add2", "store"}, datasets.RoleMeasurement)
	for i, r := range m.Rows {
		if r.Kernel == "copy" && r.Params["n"] < 10000 {
			m.Rows[i].Class = "copy1"
		} else if r.Kernel == "copy" {
			m.Rows[i].Class = "copy2"
		}
	}
	cases, skipped, err := CrossValidate(c, map[string]*datasets.Table{"m": m}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 8 {
		t.Errorf("%d cases, want the 8 copy rows", len(cases))
	}
	for _, cs := range cases {
		if cs.Kernel != "copy" || cs.RelErr() > 1e-6 {
			t.Errorf("%s %s: measured %g predicted %g", cs.Kernel, cs.Size, cs.Measured, cs.Predicted)
		}
	}
	want := []string{
		"add2: 8 of 8 rows not predicted: flop.f32.add is exercised by no other class",
		"store: 8 of 8 rows not predicted: store counts a combination of properties the other classes do not determine",
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(want, "\n"))
	}
}
