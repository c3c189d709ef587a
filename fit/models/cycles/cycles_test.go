package cycles

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	seed "github.com/uniperf/uniperf/fit/cycles"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

func near(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

// vsaRow is a vector_scale_add row (stride 1, 256 work-items per group).
func vsaRow(n int64, secs float64) models.Row {
	return models.Row{Row: datasets.Row{Kernel: "vector_scale_add", Class: "vector_scale_add", Role: datasets.RoleMeasurement,
		Consts: map[string]int64{"LX": 256, "STRIDE": 1}, Params: map[string]int64{"n": n}, TimeS: secs}}
}

// On the GTX 460 file (Resios's latencies: add 16, mul 16, global 500),
// vector_scale_add costs 16 + 2·16 + 3·500 = 1548 cycles per work-item;
// 256 work-items are 8 warps, 48/8 = 6 blocks fill the SM's 48 warps, so
// the occupancy is 1.
const vsaCycles, gtx460Hz = 1548.0, 1.35e9

func vsaEstimate(n float64) float64 { return n * vsaCycles / gtx460Hz }

// TestCyclesHandDerived checks the estimate against the hand count, the
// calibration against the seed's definition (estimated / measured), and
// the prediction of another size (the estimate scales with n).
func TestCyclesHandDerived(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	m := &Model{}
	const measured = 2e-4
	if err := m.Calibrate(env, []models.Row{vsaRow(1<<16, measured), vsaRow(1<<20, 1)}); err != nil {
		t.Fatal(err)
	}
	if len(m.Kernels) != 1 || m.WeightsFrom != "devices/gtx460.json" {
		t.Fatalf("kernels %+v from %s", m.Kernels, m.WeightsFrom)
	}
	k := m.Kernels[0]
	if k.Key != "vector_scale_add LX=256 STRIDE=1" || k.Params["n"] != 1<<16 || !near(k.EstimatedS, vsaEstimate(1<<16), 1e-12) {
		t.Errorf("kernel %+v, want the smallest size estimated at %g s", k, vsaEstimate(1<<16))
	}
	if want := vsaEstimate(1<<16) / measured; !near(k.AdjustingWeight, want, 1e-12) || !near(m.Fallback, want, 1e-12) {
		t.Errorf("adjusting weight %g, fallback %g, want %g", k.AdjustingWeight, m.Fallback, want)
	}
	p, err := m.Predict(env, models.CaseOf(vsaRow(1<<18, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if !near(p.Seconds, 4*measured, 1e-12) || len(p.Explain) != 6 || !strings.Contains(p.Explain[5].Note, "calibrated at n=65536") {
		t.Errorf("n = 2^18 predicted %g s, want %g (%v)", p.Seconds, 4*measured, p.Explain)
	}

	// Calibrated on the largest size instead: 1 s for 2^20.
	m = &Model{CalibrateAt: "largest"}
	if err := m.Calibrate(env, []models.Row{vsaRow(1<<16, measured), vsaRow(1<<20, 1)}); err != nil {
		t.Fatal(err)
	}
	if p, _ := m.Predict(env, models.CaseOf(vsaRow(1<<18, 0))); !near(p.Seconds, 0.25, 1e-12) {
		t.Errorf("calibrated on the largest size: %g s, want 0.25", p.Seconds)
	}
}

// TestCyclesLocalMemory: tiled matmul (n = m = ell = 64) per work-item on
// the GTX 460: 68 adds and 64 muls at 16 cycles, 9 global accesses at
// 500, 136 local accesses at 36 (see TestHongKimInputs for the counts);
// 256 work-items with 2 KiB of local memory, 6 blocks, occupancy 1.
func TestCyclesLocalMemory(t *testing.T) {
	d := modeltest.Device(t, "gtx460")
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	in := modeltest.Inputs(t, env, "matmul_tiled", nil, map[string]int64{"n": 64, "m": 64, "ell": 64})
	k, o, err := cyclesKernel(d, in, 0)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := d.CycleWeights(seed.DefaultWeights())
	e, err := seed.Estimated(k, w, d.ClockHz, o)
	if err != nil {
		t.Fatal(err)
	}
	if e.Computation != (68+64)*16 || e.GlobalMemory != 9*500 || e.SharedMemory != 136*36 || o != 1 {
		t.Errorf("estimate %+v, occupancy %g", e, o)
	}
}

// TestCyclesSizeSensitivity: rows timed at known ratios r = estimated /
// measured of 2 (n = 2^16), 3 (2^18) and 4 (2^20). Calibrated on size i,
// the model predicts size j with error |r_j/r_i − 1|: on the smallest,
// 1/2 and 1 (geometric mean √0.5); on the middle, 1/3 and 1/3; on the
// largest, 1/2 and 1/4 (√(1/8)).
func TestCyclesSizeSensitivity(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	rows := []models.Row{
		vsaRow(1<<20, vsaEstimate(1<<20)/4),
		vsaRow(1<<16, vsaEstimate(1<<16)/2),
		vsaRow(1<<18, vsaEstimate(1<<18)/3),
		{Row: datasets.Row{Kernel: "empty", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 64}, TimeS: 1e-6}},
		{Row: datasets.Row{Kernel: "empty", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 128}, TimeS: 2e-6}},
	}
	s, skipped, err := (&Model{}).SizeSensitivity(env, rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 1 || len(skipped) != 1 || !strings.Contains(skipped[0], "empty LX=16 LY=16") {
		t.Fatalf("sensitivity %+v, skipped %v", s, skipped)
	}
	want := []float64{math.Sqrt(0.5), 1.0 / 3, math.Sqrt(1.0 / 8)}
	for i, e := range s[0].Errors {
		if !near(e, want[i], 1e-9) {
			t.Errorf("calibrated on %s: error %g, want %g", s[0].Sizes[i], e, want[i])
		}
	}
	if s[0].Sizes[0] != "n=65536 STRIDE=1" {
		t.Errorf("sizes %v, want increasing measured time", s[0].Sizes)
	}
}

// TestCyclesFallback: a kernel without rows of its own is predicted with
// the median of the calibrated kernels' adjusting weights, of two the
// geometric mean of both.
func TestCyclesFallback(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	// 128 work-items are 4 warps; 8 blocks (the block limit) are 32 of 48
	// warps: occupancy 2/3, the estimate 3/2 that of 256 work-items.
	other := vsaRow(1<<16, 1.5*vsaEstimate(1<<16)/8) // adjusting weight 8
	other.Consts = map[string]int64{"LX": 128, "STRIDE": 1}
	m := &Model{}
	if err := m.Calibrate(env, []models.Row{vsaRow(1<<16, vsaEstimate(1<<16)/2), other}); err != nil {
		t.Fatal(err)
	}
	if !near(m.Fallback, 4, 1e-12) {
		t.Errorf("fallback %g, want √(2·8) = 4", m.Fallback)
	}
	p, err := m.Predict(env, models.Case{Kernel: "vector_scale_add", Consts: map[string]int64{"LX": 64, "STRIDE": 1}, Params: map[string]int64{"n": 1 << 16}})
	if err != nil {
		t.Fatal(err)
	}
	// 64 work-items are 2 warps; 8 blocks (the block limit) are 16 of 48
	// warps: occupancy 1/3.
	if want := vsaEstimate(1<<16) * 3 / 4; !near(p.Seconds, want, 1e-12) || !strings.Contains(p.Explain[5].Note, "median over 2") {
		t.Errorf("predicted %g, want %g (%v)", p.Seconds, want, p.Explain[5])
	}
}

// A kernel that counts integer operations is not calibrated on: the
// seed's computation term has none, so its adjusting weight would carry
// their time into the fallback. The fallback stays the one kernel's.
func TestCyclesSkipsIntegerKernels(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	ints := models.Row{Row: datasets.Row{Kernel: "arith_int_i32", Consts: map[string]int64{"LX": 16, "LY": 16},
		Params: map[string]int64{"n": 128, "na": 8, "nb": 1, "nc": 1, "nd": 1, "ne": 1, "c": 13}, TimeS: 1}}
	m := &Model{}
	if err := m.Calibrate(env, []models.Row{vsaRow(1<<16, vsaEstimate(1<<16)/2), ints}); err != nil {
		t.Fatal(err)
	}
	if !near(m.Fallback, 2, 1e-12) || len(m.Kernels) != 1 {
		t.Errorf("fallback %g over %d kernels, want 2 over vector_scale_add alone", m.Fallback, len(m.Kernels))
	}
	if len(m.Skipped) != 1 || !strings.Contains(m.Skipped[0], "arith_int_i32") || !strings.Contains(m.Skipped[0], "int.i32.add") {
		t.Errorf("skipped %q, want arith_int_i32 for its integer operations", m.Skipped)
	}
}

// The H100 PCIe file carries no cycle weights (no table of it ships), so
// the seed's defaults, which have none for pow, apply.
func TestCyclesErrors(t *testing.T) {
	counter := models.NewCounter(nil)
	h100 := &models.Env{Counter: counter, Device: modeltest.Device(t, "h100-pcie")}
	powRow := models.Row{Row: datasets.Row{Kernel: "arith_pow_f32", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 64, "nk": 8}, TimeS: 1e-3}}
	err := (&Model{}).Calibrate(h100, []models.Row{powRow})
	if err == nil || !strings.Contains(err.Error(), `no cycle weight for instruction class "pow"`) || !strings.Contains(err.Error(), "devices/h100-pcie.json") {
		t.Errorf("no pow weight: %v", err)
	}
	if err := (&Model{}).Calibrate(&models.Env{Counter: counter}, []models.Row{powRow}); err == nil || !strings.Contains(err.Error(), "needs a device parameter file") {
		t.Errorf("no device: %v", err)
	}
	if err := (&Model{CalibrateAt: "median"}).Calibrate(h100, []models.Row{powRow}); err == nil || !strings.Contains(err.Error(), `"median"`) {
		t.Errorf("bad calibration size: %v", err)
	}
	empty := models.Row{Row: datasets.Row{Kernel: "empty", Params: map[string]int64{"n": 64}, TimeS: 1e-6}}
	if err := (&Model{}).Calibrate(h100, []models.Row{empty}); err == nil || !strings.Contains(err.Error(), "no kernel to calibrate on") {
		t.Errorf("only the empty kernel: %v", err)
	}
	m := &Model{}
	if _, err := m.Predict(h100, models.CaseOf(empty)); err == nil || !strings.Contains(err.Error(), "not calibrated") {
		t.Errorf("uncalibrated: %v", err)
	}
	if err := m.Calibrate(h100, []models.Row{vsaRow(1<<16, 1e-5)}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Predict(h100, models.CaseOf(empty)); !errors.Is(err, models.ErrNoWork) {
		t.Errorf("empty kernel: %v", err)
	}
	if _, err := m.Predict(&models.Env{Counter: counter, Device: modeltest.Device(t, "gtx460")}, models.CaseOf(vsaRow(1<<16, 0))); err == nil || !strings.Contains(err.Error(), "calibrated for H100") {
		t.Errorf("another device: %v", err)
	}
}

// TestCyclesFallbackCV: the fallback's size is chosen by leaving each
// kernel class out (with one kernel in each fold, the median is its
// weight). Class a's kernel has estimated / measured ratios 2 at
// its smallest size and 4 at its largest; class b's (128 work-items per
// group, whose estimate is 3/2 that of 256) 8 at both. At the smallest
// sizes, a is predicted with b's 8 (errors 3/4, 1/2) and b with a's 2
// (errors 3, 3): geometric mean (3/4·1/2·9)^¼; at the largest, a with 8
// (3/4, 1/2) and b with 4 (1, 1): (3/8)^¼. The largest wins, and the
// fallback is √(4·8).
func TestCyclesFallbackCV(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	row := func(class string, lx, n int64, ratio float64) models.Row {
		r := vsaRow(n, vsaEstimate(float64(n))/ratio)
		r.Class, r.Consts = class, map[string]int64{"LX": lx, "STRIDE": 1}
		if lx == 128 {
			r.TimeS *= 1.5
		}
		return r
	}
	rows := []models.Row{row("a", 256, 1<<16, 2), row("a", 256, 1<<20, 4), row("b", 128, 1<<16, 8), row("b", 128, 1<<20, 8)}
	m := &Model{}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	want := []FallbackScore{{"smallest", math.Pow(0.75*0.5*9, 0.25), 4}, {"largest", math.Pow(0.375, 0.25), 4}}
	if len(m.FallbackCV) != 2 {
		t.Fatalf("cross-validation %+v", m.FallbackCV)
	}
	for i, s := range m.FallbackCV {
		if s.At != want[i].At || s.Rows != 4 || !near(s.Error, want[i].Error, 1e-12) {
			t.Errorf("candidate %+v, want %+v", s, want[i])
		}
	}
	if m.FallbackAt != "largest" || !near(m.Fallback, math.Sqrt(32), 1e-12) {
		t.Errorf("fallback %g at %s, want √32 at the largest sizes", m.Fallback, m.FallbackAt)
	}
	// The kernels' own weights stay at their smallest sizes (CalibrateAt).
	if !near(m.Kernels[0].AdjustingWeight, 8, 1e-12) || !near(m.Kernels[1].AdjustingWeight, 2, 1e-12) {
		t.Errorf("kernels %+v", m.Kernels)
	}
}

// TestCyclesFallbackMedian: four kernels of four classes, one size each,
// with estimated / measured ratios 4, 8, 16 and 1/64 (a kernel 64 times
// slower than its estimate, as an atomic is). Left out in turn, the
// others' medians are 8, 4, 4 and 8 (errors 1/2, 1, 3, 511/512; their
// geometric means, 2^⅓, 1, 2^-⅓ and 8, would miss by 2^(5/3) − 1, 7,
// 16·2^⅓ − 1 and 511/512), and the fallback is the median of all four,
// the geometric mean of the middle two, √(4·8).
func TestCyclesFallbackMedian(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	// 512 work-items fill the SM as 256 do (3 blocks of 16 warps); 128
	// and 64 leave it 2/3 and 1/3 full (TestCyclesFallback).
	row := func(class string, lx int64, occupancy, ratio float64) models.Row {
		r := vsaRow(1<<16, vsaEstimate(1<<16)/occupancy/ratio)
		r.Class, r.Consts = class, map[string]int64{"LX": lx, "STRIDE": 1}
		return r
	}
	rows := []models.Row{row("a", 256, 1, 4), row("b", 512, 1, 8), row("c", 128, 2.0/3, 16), row("d", 64, 1.0/3, 1.0/64)}
	m := &Model{}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	median := math.Pow(0.5*1*3*511/512, 0.25)
	if len(m.FallbackCV) != 2 || !near(m.FallbackCV[0].Error, median, 1e-12) || !near(m.FallbackCV[1].Error, median, 1e-12) {
		t.Fatalf("cross-validation %+v, want %g at both sizes", m.FallbackCV, median)
	}
	if m.FallbackAt != "smallest" || !near(m.Fallback, math.Sqrt(32), 1e-12) {
		t.Errorf("fallback %g at the %s size; want √32 at the smallest", m.Fallback, m.FallbackAt)
	}
}

// TestCyclesAddressedKernels: a kernel with gathers keeps its own
// adjusting weight (its measured row is reproduced) but enters no
// fallback, which stays vector_scale_add's 2; nor does global_f16, whose
// accesses are 2 bytes wide (its weight, estimate / measured: 16 + 2·500
// = 1016 cycles a work-item, 2^16 work-items at occupancy 1 and 1.35 GHz
// are 49.3 ms, measured in 1 ms: 49.3).
func TestCyclesAddressedKernels(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	gather := models.Row{Row: datasets.Row{Kernel: "gather_f32", Class: "gather", Role: datasets.RoleMeasurement,
		Consts: map[string]int64{"LX": 256, "R": 4}, Params: map[string]int64{"n": 1 << 16}, TimeS: 1e-3}}
	m := &Model{}
	half := models.Row{Row: datasets.Row{Kernel: "global_f16", Class: "global_f16", Role: datasets.RoleMeasurement,
		Consts: map[string]int64{"LX": 256, "R": 1, "S": 1}, Params: map[string]int64{"n": 1 << 16}, TimeS: 1e-3}}
	if err := m.Calibrate(env, []models.Row{vsaRow(1<<16, vsaEstimate(1<<16)/2), gather, half}); err != nil {
		t.Fatal(err)
	}
	if !near(m.Fallback, 2, 1e-12) || len(m.Kernels) != 3 || !m.Kernels[0].Addressed || !m.Kernels[1].Narrow || m.Kernels[2].Addressed || m.Kernels[2].Narrow {
		t.Fatalf("fallback %g over %+v, want 2 over vector_scale_add alone", m.Fallback, m.Kernels)
	}
	if want := (1 << 16) * 1016.0 / gtx460Hz / 1e-3; !near(m.Kernels[1].AdjustingWeight, want, 1e-12) {
		t.Errorf("global_f16's adjusting weight %g, want %g", m.Kernels[1].AdjustingWeight, want)
	}
	p, err := m.Predict(env, models.CaseOf(gather))
	if err != nil {
		t.Fatal(err)
	}
	if !near(p.Seconds, 1e-3, 1e-12) {
		t.Errorf("gather_f32 predicted %g s at its calibration size, measured 1 ms", p.Seconds)
	}
	if !strings.Contains(m.Summary(), "median of 1 kernels") {
		t.Errorf("summary %q", m.Summary())
	}
	err = (&Model{}).Calibrate(env, []models.Row{gather})
	if err == nil || !strings.Contains(err.Error(), "give rows of kernels without them too") {
		t.Errorf("gathers alone: %v", err)
	}
}

// TestCyclesHierarchyTraffic: naive matmul at n = 64 on the GTX 460 file
// (L2 384 KiB). Its three 16 KiB matrices fit the L2, so DRAM moves their
// 49152 bytes once, of the 2·64³ + 64² accesses' 2113536 bytes: 1/43.
// Each of the 4096 work-items makes 129 global accesses, 3 of them to
// DRAM (500 cycles) and 126 L1 hits (the file's l1, 36 cycles), with 64
// additions and 64 multiplications at 16: 8084 cycles, where the paper's
// traffic gives 2048 + 129·500 = 66548. One block of 256 fills the SM
// (occupancy 1). On the H100 file, which gives no l1 weight, a cached
// access costs the add weight.
func TestCyclesHierarchyTraffic(t *testing.T) {
	d := modeltest.Device(t, "gtx460")
	env := &models.Env{Counter: models.NewCounter(nil), Device: d}
	base, _ := d.CycleWeights(seed.DefaultWeights())
	c := models.Case{Kernel: "matmul_naive", Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": 64}}
	if trafficOf(d) != TrafficHierarchy {
		t.Errorf("the GTX 460 file gives caches, and the traffic is %s", trafficOf(d))
	}
	for traffic, cycles := range map[string]float64{TrafficPaper: 66548, TrafficHierarchy: 8084} {
		m := &Model{Traffic: traffic, Weights: trafficWeights(d, base, traffic)}
		e, err := m.estimate(env, c)
		if err != nil {
			t.Fatal(err)
		}
		if !near(e.PerThread, cycles, 1e-12) || !near(e.Unadjusted, 4096*cycles/gtx460Hz, 1e-12) {
			t.Errorf("%s traffic: %g cycles per work-item, %g s; want %g", traffic, e.PerThread, e.Unadjusted, cycles)
		}
	}
	h100 := modeltest.Device(t, "h100-sxm5")
	hb, _ := h100.CycleWeights(seed.DefaultWeights())
	if w := trafficWeights(h100, hb, TrafficHierarchy); w[seed.L1] != 0.0112 || trafficWeights(h100, hb, TrafficPaper)[seed.L1] != 5 {
		t.Errorf("H100 l1 weight %g under the hierarchy's traffic, want the add weight 0.0112", w[seed.L1])
	}
}

// TestCyclesCalibrateFold: a cross-validation fold calibrated from the
// model fitted on every row reads that model's DRAM shares and gives what
// a calibration from scratch on the fold's rows gives.
func TestCyclesCalibrateFold(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	matmul := func(n int64, secs float64) models.Row {
		return models.Row{Row: datasets.Row{Kernel: "matmul_naive", Class: "matmul", Role: datasets.RoleMeasurement,
			Consts: map[string]int64{"LX": 16, "LY": 16}, Params: map[string]int64{"n": n}, TimeS: secs}}
	}
	other := vsaRow(1<<16, 1e-4)
	other.Consts = map[string]int64{"LX": 128, "STRIDE": 1}
	other.Class = "vsa128"
	fold := []models.Row{matmul(64, 1e-4), matmul(128, 5e-4), vsaRow(1<<16, 2e-4), vsaRow(1<<18, 7e-4)}
	full := &Model{}
	if err := full.Calibrate(env, append(fold, other)); err != nil {
		t.Fatal(err)
	}
	if len(full.shares.known) != 5 {
		t.Errorf("the full calibration kept %d DRAM shares, want one per row (5)", len(full.shares.known))
	}
	got, want := &Model{}, &Model{}
	if err := got.CalibrateFold(env, fold, full); err != nil {
		t.Fatal(err)
	}
	if err := want.Calibrate(env, fold); err != nil {
		t.Fatal(err)
	}
	if got.shares != full.shares || got.Fallback != want.Fallback || got.FallbackAt != want.FallbackAt || len(got.Kernels) != 2 ||
		got.Kernels[0].AdjustingWeight != want.Kernels[0].AdjustingWeight || got.Kernels[1].AdjustingWeight != want.Kernels[1].AdjustingWeight {
		t.Errorf("fold %+v, from scratch %+v", got, want)
	}
}
