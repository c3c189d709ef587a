package hongkim

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestBoundsHoldTable6 checks BoundsOf against hand-derived values and
// against the paper: the Mem_LD and departure delays Hong and Kim measured
// (Table 6, in the files of its GPUs) lie inside the bounds their files
// imply.
func TestBoundsHoldTable6(t *testing.T) {
	// H100 SXM5: 32·4 bytes × 132 SMs × 1.98 GHz / 3.35 TB/s =
	// 9.98638 cycles, × 64 warps = 639.128; Issue_cycles 0.25.
	h := BoundsOf(modeltest.Device(t, "h100-sxm5"), 0.25)
	if !modeltest.RelClose(h.MemLDMin, 9.98638, 1e-5) || !modeltest.RelClose(h.MemLDMax, 639.128, 1e-5) || h.DepartureMin != 0.25 {
		t.Errorf("H100 bounds %+v, want Mem_LD 9.98638–639.128, departures from 0.25", h)
	}
	// FX5600: 128 × 16 × 1.35 GHz / 76.8 GB/s = 36, × 24 = 864.
	fx := BoundsOf(modeltest.Device(t, "quadro-fx5600"), 4)
	if !modeltest.RelClose(fx.MemLDMin, 36, 1e-12) || !modeltest.RelClose(fx.MemLDMax, 864, 1e-12) {
		t.Errorf("FX5600 bounds %+v, want 36–864", fx)
	}
	for _, name := range []string{"quadro-fx5600", "8800gtx", "8800gt", "gtx280"} {
		d := modeltest.Device(t, name)
		h, err := d.HongKimParams()
		if err != nil {
			t.Fatal(err)
		}
		b := BoundsOf(d, h.IssueCycles)
		mem := Memory{h.MemLD, h.DepartureDelCoal, h.DepartureDelUncoal}
		if b.clamp(mem) != mem {
			t.Errorf("%s: Table 6's %+v outside the bounds %+v", name, mem, b)
		}
	}
}

// TestInstructionPrices checks the instruction prices on the H100, from
// the cycle weights its file prints (add 0.0112, mul 0.0105, pow 0.635
// cycles): z = 2.5x + 1.5y is one addition and two multiplications,
// 1 + 2·0.0105/0.0112 = 2.875 instructions; a pow is 0.635/0.0112 =
// 56.696 additions. On the FX5600, whose file has no cycle weights,
// every flop is one instruction, as in the paper.
func TestInstructionPrices(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil)}
	for _, c := range []struct {
		device string
		want   float64
	}{{"h100-sxm5", 2.875}, {"quadro-fx5600", 3}} {
		d := modeltest.Device(t, c.device)
		fixed, err := d.HongKimFixedParams()
		if err != nil {
			t.Fatal(err)
		}
		in := modeltest.Inputs(t, env, "vector_scale_add", map[string]int64{"LX": 256, "STRIDE": 1}, map[string]int64{"n": 1024})
		k, err := hongKimKernel(d, fixed, in, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !modeltest.RelClose(k.CompInsts, c.want, 1e-12) {
			t.Errorf("%s: #Comp_insts %g, want %g", c.device, k.CompInsts, c.want)
		}
	}
	if p := price(pricesOf(modeltest.Device(t, "h100-sxm5")), "pow"); !modeltest.RelClose(p, 0.635/0.0112, 1e-12) {
		t.Errorf("H100 pow: %g instructions, want 56.696", p)
	}
}

