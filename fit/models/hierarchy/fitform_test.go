package hierarchy

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/uniperf/uniperf/fit"
)

// synthetic returns rows of random features timed by known weights under
// the form: launch.const and launch.groups, two memory features and two
// compute features, spread so that a third of the rows is bound by each
// of memory, compute and the groups' cost.
func synthetic(form string, weights []float64, n int) ([]string, []fit.Sample) {
	props := []string{"flop.f32.add", "flop.f32.mul", "global.load.f32.stride=1", "launch.const", "launch.groups", DRAMBytes}
	rng := rand.New(rand.NewPCG(1, 2))
	samples := make([]fit.Sample, n)
	for i := range samples {
		scale := math.Exp(rng.Float64() * 8)
		kind := i % 3 // memory-, compute- or groups-bound
		cnt := make([]float64, len(props))
		for j, p := range props {
			v := scale * (0.2 + rng.Float64())
			switch partOf(FormMax, p) {
			case computePart:
				if kind == 1 {
					v *= 20
				} else {
					v *= 0.5
				}
			case additive:
				v = math.Ceil(v / 100)
				if kind == 2 {
					v *= 1e3
				}
				if p == "launch.const" {
					v = 1
				}
			}
			cnt[j] = v
		}
		samples[i] = fit.Sample{Kernel: "k", Class: string(rune('a' + i%5)), Counts: cnt}
		samples[i].Time = combine(form, props, weights, cnt)
	}
	return props, samples
}

// TestFitRecoversWeights fits rows timed by known weights, under the sum
// and under the max, and wants the weights back.
func TestFitRecoversWeights(t *testing.T) {
	want := []float64{2e-12, 3e-12, 5e-11, 4e-6, 1e-9, 1e-11}
	for _, form := range []string{FormSum, FormMax, FormMaxGroups} {
		props, samples := synthetic(form, want, 200)
		got, err := fitSum(props, samples)
		if form != FormSum {
			got, err = fitMax(form, props, samples)
		}
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		for j := range want {
			if math.Abs(got[j]-want[j]) > 1e-6*want[j] {
				t.Errorf("%s: weight of %s = %g, want %g", form, props[j], got[j], want[j])
			}
		}
	}
}

// TestMaxFitsWhatSumCannot checks that the rows timed by the max are
// fitted exactly by the max form and not by the sum: the alternation
// finds each row's bound part.
func TestMaxFitsWhatSumCannot(t *testing.T) {
	want := []float64{2e-12, 3e-12, 5e-11, 4e-6, 1e-9, 1e-11}
	props, samples := synthetic(FormMax, want, 200)
	sum, err := fitSum(props, samples)
	if err != nil {
		t.Fatal(err)
	}
	if obj := objective(FormSum, props, sum, samples); obj < 1e-4 {
		t.Errorf("the sum fits rows timed by the max to %g squared relative error; the rows do not tell the forms apart", obj)
	}
	mx, err := fitMax(FormMax, props, samples)
	if err != nil {
		t.Fatal(err)
	}
	if obj := objective(FormMax, props, mx, samples); obj > 1e-12 {
		t.Errorf("the max fits its own rows to %g squared relative error, want 0", obj)
	}
}
