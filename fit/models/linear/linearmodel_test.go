package linear

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
)

// TestLinearModel calibrates the linear model on global_copy and
// global_store_index rows timed with known weights on hand-derived counts
// (n loads and n stores, or n stores alone, ceil(n/LX) groups, a launch)
// and predicts a new size.
func TestLinearModel(t *testing.T) {
	const load, store, group, launch = 2e-10, 3e-10, 1e-7, 5e-6
	timeOf := func(kernel string, n, lx int64) float64 {
		loads := n
		if kernel == "global_store_index" {
			loads = 0
		}
		return load*float64(loads) + store*float64(n) + group*float64((n+lx-1)/lx) + launch
	}
	var rows []models.Row
	for _, k := range []string{"global_copy", "global_store_index"} {
		for _, n := range []int64{1000, 70000, 1 << 20} {
			for _, lx := range []int64{64, 256} {
				secs := timeOf(k, n, lx)
				rows = append(rows, models.Row{Row: datasets.Row{Kernel: k, Class: k, Role: datasets.RoleMeasurement,
					Consts: map[string]int64{"LX": lx}, Params: map[string]int64{"n": n}, TimeS: secs}})
			}
		}
	}
	env := &models.Env{Counter: models.NewCounter(nil)}
	m, _ := models.New("linear")
	if _, err := m.Predict(env, models.CaseOf(rows[0])); err == nil {
		t.Error("an uncalibrated model predicts")
	}
	// min(loads, stores) equals the loads of these kernels: the fit
	// cannot separate the two, so the minimum-norm solution is asked for.
	m.(*Model).Options.Fit.MinNorm = true
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(env, models.Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 128}, Params: map[string]int64{"n": 5000000}})
	if err != nil {
		t.Fatal(err)
	}
	if want := timeOf("global_copy", 5000000, 128); math.Abs(p.Seconds-want) > 1e-6*want || len(p.Explain) == 0 {
		t.Errorf("predicted %g s, want %g (explain %v)", p.Seconds, want, p.Explain)
	}
}
