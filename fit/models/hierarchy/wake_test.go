package hierarchy

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestWakeShare checks the busiest core's share of G groups on U cores,
// ⌈G/U⌉/G, by hand: one group or one core, all of it; 2 groups on 2
// cores, half; 3, two of them; 4096, half; 5 on 4 cores, two of five.
func TestWakeShare(t *testing.T) {
	for _, c := range []struct {
		groups float64
		cores  int64
		want   float64
	}{{0, 2, 1}, {1, 2, 1}, {2, 2, 0.5}, {3, 2, 2.0 / 3}, {4096, 2, 0.5}, {4096, 1, 1}, {5, 4, 0.4}} {
		if got := wakeShare(c.groups, c.cores); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%g groups on %d cores: share %g, want %g", c.groups, c.cores, got, c.want)
		}
	}
}

// wakeProps are the features of the hand-made launches below: the
// launch terms, the wake latency, one load (memory part) and one
// addition (compute part) of the max-groups form.
var wakeProps = []string{"flop.f32.add", "global.load.f32.stride=1", "launch.const", "launch.groups", WakeLatency}

// wakeTime is the time of a launch of groups work-groups and work W
// (at one core's weights) on two cores by hand: cnst + W while W is
// within the latency, or the launch is one group; cnst + s·W +
// (1 − s)·latency beyond, s = ⌈G/2⌉/G.
func wakeTime(cnst, latency, groups, work float64) float64 {
	if groups <= 1 || work <= latency {
		return cnst + work
	}
	s := math.Ceil(groups/2) / groups
	return cnst + s*work + (1-s)*latency
}

// maxWork is a launch's work in the max-groups form at weights w (in
// wakeProps' order): the largest of its loads', additions' and groups'.
func maxWork(w [5]float64, groups, loads, adds float64) float64 {
	return max(w[1]*loads, w[0]*adds, w[3]*groups)
}

// wakeSample is a launch's counts in wakeProps' order.
func wakeSample(groups, loads, adds float64) []float64 {
	return []float64{adds, loads, 1, groups, 0}
}

// TestWakeCounts prices hand-made launches with wakeCounts against
// wakeTime, at weights of 0.5 ns an addition, 1 ns a load, 0.3 µs a
// launch, 7 ns a group and a 10 µs latency: 16 groups of 4096 loads
// (W = 4.096 µs, one core: 4.396 µs); 4096 groups of 2^20 loads (W =
// 1048.576 µs, half of it and half the latency: 529.588 µs); 3 groups
// of 30000 loads (two thirds of 30 µs and a third of 10: 23.633 µs);
// one group of 10^6 loads (one core whatever its length: 1000.3 µs);
// W at the latency exactly (one core: 10.3 µs).
func TestWakeCounts(t *testing.T) {
	checkWakeCounts(t, false, wakeTime, []wakeCase{
		{16, 4096, 2048, 4.396e-6},
		{4096, 1 << 20, 1 << 19, 529.588e-6},
		{3, 30000, 100, 0.3e-6 + 20e-6 + 10e-6/3},
		{1, 1e6, 0, 1000.3e-6},
		{64, 10000, 0, 10.3e-6},
	}, 1e-12)
}

// handWeights are the weights of the hand-made launches, in wakeProps'
// order: 0.5 ns an addition, 1 ns a load, 0.3 µs a launch, 7 ns a group
// and a 10 µs latency.
var handWeights = [5]float64{0.5e-9, 1e-9, 0.3e-6, 7e-9, 10e-6}

// wakeCase is a hand-made launch and its time worked out by hand.
type wakeCase struct{ groups, loads, adds, want float64 }

// checkWakeCounts prices each case with wakeCounts (smooth or not) in
// the max-groups form at handWeights, against its hand-worked time (to
// tol) and against timeOf (cnst, latency, groups, W) at the case's work.
func checkWakeCounts(t *testing.T, smooth bool, timeOf func(cnst, latency, groups, work float64) float64, cases []wakeCase, tol float64) {
	t.Helper()
	w := handWeights
	for _, c := range cases {
		cnt := wakeCounts(FormMaxGroups, wakeProps, w[:], wakeSample(c.groups, c.loads, c.adds), 2, smooth)
		got := combine(FormMaxGroups, wakeProps, w[:], cnt)
		if !modeltest.RelClose(got, c.want, tol) || !modeltest.RelClose(got, timeOf(w[2], w[4], c.groups, maxWork(w, c.groups, c.loads, c.adds)), 1e-12) {
			t.Errorf("%g groups, %g loads: %.10g s, want %.10g", c.groups, c.loads, got, c.want)
		}
	}
}

