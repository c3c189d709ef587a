package counts

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// TestWeightedMatchesEval folds random weights into each library kernel's
// properties and checks the folded sum against the dot product of the
// weights with Eval's values (which the plan and interpreter checks
// verify) at the sizes of countChecks and at large sizes.
func TestWeightedMatchesEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	folded := 0
	for _, c := range countChecks() {
		k, counted := countedLibraryKernel(t, c.kernel, c.consts)
		weights := map[string]float64{}
		for _, n := range counted.Names() {
			weights[n] = math.Exp(rng.NormFloat64()*3) * 1e-9
		}
		w, err := counted.Weighted(weights)
		if errors.Is(err, ErrNotWeighable) {
			if len(counted.utils) == 0 {
				t.Errorf("%s: %v", c.kernel, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		folded++
		for _, scale := range []int64{1, 37} {
			params := map[string]int64{}
			args := make([]int64, len(k.Params))
			for i, p := range k.Params {
				params[p] = c.params[p] * scale
				args[i] = params[p]
			}
			values, err := counted.Eval(params)
			if err != nil {
				t.Fatal(err)
			}
			want := 0.0
			for n, v := range values {
				want += weights[n] * float64(v)
			}
			got, err := w.Eval(args)
			if err != nil {
				t.Fatalf("%s at %v: %v", c.kernel, params, err)
			}
			if math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("%s %v at %v: folded %g, dot product %g", c.kernel, c.consts, params, got, want)
			}
		}
	}
	if folded < len(library.Names())/2 {
		t.Errorf("only %d checks folded", folded)
	}
}

func TestWeightedErrors(t *testing.T) {
	_, counted := countedLibraryKernel(t, "matmul_naive", nil)
	if _, err := counted.Weighted(map[string]float64{"flop.f32.add": 1}); !errors.Is(err, ErrNotWeighable) {
		t.Errorf("missing weights: %v", err)
	}
	weights := map[string]float64{}
	for _, n := range counted.Names() {
		weights[n] = 1
	}
	w, err := counted.Weighted(weights)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Eval([]int64{0}); err == nil {
		t.Error("n = 0 violates the assumptions but gives no error")
	}
	if _, err := w.Eval([]int64{1 << 62}); err == nil {
		t.Error("n = 2^62 overflows but gives no error")
	}
	// n^3 = 2^60 fits in int64 but is beyond the bound below which the
	// folded sum is evaluated in floating point: the exact counts give it.
	const n = 1 << 20
	got, err := w.Eval([]int64{n})
	if err != nil {
		t.Fatal(err)
	}
	values, err := counted.Eval(map[string]int64{"n": n})
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for _, v := range values {
		want += float64(v)
	}
	if got != want {
		t.Errorf("n = 2^20: %g, want %g", got, want)
	}
	weights["flop.f32.add"] = math.NaN()
	if _, err := counted.Weighted(weights); err == nil {
		t.Error("a NaN weight gives no error")
	}
	_, strided := countedLibraryKernel(t, "vector_scale_add", map[string]int64{"STRIDE": 2})
	if _, err := strided.Weighted(weights); !errors.Is(err, ErrNotWeighable) {
		t.Errorf("utilization classes: %v", err)
	}
}
