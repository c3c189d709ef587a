package models

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

func TestRegistry(t *testing.T) {
	if !slices.Contains(Names(), "linear") {
		t.Errorf("models %v lack linear", Names())
	}
	m, err := New("linear")
	if err != nil || m.Name() != "linear" {
		t.Fatalf("New(linear): %v, %v", m, err)
	}
	if _, err := New("oracle"); err == nil || !strings.Contains(err.Error(), `no model "oracle"`) {
		t.Errorf("unknown model: %v", err)
	}
}

// TestInputs checks the launch facts of two library kernels against the
// kernel text: global_copy splits n by LX (one element per work-item);
// matmul_tiled holds two 16 x 16 f32 tiles in local memory.
func TestInputs(t *testing.T) {
	env := &Env{Counter: NewCounter(nil)}
	in, err := env.Inputs(Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if in.Global != [3]int64{1024, 1, 1} || in.Local != [3]int64{256, 1, 1} || in.Groups() != 4 || in.LocalBytes != 0 {
		t.Errorf("global_copy: global %v local %v groups %d local bytes %d", in.Global, in.Local, in.Groups(), in.LocalBytes)
	}
	if in.Counts["global.load.f32.stride=1"] != 1000 || in.Counts["global.store.f32.stride=1"] != 1000 {
		t.Errorf("global_copy counts %v", in.Counts)
	}
	in, err = env.Inputs(Case{Kernel: "matmul_tiled", Params: map[string]int64{"n": 64, "m": 64, "ell": 64}})
	if err != nil {
		t.Fatal(err)
	}
	if in.LocalBytes != 2*16*16*4 || in.GroupSize() != 256 || in.WorkItems() != 64*64 {
		t.Errorf("matmul_tiled: local bytes %d group %d work-items %d", in.LocalBytes, in.GroupSize(), in.WorkItems())
	}
	if _, err := env.Inputs(Case{Kernel: "global_copy", Params: map[string]int64{"m": 4}}); err == nil {
		t.Error("a missing parameter gives no error")
	}
}

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
	var rows []Row
	for _, k := range []string{"global_copy", "global_store_index"} {
		for _, n := range []int64{1000, 70000, 1 << 20} {
			for _, lx := range []int64{64, 256} {
				secs := timeOf(k, n, lx)
				rows = append(rows, Row{Row: datasets.Row{Kernel: k, Class: k, Role: datasets.RoleMeasurement,
					Consts: map[string]int64{"LX": lx}, Params: map[string]int64{"n": n}, TimeS: secs}})
			}
		}
	}
	env := &Env{Counter: NewCounter(nil)}
	m, _ := New("linear")
	if _, err := m.Predict(env, CaseOf(rows[0])); err == nil {
		t.Error("an uncalibrated model predicts")
	}
	// min(loads, stores) equals the loads of these kernels: the fit
	// cannot separate the two, so the minimum-norm solution is asked for.
	m.(*Linear).Options.Fit.MinNorm = true
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(env, Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 128}, Params: map[string]int64{"n": 5000000}})
	if err != nil {
		t.Fatal(err)
	}
	if want := timeOf("global_copy", 5000000, 128); math.Abs(p.Seconds-want) > 1e-6*want || len(p.Explain) == 0 {
		t.Errorf("predicted %g s, want %g (explain %v)", p.Seconds, want, p.Explain)
	}
}
