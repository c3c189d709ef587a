package hierarchy

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestCoreFill prices rowscale's launches of 1 to 5 work-groups of 64
// (n = 64G) on PoCL's 2 cores under each grid fill, with every weight
// but the launch terms' at 1 ps, against the same launch without a fill.
// By hand: the busy cores' fill (FillCores) is 2/min(G, 2), so 2 for one
// group and 1 from two; the rounds of groups (Saturation 1) is
// 2·⌈G/2⌉/G: 2, 1, 4/3, 1, 6/5.
func TestCoreFill(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	cfg := Chosen("cpu")
	lv, err := levelsOf(env, cfg)
	if err != nil {
		t.Fatal(err)
	}
	launch := func(groups int) models.Case {
		return models.Case{Kernel: "testdata/rowscale.knl", Params: map[string]int64{"n": 64 * int64(groups), "m": 8}}
	}
	seen := map[string]bool{}
	for g := 1; g <= 5; g++ {
		lf, err := facts(env, launch(g), cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		if lf.groups != int64(g) {
			t.Fatalf("n = %d: %d groups, want %d", 64*g, lf.groups, g)
		}
		for p := range lf.features {
			seen[p] = true
		}
	}
	props := slices.Sorted(maps.Keys(seen))
	values := make([]float64, len(props))
	for j, p := range props {
		if !strings.HasPrefix(p, "launch.") {
			values[j] = 1e-12
		}
	}
	model := func(fill *fit.GridFill, cores int64) *Model {
		return &Model{Config: cfg, Fill: fill, Cores: cores, Properties: props, Values: values}
	}
	none := model(nil, 0)
	busy := model(nil, 2)
	rounds := model(&fit.GridFill{Units: 2, Saturation: 1}, 0)
	wantBusy := []float64{2, 1, 1, 1, 1}
	wantRounds := []float64{2, 1, 4.0 / 3, 1, 6.0 / 5}
	for g := 1; g <= 5; g++ {
		base, err := none.Predict(env, launch(g))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			m    *Model
			want float64
		}{{"busy cores", busy, wantBusy[g-1]}, {"rounds", rounds, wantRounds[g-1]}} {
			p, err := c.m.Predict(env, launch(g))
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Seconds / base.Seconds; math.Abs(got-c.want) > 1e-12 {
				t.Errorf("%d groups, %s: %.6g times the unfilled time, want %.6g", g, c.name, got, c.want)
			}
		}
	}
}

// TestCoreFillCalibrates: FillCores takes its cores from the device
// file's sm_count (pocl-cpu.json: 2, clinfo's compute units), and says
// so in the Summary.
func TestCoreFillCalibrates(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := hierarchyRows(t, "empty", "reuse_group")
	cfg := Chosen("cpu")
	cfg.Saturation = FillCores
	m := &Model{Config: cfg}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	if m.Cores != 2 || m.Fill != nil || !strings.Contains(m.Summary(), "the busy cores of 2") {
		t.Errorf("cores %d, fill %v, summary %q: want 2 cores and no grid fill", m.Cores, m.Fill, m.Summary())
	}
	d := *env.Device
	d.SMs = 0
	env.Device = &d
	if err := (&Model{Config: cfg}).Calibrate(env, rows); err == nil || !strings.Contains(err.Error(), "sm_count") {
		t.Errorf("device without sm_count: %v, want an error naming sm_count", err)
	}
}

// hierarchyRows returns the measurement rows of the shipped hierarchy
// table (datasets/hierarchy/pocl-epyc.arrow) of the classes named.
func hierarchyRows(t *testing.T, classes ...string) []models.Row {
	t.Helper()
	tab, err := datasets.Read("../../../datasets/hierarchy/pocl-epyc.arrow")
	if err != nil {
		t.Fatal(err)
	}
	var rows []models.Row
	for _, r := range models.Rows(map[string]*datasets.Table{"h": tab}, datasets.RoleMeasurement) {
		if slices.Contains(classes, r.Class) {
			rows = append(rows, r)
		}
	}
	return rows
}
