package tune_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
)

// TestHierarchyAtSizesAsSymbolic predicts bindings of the two tuning
// kernels and a kernel with chains through global memory with the
// hierarchy model in its CPU form, counted at the sizes with the
// bindings sharing their parts (models.NewCounterAt, as tune counts
// them), and checks every feature and the time against the same
// bindings counted symbolically in the sizes (models.NewCounter, as
// predict counts them): the counts, the footprints, the cache lines,
// the scalar moves and the chains. Every feature a binding has is
// given a weight of its own, so that any difference shows.
func TestHierarchyAtSizesAsSymbolic(t *testing.T) {
	d, err := gpus.Lookup("pocl-cpu")
	if err != nil {
		t.Fatal(err)
	}
	type binding struct {
		consts map[string]int64
		params map[string]int64
	}
	cases := []struct {
		kernel   string
		source   models.Source
		bindings []binding
	}{
		{"../../examples/matmul_kernel.knl", models.Files, []binding{
			{map[string]int64{"BX": 16, "BY": 4, "TX": 2, "TY": 2}, map[string]int64{"n": 96}},
			{map[string]int64{"BX": 16, "BY": 8, "TX": 1, "TY": 2}, map[string]int64{"n": 96}},
			{map[string]int64{"BX": 32, "BY": 4, "TX": 1, "TY": 1}, map[string]int64{"n": 80}},
		}},
		{"../../examples/convolution_kernel.knl", models.Files, []binding{
			{map[string]int64{"BX": 16, "BY": 2, "TX": 1, "TY": 2, "PAD": 0}, map[string]int64{"h": 64, "w": 64}},
			{map[string]int64{"BX": 16, "BY": 4, "TX": 2, "TY": 1, "PAD": 0, "FW": 16, "FH": 3}, map[string]int64{"h": 40, "w": 49}},
		}},
		{"accumulate_global", models.Library, []binding{
			{map[string]int64{"LX": 8}, map[string]int64{"n": 32, "nk": 4}},
			{map[string]int64{"LX": 16}, map[string]int64{"n": 48, "nk": 5}},
		}},
	}
	for _, tc := range cases {
		params := tc.bindings[0].params
		at := &models.Env{Counter: models.NewCounterAt(tc.source, models.DefaultBanks, params), Device: d}
		symbolic := &models.Env{Counter: models.NewCounter(tc.source), Device: d}
		for _, b := range tc.bindings {
			if !equalParams(b.params, params) {
				params = b.params
				at = &models.Env{Counter: models.NewCounterAt(tc.source, models.DefaultBanks, params), Device: d}
			}
			t.Run(fmt.Sprint(tc.kernel, b.consts, b.params), func(t *testing.T) {
				c := models.Case{Kernel: tc.kernel, Consts: b.consts, Params: b.params}
				checkSamePrediction(t, weighEveryFeature(t, symbolic, c), symbolic, at, c)
			})
		}
	}
}

// checkSamePrediction checks that m predicts c the same, to the bit,
// time and every quantity, counted at the sizes (at) and symbolically.
func checkSamePrediction(t *testing.T, m models.Model, symbolic, at *models.Env, c models.Case) {
	t.Helper()
	want, err := m.Predict(symbolic, c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Predict(at, c)
	if err != nil {
		t.Fatal(err)
	}
	if got.Seconds != want.Seconds {
		t.Errorf("%s %v: counted at the sizes %g s, symbolically %g s", c.Kernel, c.Consts, got.Seconds, want.Seconds)
	}
	wq := quantities(want)
	for q, v := range quantities(got) {
		if wv, ok := wq[q]; !ok || wv != v {
			t.Errorf("%s %v: %s: %v at the sizes, %v symbolically", c.Kernel, c.Consts, q, v, wv)
		}
		delete(wq, q)
	}
	for q, v := range wq {
		t.Errorf("%s %v: %s: none at the sizes, %v symbolically", c.Kernel, c.Consts, q, v)
	}
}

// weighEveryFeature returns the hierarchy model in its CPU form with a
// distinct weight for every feature case c has (those predict names as
// unpriced under a model with no weights).
func weighEveryFeature(t *testing.T, env *models.Env, c models.Case) *hierarchy.Model {
	t.Helper()
	m := &hierarchy.Model{Config: hierarchy.Chosen("cpu"), Properties: []string{"launch.const"}, Values: []float64{1e-6}, ZeroMissing: true}
	p, err := m.Predict(env, c)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range p.Explain {
		if q.Unit == "s" && q.Value == 0 && !slices.Contains(m.Properties, q.Name) {
			m.Properties = append(m.Properties, q.Name)
			m.Values = append(m.Values, 1e-12*float64(len(m.Values)+1))
		}
	}
	if len(m.Properties) < 4 {
		t.Fatalf("%d features: %v", len(m.Properties), p.Explain)
	}
	isChain := func(p string) bool { return strings.HasPrefix(p, hierarchy.ChainPrefix) }
	if c.Kernel == "accumulate_global" && !slices.ContainsFunc(m.Properties, isChain) {
		t.Fatalf("no chain among %v", m.Properties)
	}
	m.ZeroMissing = false
	return m
}

// quantities maps the quantities of a prediction's explanation by name.
func quantities(p models.Prediction) map[string]float64 {
	out := map[string]float64{}
	for _, q := range p.Explain {
		out[q.Name] = q.Value
	}
	return out
}

func equalParams(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
