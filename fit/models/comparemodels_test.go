package models_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/models/modeltest"
	"github.com/uniperf/uniperf/fit/report/plots"
)

// linearRows are rows timed by a known linear function of hand-derived
// counts: global_copy (n loads and n stores), global_store_index (n
// stores) and global_add4 (4n loads, n stores, 3n adds), each with ⌈n/LX⌉
// work-groups and a launch. The rows with 128 work-items per group are the
// test rows.
func linearRows() []models.Row {
	const load, store, add, group, launch = 2e-10, 3e-10, 1e-10, 1e-7, 5e-6
	var rows []models.Row
	for _, k := range []struct {
		kernel               string
		loads, stores, flops int64
	}{
		{"global_copy", 1, 1, 0},
		{"global_store_index", 0, 1, 0},
		{"global_add4", 4, 1, 3},
	} {
		for _, n := range []int64{1 << 12, 1 << 16, 1 << 20} {
			for _, lx := range []int64{64, 128, 256} {
				secs := load*float64(k.loads*n) + store*float64(k.stores*n) + add*float64(k.flops*n) + group*float64((n+lx-1)/lx) + launch
				role := datasets.RoleMeasurement
				if lx == 128 {
					role = datasets.RoleTest
				}
				rows = append(rows, models.Row{Table: "synthetic", Row: datasets.Row{Kernel: k.kernel, Class: k.kernel, Role: role,
					Consts: map[string]int64{"LX": lx}, Params: map[string]int64{"n": n}, TimeS: secs}})
			}
		}
	}
	return rows
}

func TestCompare(t *testing.T) {
	d := modeltest.Device(t, "quadro-fx5600")
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	names := []string{"linear", "hongkim", "cycles"}
	newModel := func(name string) (models.Model, error) {
		m, err := models.New(name)
		if l, ok := m.(*linear.Model); ok {
			l.Options.Fit.MinNorm = true // loads − min(loads, stores) = adds on these kernels
		}
		return m, err
	}
	c, err := models.Compare([]models.DeviceRows{{"FX", env, linearRows()}}, models.CompareOptions{Models: names, CV: true, New: newModel})
	if err != nil {
		t.Fatal(err)
	}
	if c.MeasurementRows != 18 || c.TestRows != 9 || len(c.Test) != 27 || len(c.Calibrated) != 3 {
		t.Fatalf("rows %d/%d, %d test outcomes, %d calibrated", c.MeasurementRows, c.TestRows, len(c.Test), len(c.Calibrated))
	}
	// The linear model is the function that timed the rows.
	for _, o := range c.Test {
		if o.Err != "" {
			t.Errorf("%s could not predict %s %s: %s", o.Model, o.Kernel, o.Size, o.Err)
		}
		if o.Model == "linear" && o.RelErr() > 1e-6 {
			t.Errorf("linear on %s %s: %+v", o.Kernel, o.Size, o)
		}
	}
	// Every model predicts or explains every measurement row once.
	if len(c.CV) != 3*18 {
		t.Errorf("%d cross-validation outcomes, want 54", len(c.CV))
	}
	// The cycles model has three sizes per kernel and work-group size.
	if len(c.Sensitivity) != 9 {
		t.Errorf("%d sensitivity rows, want 9", len(c.Sensitivity))
	}
	var md bytes.Buffer
	if err := c.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Calibration", "- hongkim on FX: Mem_LD", "## Test rows", "| linear | 9/9 | 0.001 |",
		"| kernel class | rows | linear | hongkim | cycles |", "| global_add4 | 3 |", "| device | rows |",
		"## Leave one kernel class out", "## Cycle-weighted model: error against the calibration size", "| geometric mean |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var svg bytes.Buffer
	if err := plots.Comparison(&svg, c.Models, c.Test, c.CV); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "<svg") || !strings.Contains(svg.String(), "leave one class out") {
		t.Errorf("plot is not the two-panel SVG: %.200s", svg.String())
	}
}

