package tune

import (
	"cmp"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// subsetsMin averages the least value over every k-subset of x.
func subsetsMin(x []float64, k int) float64 {
	sum, count := 0.0, 0
	var rec func(start, left int, least float64)
	rec = func(start, left int, least float64) {
		if left == 0 {
			sum += least
			count++
			return
		}
		for i := start; i <= len(x)-left; i++ {
			rec(i+1, left-1, math.Min(least, x[i]))
		}
	}
	rec(0, k, math.Inf(1))
	return sum / float64(count)
}

// TestExpectedMin checks the order-statistics expectation against the
// average over all k-subsets, with ties among the values.
func TestExpectedMin(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 12; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(1 + r.IntN(5))
		}
		sorted := append([]float64(nil), x...)
		for i := range sorted {
			for j := i + 1; j < len(sorted); j++ {
				if sorted[j] < sorted[i] {
					sorted[i], sorted[j] = sorted[j], sorted[i]
				}
			}
		}
		for k := 1; k <= n; k++ {
			got, want := ExpectedMin(sorted, k), subsetsMin(x, k)
			if math.Abs(got-want) > 1e-12*want {
				t.Errorf("n=%d k=%d: %g, want %g", n, k, got, want)
			}
		}
	}
}

// bruteTau is Kendall's τ-b from its definition over all pairs.
func bruteTau(x, y []float64) float64 {
	var c, d, tx, ty float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			a, b := sign(x[i]-x[j]), sign(y[i]-y[j])
			switch {
			case a == 0 && b == 0:
			case a == 0:
				tx++
			case b == 0:
				ty++
			case a == b:
				c++
			default:
				d++
			}
		}
	}
	return (c - d) / math.Sqrt((c+d+tx)*(c+d+ty))
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// TestKendallTau checks Knight's algorithm against the pairwise
// definition, with and without ties.
func TestKendallTau(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 2 + r.IntN(40)
		levels := 3 + trial%50
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = float64(r.IntN(levels))
			y[i] = float64(r.IntN(levels))
		}
		got, want := KendallTau(x, y), bruteTau(x, y)
		if math.IsNaN(want) != math.IsNaN(got) || math.Abs(got-want) > 1e-12 {
			t.Fatalf("x=%v y=%v: τ %g, want %g", x, y, got, want)
		}
	}
	if got := KendallTau([]float64{1, 2, 3}, []float64{3, 2, 1}); got != -1 {
		t.Errorf("reversed: %g, want -1", got)
	}
}

// TestEvaluate checks one evaluation worked by hand: 4 configurations,
// the predicted best measures 3 against an optimum of 1.
func TestEvaluate(t *testing.T) {
	pred := []float64{1, 2, 3, 4}
	meas := []float64{3, 1, 4, 2}
	ev, err := Evaluate(pred, meas)
	if err != nil {
		t.Fatal(err)
	}
	// Pairs (of 6) concordant: (1,3)->(3,4), (2,3)->(1,4), (2,4)->(1,2) = 3; discordant 3: τ = 0.
	if ev.Tau != 0 || ev.Optimum != 1 {
		t.Errorf("τ %g optimum %g", ev.Tau, ev.Optimum)
	}
	// k=1: best 3, random mean (1+2+3+4)/4 = 2.5. k=1 (1%). k=4: best 1, random 1.
	want := []Pick{{K: 1, Best: 3, BestRatio: 3, Tied: 1, Drawn: 1, Random: 2.5, RandomRatio: 2.5},
		{K: 1, Best: 3, BestRatio: 3, Tied: 1, Drawn: 1, Random: 2.5, RandomRatio: 2.5},
		{K: 4, Best: 1, BestRatio: 1, Tied: 1, Drawn: 1, Random: 1, RandomRatio: 1}}
	for i, p := range ev.Picks {
		if p != want[i] {
			t.Errorf("pick %d: %+v, want %+v", i, p, want[i])
		}
	}
	if _, err := Evaluate([]float64{1, 2}, []float64{1, 0}); err == nil {
		t.Error("a zero measured time is accepted")
	}
}

// TestEvaluateTiedJSON checks that τ-b, undefined where every prediction
// ties (its denominator is zero), is NaN and written as null, while the
// picks stay defined: the predicted best is any of the three, so its
// expected time is their mean, (3 + 1 + 2)/3 = 2, over the optimum 1.
func TestEvaluateTiedJSON(t *testing.T) {
	ev, err := Evaluate([]float64{5, 5, 5}, []float64{3, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if p := ev.Picks[0]; !math.IsNaN(ev.Tau) || p.BestRatio != 2 || p.Tied != 3 || p.Drawn != 1 {
		t.Fatalf("%+v", ev)
	}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"kendall_tau":null`) || !strings.Contains(string(b), `"configurations":3`) {
		t.Errorf("%s", b)
	}
}

// TestEvaluateTies checks the picks' expectation, at every k, over the order of tied
// predictions against brute force: every permutation of the
// configurations, sorted stably by predicted time, is one order of the
// ties, each order of every tie group equally often; the mean of the
// least measured time among the first k over all permutations is the
// expectation.
func TestEvaluateTies(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 60 {
		n := 2 + r.IntN(6)
		pred, meas := make([]float64, n), make([]float64, n)
		for i := range pred {
			pred[i] = float64(r.IntN(1 + trial%4))
			meas[i] = float64(1 + r.IntN(9))
		}
		order := make([]int, n)
		for i := range order {
			order[i] = n - 1 - i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(pred[a], pred[b]) })
		for k := 1; k <= n; k++ {
			got, _, _ := bestOfTop(order, pred, meas, k)
			if want := permutedBest(pred, meas, k); math.Abs(got-want) > 1e-12*want {
				t.Fatalf("pred %v meas %v k=%d: best %g, want %g", pred, meas, k, got, want)
			}
		}
	}
}

// permutedBest averages, over every permutation of the configurations
// sorted stably by predicted time, the least measured time of the first k.
func permutedBest(pred, meas []float64, k int) float64 {
	n := len(pred)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sum, count := 0.0, 0
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			order := append([]int(nil), perm...)
			for a := 1; a < n; a++ {
				for b := a; b > 0 && pred[order[b]] < pred[order[b-1]]; b-- {
					order[b], order[b-1] = order[b-1], order[b]
				}
			}
			least := math.Inf(1)
			for _, j := range order[:k] {
				least = math.Min(least, meas[j])
			}
			sum += least
			count++
			return
		}
		for j := i; j < n; j++ {
			perm[i], perm[j] = perm[j], perm[i]
			rec(i + 1)
			perm[i], perm[j] = perm[j], perm[i]
		}
	}
	rec(0)
	return sum / float64(count)
}