// TestCalibrationRows checks which rows the memory parameters are fitted
// on. On the FX5600 (76.8 GB/s, no caches), global_copy at n = 2^16 moves
// 2 accesses × 128 bytes × 2048 warps = 524288 bytes, 6.83 µs at the
// bandwidth: measured in 1 µs it was served faster than DRAM can and is
// left out; measured in 20 µs it is fitted on. matmul_tiled's rows have
// global accesses too; empty has no instructions at all. gather_f32 at
// n = 2^16 moves 3 accesses × 128 bytes × 2048 warps, 10.2 µs at the
// bandwidth: measured in 1 ms it is slower than the bandwidth, but its
// gathers are at data-chosen addresses, and it is left out.
// global_int_u8 at n = 2^16 moves 2 accesses × 32 bytes (32 work-items of
// one byte) × 2048 warps = 131072 bytes, 1.71 µs at the bandwidth:
// measured in 100 µs it is slower than the bandwidth, but its elements
// are one byte wide, and it is left out.
func TestCalibrationRows(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "quadro-fx5600")}
	row := func(kernel, class string, consts, params map[string]int64, s float64) models.Row {
		return models.Row{Row: datasets.Row{Kernel: kernel, Class: class, Role: datasets.RoleMeasurement, Consts: consts, Params: params, TimeS: s}}
	}
	copyRow := func(n int64, s float64) models.Row {
		return row("global_copy", "copy", map[string]int64{"LX": 256}, map[string]int64{"n": n}, s)
	}
	rows := []models.Row{
		copyRow(1<<16, 1e-6),
		copyRow(1<<16, 20e-6),
		copyRow(1<<18, 60e-6),
		row("matmul_tiled", "matmul", nil, map[string]int64{"n": 128, "m": 128, "ell": 128}, 3e-4),
		row("empty", "empty", map[string]int64{"LX": 16, "LY": 16}, map[string]int64{"n": 256}, 1e-5),
		row("gather_f32", "gather", map[string]int64{"LX": 256, "R": 1}, map[string]int64{"n": 1 << 16}, 1e-3),
		row("global_int_u8", "global_int", map[string]int64{"LX": 256, "R": 1, "S": 1}, map[string]int64{"n": 1 << 16}, 1e-4),
	}
	m := &Model{}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	c := m.Fit
	if c.Rows != 3 || c.Cached != 1 || c.Compute != 0 || c.Addressed != 1 || c.Narrow != 1 || len(c.Skipped) != 1 {
		t.Errorf("rows %d, cached %d, compute %d, addressed %d, narrow %d, skipped %v; want 3, 1, 0, 1, 1, one", c.Rows, c.Cached, c.Compute, c.Addressed, c.Narrow, c.Skipped)
	}
	// The FX5600 has no caches, so the two rules fit the same rows.
	if c.Rule != "bandwidth" || len(c.RuleCV) != 2 || c.RuleCV[0].Error != c.RuleCV[1].Error {
		t.Errorf("rule %q, cross-validation %+v", c.Rule, c.RuleCV)
	}
	if mem := m.Memory; c.Bounds.clamp(mem) != mem || math.IsNaN(mem.MemLD) {
		t.Errorf("parameters %+v outside the bounds %+v", mem, c.Bounds)
	}
}

// TestCalibrateFold checks a cross-validation fold's refit against a
// search from scratch (a grid over the bounds, then Nelder–Mead from its
// best points) on the same rows under the same rule: on the PoCL quick
// table without its first class, the refit from the parameters fitted on
// every row reaches the search's squared relative error within 1%, and it
// keeps the full fit's rule.
func TestCalibrateFold(t *testing.T) {
	dr := shippedDevice(t, "pocl-epyc-quick.arrow")
	var meas []models.Row
	for _, r := range dr.Rows {
		if r.Role == datasets.RoleMeasurement {
			meas = append(meas, r)
		}
	}
	full := &Model{}
	if err := full.Calibrate(dr.Env, meas); err != nil {
		t.Fatal(err)
	}
	left := meas[0].Class
	var rest []models.Row
	for _, r := range meas {
		if r.Class != left {
			rest = append(rest, r)
		}
	}
	fold := &Model{}
	if err := fold.CalibrateFold(dr.Env, rest, full); err != nil {
		t.Fatal(err)
	}
	if fold.Fit.Rule != full.Fit.Rule || len(fold.Fit.RuleCV) != 0 {
		t.Errorf("fold rule %q with cross-validation %v; want the full fit's %q and none", fold.Fit.Rule, fold.Fit.RuleCV, full.Fit.Rule)
	}
	d, fixed, err := hongKimDevice(dr.Env)
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := samplesOf(dr.Env, d, fixed, newLaunches(0, full.traffic(), nil), rest)
	if err != nil {
		t.Fatal(err)
	}
	sel := selectRule(all, full.Fit.Rule, "")
	b := BoundsOf(d, fixed.IssueCycles)
	active, _ := activeParams(sel)
	objective := func(m Memory) float64 {
		x := make([]float64, len(active))
		for i, p := range active {
			x[i] = math.Log(*p.at(&m))
		}
		return hongKimObjective(d, fixed, sel, m, b, active)(x)
	}
	scratch := objective(fitRows(d, fixed, sel, fold.Fit.Start, b, searchEvals))
	if refit := objective(fold.Memory); refit > 1.01*scratch {
		t.Errorf("fold without %s: refit's squared relative error %g, the search's %g", left, refit, scratch)
	}
}

// shippedDevice returns a shipped table's rows with the Env of its device.
func shippedDevice(tb testing.TB, name string) models.DeviceRows {
	tb.Helper()
	table, err := datasets.OpenShipped(name)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := gpus.Lookup(table.Meta.DeviceName)
	if err != nil {
		tb.Fatal(err)
	}
	rows := models.Rows(map[string]*datasets.Table{name: table}, "")
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	env.Counter.Prepare(rows)
	return models.DeviceRows{Device: d.Name, Env: env, Rows: rows}
}
