package cycles

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestOneRun calibrates on vector_scale_add's rows and then gives
// global_copy, never calibrated, one measured run. global_copy loads and
// stores once per work-item: 2·500 = 1000 cycles per work-item on the GTX
// 460 file, occupancy 1 with 256 work-items per group, so at n = 2^16 it
// is estimated at 2^16·1000/1.35e9 s. Measured at 1e-4 s there, its
// adjusting weight is that estimate over 1e-4, and n = 2^18 is predicted
// at 4e-4 s; vector_scale_add keeps its calibrated weight, and the
// explanation says the factor came from one run of the kernel.
func TestOneRun(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	m := &Model{}
	if err := m.Calibrate(env, []models.Row{vsaRow(1<<16, 2e-4)}); err != nil {
		t.Fatal(err)
	}
	copyCase := func(n int64) models.Case {
		return models.Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": n}}
	}
	before, err := m.Predict(env, copyCase(1<<18))
	if err != nil || !strings.Contains(before.Explain[5].Note, "median over 1 calibrated kernels") {
		t.Fatalf("before the run: %v (%v)", before, err)
	}
	if err := m.OneRun(env, copyCase(1<<16), 1e-4); err != nil {
		t.Fatal(err)
	}
	want := (1 << 16) * 1000 / gtx460Hz / 1e-4
	if len(m.Kernels) != 2 || !m.Kernels[0].OneRun || !near(m.Kernels[0].AdjustingWeight, want, 1e-12) {
		t.Errorf("kernels %+v, want global_copy from one run with weight %g", m.Kernels, want)
	}
	p, err := m.Predict(env, copyCase(1<<18))
	if err != nil || !near(p.Seconds, 4e-4, 1e-12) || !strings.Contains(p.Explain[5].Note, "one measured run of this kernel, at n=65536") {
		t.Errorf("n = 2^18 predicted %v (%v), want 4e-4 s from one run", p, err)
	}
	if p, _ := m.Predict(env, models.CaseOf(vsaRow(1<<18, 0))); !near(p.Seconds, 8e-4, 1e-12) {
		t.Errorf("vector_scale_add moved to %g s, want its calibrated 8e-4", p.Seconds)
	}
	if err := m.OneRun(env, copyCase(1<<16), 0); err == nil || !strings.Contains(err.Error(), "must be positive") {
		t.Errorf("a run of 0 s: %v", err)
	}
	if err := m.OneRun(&models.Env{Counter: env.Counter, Device: modeltest.Device(t, "gtx280")}, copyCase(1<<16), 1e-4); err == nil || !strings.Contains(err.Error(), "another device") {
		t.Errorf("a run on another device: %v", err)
	}
}
