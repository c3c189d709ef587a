package linear

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// handFill is the grid-fill factor worked from its definition for n
// work-items in groups of lx on units units saturated at sat, with the
// library's rounding of n up to whole groups.
func handFill(n, lx, units, sat int64) float64 {
	groups := (n + lx - 1) / lx
	busiest := (groups + units - 1) / units * lx
	return float64(units*max(busiest, sat)) / float64(groups*lx)
}

// fillTable is syntheticTable on a device of units compute units, timed
// with the true weights on counts scaled by the grid fill of saturation
// sat, the launch terms unscaled.
func fillTable(units, sat int64, kernels []string, role string) *datasets.Table {
	t := syntheticTable("dev", kernels, role)
	t.Meta.ComputeUnits = int(units)
	for i, r := range t.Rows {
		n, lx := r.Params["n"], r.Consts["LX"]
		f := handFill(n, lx, units, sat)
		secs := 0.0
		for p, c := range handCounts(r.Kernel, n, lx) {
			if p == "launch.const" || p == "launch.groups" {
				secs += trueWeights[p] * c
			} else {
				secs += trueWeights[p] * c * f
			}
		}
		t.Rows[i].TimeS, t.Rows[i].RawTimesS = secs, []float64{secs}
	}
	return t
}

func TestGridFillRecoversSaturationAndWeights(t *testing.T) {
	const units, sat = 8, 256
	c := models.NewCounter(testSource)
	tables := map[string]*datasets.Table{"m.arrow": fillTable(units, sat, allKernels, datasets.RoleMeasurement)}
	w, err := CalibrateTables(c, tables, Options{Fill: &fit.GridFill{}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Fill == nil || *w.Fill != (fit.GridFill{Units: units, Saturation: sat}) {
		t.Fatalf("grid fill %+v, want %d units saturated at %d", w.Fill, units, sat)
	}
	for i, p := range w.Properties {
		if got, want := w.Values[i], trueWeights[p]; math.Abs(got-want) > 1e-6*math.Abs(want) {
			t.Errorf("%s: weight %g, want %g", p, got, want)
		}
	}
	// Without the fill the same rows cannot be fitted.
	plain, err := CalibrateTables(c, tables, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Diagnostics.TrainingError < 0.01 {
		t.Errorf("the fit without the grid fill has a training error of %g on rows timed with it", plain.Diagnostics.TrainingError)
	}

	// A prediction at a new size and group size is the hand-derived sum,
	// by Predict and by a compiled Predictor alike.
	const n, lx = 1500, 128
	want := 0.0
	for p, cnt := range handCounts("copy", n, lx) {
		if p == "launch.const" || p == "launch.groups" {
			want += trueWeights[p] * cnt
		} else {
			want += trueWeights[p] * cnt * handFill(n, lx, units, sat)
		}
	}
	consts, params := map[string]int64{"LX": lx}, map[string]int64{"n": n}
	got, _, err := Predict(c, w, "copy", consts, params)
	if err != nil || math.Abs(got-want) > 1e-9*want {
		t.Errorf("Predict: %g (%v), want %g", got, err, want)
	}
	pr, err := NewPredictor(c, w, "copy", consts)
	if err != nil {
		t.Fatal(err)
	}
	got, err = pr.Predict([]int64{n})
	if err != nil || math.Abs(got-want) > 1e-9*want {
		t.Errorf("Predictor: %g (%v), want %g", got, err, want)
	}
	got, _, l, err := PredictLaunch(c, w, "copy", consts, params)
	if err != nil || math.Abs(got-want) > 1e-9*want || l.Groups != 12 || l.GroupSize != lx || l.Factor != handFill(n, lx, units, sat) {
		t.Errorf("PredictLaunch: %g, %+v (%v), want %g, 12 groups of %d, factor %g", got, l, err, want, lx, handFill(n, lx, units, sat))
	}
	// PredictAt takes the launch instead of finding it: 12 groups of
	// 128 work-items cover the 1500 elements.
	got, _, l, err = PredictAt(c, w, "copy", consts, params, [3]int64{12 * lx, 1, 1}, [3]int64{lx, 1, 1})
	if err != nil || math.Abs(got-want) > 1e-9*want || l.Groups != 12 || l.GroupSize != lx || l.Factor != handFill(n, lx, units, sat) {
		t.Errorf("PredictAt: %g, %+v (%v), want %g, 12 groups of %d, factor %g", got, l, err, want, lx, handFill(n, lx, units, sat))
	}

	// Validate takes each row's launch from the row and predicts the rows
	// as they were timed.
	vc, err := Validate(c, w, models.Rows(tables, ""))
	if err != nil || len(vc) != len(tables["m.arrow"].Rows) {
		t.Fatalf("Validate: %d cases, %v", len(vc), err)
	}
	for _, rc := range vc {
		if e := math.Abs(rc.RelErr()); e > 1e-6 {
			t.Errorf("Validate %s %v: error %g", rc.Kernel, rc.Params, e)
		}
	}

	// Cross-validation chooses the saturation again without each class,
	// and predicts every class left out exactly. The classes here cut
	// across kernels, so that every fold still separates the weights.
	for i := range tables["m.arrow"].Rows {
		tables["m.arrow"].Rows[i].Class = []string{"a", "b", "c"}[i%3]
	}
	cv, _, err := CrossValidate(c, tables, Options{Fill: &fit.GridFill{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cv) != len(tables["m.arrow"].Rows) {
		t.Errorf("cross-validation predicted %d of %d rows", len(cv), len(tables["m.arrow"].Rows))
	}
	for _, rc := range cv {
		if e := math.Abs(rc.RelErr()); e > 1e-6 {
			t.Errorf("%s %v left out: error %g", rc.Kernel, rc.Params, e)
		}
	}
}

func TestGridFillNeedsUnits(t *testing.T) {
	c := models.NewCounter(testSource)
	rows := models.Rows(map[string]*datasets.Table{"m.arrow": syntheticTable("dev", allKernels, datasets.RoleMeasurement)}, "")
	if _, err := Calibrate(c, rows, Options{Fill: &fit.GridFill{}}); err == nil {
		t.Error("a grid fill was fitted on rows of a device with no compute units")
	}
	w, err := Calibrate(c, rows, Options{Fill: &fit.GridFill{Units: 4}})
	if err != nil || w.Fill.Units != 4 {
		t.Errorf("units given: %+v, %v", w, err)
	}
}

// latencySource is testSource with a kernel whose flop, a division, is
// latency-bound (fit.LatencyBound).
func latencySource(name string) (string, []byte, error) {
	if name != "div2" {
		return testSource(name)
	}
	return "div2.knl", []byte(strings.Replace(testKernels["add2"], "a[i] + c[i]", "a[i] / c[i]", 1)), nil
}

// divWeight is the true weight of div2's divisions.
const divWeight = 7e-10

// splitFillTable is fillTable with div2 beside the other kernels, timed
// with the saturation sat for every scaled count but the divisions and
// lat for those, each factor worked by hand (handFill).
func splitFillTable(units, sat, lat int64) *datasets.Table {
	t := syntheticTable("dev", append(slices.Clone(allKernels), "div2"), datasets.RoleMeasurement)
	t.Meta.ComputeUnits = int(units)
	for i, r := range t.Rows {
		n, lx := r.Params["n"], r.Consts["LX"]
		counts := handCounts(strings.Replace(r.Kernel, "div2", "add2", 1), n, lx)
		secs := 0.0
		for p, c := range counts {
			switch {
			case p == "launch.const" || p == "launch.groups":
				secs += trueWeights[p] * c
			case p == "flop.f32.add" && r.Kernel == "div2":
				secs += divWeight * c * handFill(n, lx, units, lat)
			default:
				secs += trueWeights[p] * c * handFill(n, lx, units, sat)
			}
		}
		t.Rows[i].TimeS, t.Rows[i].RawTimesS = secs, []float64{secs}
	}
	return t
}

func TestGridFillLatencySaturation(t *testing.T) {
	const units, sat, lat = 8, 256, 512
	c := models.NewCounter(latencySource)
	tables := map[string]*datasets.Table{"m.arrow": splitFillTable(units, sat, lat)}
	w, err := CalibrateTables(c, tables, Options{Fill: &fit.GridFill{Latency: new(int64)}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Fill == nil || w.Fill.Saturation != sat || w.Fill.Latency == nil || *w.Fill.Latency != lat {
		t.Fatalf("grid fill %v, want saturations %d and %d", w.Fill, sat, lat)
	}
	want := maps.Clone(trueWeights)
	want["flop.f32.div"] = divWeight
	for i, p := range w.Properties {
		if got := w.Values[i]; math.Abs(got-want[p]) > 1e-6*math.Abs(want[p]) {
			t.Errorf("%s: weight %g, want %g", p, got, want[p])
		}
	}
	// One saturation for every property fits the same rows worse: the
	// split fit is exact (its error at the floor, fit.ErrorFloor), the
	// other misses the under-filled div2 rows.
	one, err := CalibrateTables(c, tables, Options{Fill: &fit.GridFill{}})
	if err != nil {
		t.Fatal(err)
	}
	if e := w.Diagnostics.TrainingError; e > fit.ErrorFloor*(1+1e-9) {
		t.Errorf("two saturations fit rows timed with them to %g", e)
	}
	if e := one.Diagnostics.TrainingError; e < 5*fit.ErrorFloor {
		t.Errorf("one saturation fits rows timed with two to %g", e)
	}

	// 12 groups of 128 at n = 1500: each of the 8 units runs at most 2
	// groups, 256 work-items, under both saturations. By hand, the
	// divisions' factor is 8·512/1536 and the others' 8·256/1536.
	const n, lx = 1500, 128
	consts, params := map[string]int64{"LX": lx}, map[string]int64{"n": n}
	fDiv, fOther := 8*512.0/1536, 8*256.0/1536
	hand := trueWeights["launch.const"] + trueWeights["launch.groups"]*12 +
		(trueWeights["global.load.f32.stride=1"]*2*n+trueWeights["global.store.f32.stride=1"]*n+trueWeights["global.minldst.f32.stride=1"]*n)*fOther +
		divWeight*n*fDiv
	got, _, l, err := PredictLaunch(c, w, "div2", consts, params)
	if err != nil || math.Abs(got-hand) > 1e-9*hand || math.Abs(l.Factor-fOther) > 1e-12 || math.Abs(l.LatencyFactor-fDiv) > 1e-12 {
		t.Errorf("PredictLaunch: %g, %+v (%v), want %g with factors %g and %g", got, l, err, hand, fOther, fDiv)
	}
	pr, err := NewPredictor(c, w, "div2", consts)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := pr.Predict([]int64{n}); err != nil || math.Abs(got-hand) > 1e-9*hand {
		t.Errorf("Predictor: %g (%v), want %g", got, err, hand)
	}
}