func TestCompareErrors(t *testing.T) {
	rows := linearRows()
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "h100-sxm5")}
	if _, err := models.Compare([]models.DeviceRows{{"H100", env, rows}}, models.CompareOptions{Models: []string{"linear", "oracle"}}); err == nil || !strings.Contains(err.Error(), `no model "oracle"`) {
		t.Errorf("unknown model: %v", err)
	}
	gtx970 := &models.Env{Counter: env.Counter, Device: modeltest.Device(t, "gtx970")}
	_, err := models.Compare([]models.DeviceRows{{"GTX 970", gtx970, rows}}, models.CompareOptions{Models: []string{"hongkim"}})
	if err == nil || !strings.Contains(err.Error(), "model hongkim on device GTX 970: device file devices/gtx970.json has no hongkim section") {
		t.Errorf("device without Hong–Kim constants: %v", err)
	}
	// A model that cannot run on a device is listed, the others compared.
	c, err := models.Compare([]models.DeviceRows{{"GTX 970", gtx970, rows}}, models.CompareOptions{Models: []string{"cycles", "hongkim"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.NotCompared) != 1 || !strings.HasPrefix(c.NotCompared[0], "model hongkim on device GTX 970: device file devices/gtx970.json has no hongkim section") {
		t.Errorf("not compared: %q", c.NotCompared)
	}
	for _, o := range c.Test {
		if o.Model != "cycles" {
			t.Errorf("outcome %+v", o)
		}
	}
	var md strings.Builder
	if err := c.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "Not compared:\n\n- model hongkim on device GTX 970") {
		t.Errorf("the report does not say hongkim was not compared:\n%s", md.String())
	}
	var test []models.Row
	for _, r := range rows {
		if r.Role == datasets.RoleTest {
			test = append(test, r)
		}
	}
	if _, err := models.Compare([]models.DeviceRows{{"H100", env, test}}, models.CompareOptions{Models: []string{"cycles"}}); err == nil || !strings.Contains(err.Error(), "no measurement rows") {
		t.Errorf("test rows only: %v", err)
	}
	if _, err := models.Compare(nil, models.CompareOptions{}); err == nil {
		t.Error("no models: no error")
	}
}

// foldProbe is a model that remembers what it was calibrated on: its
// prediction is 1000 × the rows of the full model it was calibrated from
// plus its own rows.
type foldProbe struct{ rows, fromRows int }

func (p *foldProbe) Name() string { return "probe" }
func (p *foldProbe) Calibrate(_ *models.Env, rows []models.Row) error {
	p.rows = len(rows)
	return nil
}
func (p *foldProbe) CalibrateFold(_ *models.Env, rows []models.Row, full models.Model) error {
	p.rows, p.fromRows = len(rows), full.(*foldProbe).rows
	return nil
}
func (p *foldProbe) Predict(*models.Env, models.Case) (models.Prediction, error) {
	return models.Prediction{Seconds: float64(1000*p.fromRows + p.rows)}, nil
}
func (p *foldProbe) Summary() string { return "" }

// TestCrossValidateFolds checks that a FoldCalibrator's folds are
// calibrated from the model fitted on every measurement row: 18
// measurement rows, three classes of 6, so each fold has 12 rows and is
// calibrated from a model of 18, and predicts 18012; a model that is no
// FoldCalibrator has no full model (0) behind its folds.
func TestCrossValidateFolds(t *testing.T) {
	d := models.DeviceRows{Device: "FX", Env: &models.Env{Counter: models.NewCounter(nil)}, Rows: linearRows()}
	out, skipped := models.CrossValidate(d, "probe", func(string) (models.Model, error) { return &foldProbe{}, nil })
	if len(out) != 18 || len(skipped) != 0 {
		t.Fatalf("%d outcomes, skipped %v; want 18 and none", len(out), skipped)
	}
	for _, o := range out {
		if o.Predicted != 18012 {
			t.Errorf("%s %s: predicted %g, want 18012", o.Kernel, o.Size, o.Predicted)
		}
	}
}
