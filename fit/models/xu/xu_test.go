package xu

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestXuByHand predicts two launches on the GTX 460 from its cycle
// weights (add 16, global 500; no Hong–Kim section, so an extra
// transaction costs another 500) and compares with the quantities derived
// by hand. Blocks of 256 threads: 8 warps, 6 resident blocks (48 warps of
// the SM's 48), 7 SMs.
func TestXuByHand(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	m, err := models.New("xu")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	const clock = 1.35e9
	for _, c := range []struct {
		name   string
		c      models.Case
		cycles float64
	}{
		// arith_add_f32, n = 64, nk = 8: per work-item 8 iterations of 8
		// f32 additions, T_C = 64·16 = 1024; one store of a 16-wide row
		// and the next, 64 floats further: 2 lines of 128 bytes, one more
		// than coalesced, T_M = 500 + 500, n = 1. 48·1024 ≥ 1000 hides
		// the latency (3-22): 1000/1 + 48·1024 per group of blocks, 16
		// blocks in 16/(6·7) groups.
		{"covered", models.Case{Kernel: "arith_add_f32", Params: map[string]int64{"n": 64, "nk": 8}}, (1000 + 48*1024) * 16.0 / 42},
		// transpose_read_coalesced, n = 1024: no computation, so (4-5)
		// applies: T_M per group. The load touches 2 lines (1 extra),
		// the store b[j, i] 16 lines (rows j and j+1 share one per
		// column pair; 15 extra): T_M = 1000 + 500 + 15·500 = 9000;
		// 4096 blocks.
		{"uncovered", models.Case{Kernel: "transpose_read_coalesced", Params: map[string]int64{"n": 1024}}, 9000 * 4096.0 / 42},
	} {
		p, err := m.Predict(env, c.c)
		if err != nil {
			t.Fatal(err)
		}
		if want := c.cycles / clock; !modeltest.RelClose(p.Seconds, want, 1e-12) {
			t.Errorf("%s: %g s, by hand %g s", c.name, p.Seconds, want)
		}
		want := map[string]string{"covered": "latency hidden", "uncovered": "latency not hidden"}[c.name]
		found := false
		for _, q := range p.Explain {
			if q.Name == "N_w" {
				found = q.Value == 48 && strings.Contains(q.Note, want)
			}
		}
		if !found {
			t.Errorf("%s: explanation lacks N_w = 48, %q: %+v", c.name, want, p.Explain)
		}
	}
}

// TestXuFitRecovers generates times with known constants on the PoCL CPU
// and checks that calibration recovers them, leaving out the rows of
// kernels it cannot trace.
func TestXuFitRecovers(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	gen := &Model{Cycles: map[string]float64{"f32.add": 3}, Coalesced: 50, PerTransaction: 20, Launch: 2e-6}
	var rows []models.Row
	for _, c := range []models.Case{
		{Kernel: "global_copy", Consts: map[string]int64{"LX": 64}, Params: map[string]int64{"n": 1 << 16}},
		{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": 1 << 20}},
		{Kernel: "transpose_read_coalesced", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 256}},
		{Kernel: "transpose_read_coalesced", Consts: map[string]int64{"LX": 32, "LY": 8}, Params: map[string]int64{"n": 512}},
		{Kernel: "arith_add_f32", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 64, "nk": 32}},
		{Kernel: "arith_add_f32", Consts: map[string]int64{"LX": 8, "LY": 4}, Params: map[string]int64{"n": 256, "nk": 8}},
		{Kernel: "empty", Params: map[string]int64{"n": 64}},
	} {
		p, err := gen.Predict(env, c)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, models.Row{Row: datasets.Row{Kernel: c.Kernel, Class: c.Kernel, Role: datasets.RoleMeasurement,
			Consts: c.Consts, Params: c.Params, TimeS: p.Seconds}, Table: "synthetic", Index: len(rows)})
	}
	// Rows of kernels with gathers and atomics, which the model cannot
	// trace, and with 1- or 2-byte elements are left out: timed at a
	// second, they would move every constant.
	traced := len(rows)
	for _, k := range []string{"gather_f32", "atomic_add_i32", "global_int_u8", "global_f16"} {
		rows = append(rows, models.Row{Row: datasets.Row{Kernel: k, Class: k, Role: datasets.RoleMeasurement,
			Params: map[string]int64{"n": 1 << 16}, TimeS: 1}, Table: "synthetic", Index: len(rows)})
	}
	m := &Model{}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	if m.FitRows != traced || m.FitRMS > 1e-9 || !strings.Contains(m.Summary(), "fitted") {
		t.Errorf("fit on %d rows, RMS %g: %s", m.FitRows, m.FitRMS, m.Summary())
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"f32.add", m.Cycles["f32.add"], 3}, {"T_Mco", m.Coalesced, 50}, {"T_tx", m.PerTransaction, 20}, {"launch", m.Launch, 2e-6},
	} {
		if !modeltest.RelClose(c.got, c.want, 1e-6) {
			t.Errorf("%s: fitted %g, generated with %g", c.name, c.got, c.want)
		}
	}
}

func TestXuErrors(t *testing.T) {
	m := &Model{}
	if err := m.Calibrate(&models.Env{Counter: models.NewCounter(nil)}, nil); err == nil || !strings.Contains(err.Error(), "no device file") {
		t.Errorf("no device: %v", err)
	}
	if _, err := m.Predict(&models.Env{Counter: models.NewCounter(nil)}, models.Case{Kernel: "global_copy"}); err == nil {
		t.Error("an uncalibrated model predicts")
	}
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	_, err := m.Predict(env, models.Case{Kernel: "arith_pow_f32", Params: map[string]int64{"n": 32, "nk": 4}})
	if err == nil || !strings.Contains(err.Error(), "no cycles for f32.pow") {
		t.Errorf("pow on the GTX 460: %v", err)
	}
}

// TestXuFromDeviceTakesEveryComputeClass calibrates on a device file alone:
// every compute weight the file gives (the H100's include pow and special)
// is a cycle class at every type, and a kernel with pow then predicts.
func TestXuFromDeviceTakesEveryComputeClass(t *testing.T) {
	d := modeltest.Device(t, "h100-sxm5")
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	m := &Model{}
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"pow", "special", "add"} {
		want, ok := d.Cycles.Weights[kind]
		if !ok {
			t.Fatalf("the H100 file lost its %s weight", kind)
		}
		for _, class := range []string{"f32." + kind, "f64." + kind} {
			if got := m.Cycles[class]; got != want {
				t.Errorf("%s: %g cycles, the file gives %g", class, got, want)
			}
		}
	}
	if _, ok := m.Cycles["f32.global"]; ok {
		t.Error("a memory weight became a compute class")
	}
	if _, err := m.Predict(env, models.Case{Kernel: "arith_pow_f32", Params: map[string]int64{"n": 32, "nk": 4}}); err != nil {
		t.Errorf("pow on the H100: %v", err)
	}
}