// TestFitWake fits the weights and the latency back from launches
// timed by wakeTime in the sum form (W = 0.5 ns an addition + 1 ns a
// load + 7 ns a group; from 1 to 4096 groups, from within the latency
// to 1260 times it): fitWake's alternation places every launch as the
// weights do and recovers each weight to 1e-6. (The sum form: the max
// forms' own alternation, fitMax, need not reach the exact weights.)
func TestFitWake(t *testing.T) {
	checkFitWake(t, false, wakeTime, 1e-6)
}

// checkFitWake fits handWeights back (to tol) with fitWake, smooth or
// not, from launches of 1 to 4096 groups timed by timeOf in the sum
// form.
func checkFitWake(t *testing.T, smooth bool, timeOf func(cnst, latency, groups, work float64) float64, tol float64) {
	t.Helper()
	w := handWeights
	var samples []fit.Sample
	for _, groups := range []float64{1, 2, 3, 16, 256, 4096} {
		for _, per := range []float64{4, 64, 256, 1024} {
			for _, adds := range []float64{0.25, 4} {
				loads, a := groups*per, adds*groups*per
				work := w[0]*a + w[1]*loads + w[3]*groups
				samples = append(samples, fit.Sample{Counts: wakeSample(groups, loads, a), Time: timeOf(w[2], w[4], groups, work)})
			}
		}
	}
	got, err := fitWake(FormSum, wakeProps, samples, 2, smooth, fitSum)
	if err != nil {
		t.Fatal(err)
	}
	for j, p := range wakeProps {
		if !modeltest.RelClose(got[j], w[j], tol) {
			t.Errorf("%s: fitted %.6g, want %.6g", p, got[j], w[j])
		}
	}
}

// TestWakePredict prices rowscale's launches of 1 to 4096 groups of 64
// (n = 64G) on PoCL's 2 cores, every weight but the launch terms' at
// 1 ps, a launch 0.3 µs, a group 7 ns and a latency of 20 µs, against
// the same weights without Wake (const + W): within the latency, or of
// one group, the same; beyond, const + s·W + (1 − s)·20 µs.
func TestWakePredict(t *testing.T) {
	testWakePredict(t, false)
}

// TestSmoothWakePredict prices TestWakePredict's launches with the
// other cores joining after a mean delay of 20 µs: one group, the same
// as without Wake; more, const + s·W + (1 − s)·20 µs·(1 − e^(−W/20 µs))
// (smoothTime), W the work without Wake.
func TestSmoothWakePredict(t *testing.T) {
	testWakePredict(t, true)
}

func testWakePredict(t *testing.T, smooth bool) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	cfg := Chosen("cpu")
	cfg.WakeSmooth = smooth
	lv, err := levelsOf(env, cfg)
	if err != nil {
		t.Fatal(err)
	}
	launch := func(groups int64) models.Case {
		return models.Case{Kernel: "testdata/rowscale.knl", Params: map[string]int64{"n": 64 * groups, "m": 8}}
	}
	seen := map[string]bool{WakeLatency: true}
	sizes := []int64{1, 2, 3, 64, 512, 4096}
	for _, g := range sizes {
		lf, err := facts(env, launch(g), cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		for p := range lf.features {
			seen[p] = true
		}
	}
	props := slices.Sorted(maps.Keys(seen))
	values := make([]float64, len(props))
	for j, p := range props {
		switch p {
		case "launch.const":
			values[j] = 0.3e-6
		case "launch.groups":
			values[j] = 7e-9
		case WakeLatency:
			values[j] = 20e-6
		default:
			values[j] = 1e-12
		}
	}
	woke := cfg
	woke.Wake = true
	without := &Model{Config: cfg, Properties: props, Values: values}
	with := &Model{Config: woke, WakeCores: 2, Properties: props, Values: values}
	moved := 0
	for _, g := range sizes {
		base, err := without.Predict(env, launch(g))
		if err != nil {
			t.Fatal(err)
		}
		p, err := with.Predict(env, launch(g))
		if err != nil {
			t.Fatal(err)
		}
		work := base.Seconds - 0.3e-6
		want := base.Seconds
		if g > 1 && work > 20e-6 {
			moved++
		}
		switch {
		case smooth:
			want = smoothTime(0.3e-6, 20e-6, float64(g), work)
		case g > 1 && work > 20e-6:
			want = wakeTime(0.3e-6, 20e-6, float64(g), work)
		}
		if !modeltest.RelClose(p.Seconds, want, 1e-12) {
			t.Errorf("%d groups: %.6g s, want %.6g (%.6g without Wake)", g, p.Seconds, want, base.Seconds)
		}
	}
	if moved == 0 || moved == len(sizes) {
		t.Errorf("%d of %d launches beyond the latency: the sizes test one case only", moved, len(sizes))
	}
}

// TestWakeCalibrates: Wake takes its cores from the device file's
// sm_count (pocl-cpu.json: 2) and says so in the Summary; on a device
// of one core it is left off; a calibration that says Wake without its
// cores is refused, naming wake_cores.
func TestWakeCalibrates(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := hierarchyRows(t, "empty", "reuse_group")
	cfg := Chosen("cpu")
	cfg.Wake = true
	m := &Model{Config: cfg}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	if m.WakeCores != 2 || !slices.Contains(m.Properties, WakeLatency) || !strings.Contains(m.Summary(), "late cores 2 cores after") {
		t.Errorf("cores %d, features %v, summary %q: want 2 cores and the latency fitted", m.WakeCores, m.Properties, m.Summary())
	}
	if err := m.CheckCalibration(); err != nil {
		t.Errorf("the calibration itself: %v", err)
	}
	m.WakeCores = 0
	if err := m.CheckCalibration(); err == nil || !strings.Contains(err.Error(), "wake_cores") {
		t.Errorf("wake without cores: %v, want an error naming wake_cores", err)
	}
	d := *env.Device
	d.SMs = 1
	env.Device = &d
	one := &Model{Config: cfg}
	if err := one.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	if one.Config.Wake || one.WakeCores != 0 || slices.Contains(one.Properties, WakeLatency) {
		t.Errorf("one core: wake %v, cores %d, features %v: want it left off", one.Config.Wake, one.WakeCores, one.Properties)
	}
}

// smoothTime is the mean time of a launch of groups work-groups and work
// W on two cores whose second core joins after a delay D, exponential
// with mean mu, by hand: cnst + W for one group; otherwise the first core
// alone until min(D, W), then the busiest core's share s = ⌈G/2⌉/G of
// the rest, T = s·W + (1 − s)·min(D, W), and E[min(D, W)] =
// ∫₀^W e^(−x/µ) dx = µ(1 − e^(−W/µ)).
func smoothTime(cnst, mu, groups, work float64) float64 {
	if groups <= 1 {
		return cnst + work
	}
	s := math.Ceil(groups/2) / groups
	return cnst + s*work + (1-s)*mu*(1-math.Exp(-work/mu))
}

// TestSmoothWakeCounts prices TestWakeCounts' launches with a mean delay
// of 10 µs, against values worked out from smoothTime's closed form:
// 16 groups, W = 4.096 µs: 0.3 + 2.048 + 5(1 − e^(−0.4096)) = 4.02842 µs,
// below the fixed form's 4.396 (the second core may come early); 4096
// groups, W = 1048.576 µs: 529.588 µs, the fixed form's (e^(−104.9)
// vanishes); 3 groups, W = 30 µs: 0.3 + 20 + (10/3)(1 − e^(−3)) =
// 23.46738 µs; one group: 1000.3 µs; 64 groups, W = 10 µs:
// 0.3 + 5 + 5(1 − e^(−1)) = 8.46060 µs.
func TestSmoothWakeCounts(t *testing.T) {
	checkWakeCounts(t, true, smoothTime, []wakeCase{
		{16, 4096, 2048, 4.028421183e-6},
		{4096, 1 << 20, 1 << 19, 529.588e-6},
		{3, 30000, 100, 23.467376439e-6},
		{1, 1e6, 0, 1000.3e-6},
		{64, 10000, 0, 8.460602794e-6},
	}, 1e-9)
}

// TestFitSmoothWake fits the weights and the mean delay back from
// launches timed by smoothTime in the sum form, TestFitWake's launches:
// the smooth alternation, whose rounds are bounded (wakeRounds) and
// whose delay converges by Aitken's extrapolation, recovers each weight
// to 1%.
func TestFitSmoothWake(t *testing.T) {
	checkFitWake(t, true, smoothTime, 1e-2)
}

// TestAitken extrapolates x_k = 5 + 3·0.7^k, whose limit is 5 exactly
// from any three terms, and refuses fewer than three terms or a constant
// sequence.
func TestAitken(t *testing.T) {
	xs := []float64{5 + 3, 5 + 3*0.7, 5 + 3*0.49}
	if got, ok := aitken(xs); !ok || math.Abs(got-5) > 1e-12 {
		t.Errorf("aitken(%v) = %v, %v; want 5", xs, got, ok)
	}
	if _, ok := aitken(xs[:2]); ok {
		t.Error("two terms extrapolated")
	}
	if _, ok := aitken([]float64{1, 1, 1}); ok {
		t.Error("a constant sequence extrapolated")
	}
}
