package fit

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Known weights spanning the range of seed 001's Table 2 (s/op), for
// properties whose counts span 1 .. 1e12 as real kernels' do.
var (
	trueNames   = []string{"global.load.f32.stride=1", "global.store.f32.stride=1", "local.load.f32", "flop.f32.add", "flop.f32.mul", "sync.barrier", "launch.groups", "launch.const"}
	trueWeights = []float64{8.27e-12, 6.52e-12, 1.1e-12, 6.81e-13, 5.68e-13, 4.26e-11, 3.75e-9, 1.29e-4}
	// countScale[j] is the typical magnitude of property j's count.
	countScale = []float64{1e9, 1e8, 1e10, 1e12, 1e11, 1e7, 1e4, 1}
)

// synthetic returns m samples whose counts are random around countScale and
// whose times are Σ w_i p_i, each multiplied by (1 + u) with u uniform in
// [−noise, noise].
func synthetic(rng *rand.Rand, m int, w []float64, noise float64) []Sample {
	samples := make([]Sample, m)
	for i := range samples {
		counts := make([]float64, len(w))
		var t float64
		for j := range w {
			if countScale[j] == 1 {
				counts[j] = 1
			} else {
				counts[j] = math.Round(countScale[j] * math.Pow(10, 2*rng.Float64()-1))
			}
			t += w[j] * counts[j]
		}
		samples[i] = Sample{
			Kernel: fmt.Sprintf("k%d", i%4),
			Class:  fmt.Sprintf("class%d", i%3),
			Counts: counts,
			Time:   t * (1 + noise*(2*rng.Float64()-1)),
		}
	}
	return samples
}

// relMatrix returns A_ij = p_ij / T_i, unscaled, for the oracle checks.
func relMatrix(samples []Sample) *mat.Dense {
	a := mat.NewDense(len(samples), len(samples[0].Counts), nil)
	for i, s := range samples {
		for j, c := range s.Counts {
			a.Set(i, j, c/s.Time)
		}
	}
	return a
}

// relResidual returns ‖1 − A w‖₂.
func relResidual(samples []Sample, w []float64) float64 {
	var ss float64
	for _, s := range samples {
		var p float64
		for j, c := range s.Counts {
			p += w[j] * c
		}
		ss += (1 - p/s.Time) * (1 - p/s.Time)
	}
	return math.Sqrt(ss)
}

func TestFitExactRecovery(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	samples := synthetic(rng, 40, trueWeights, 0)
	for _, nonneg := range []bool{false, true} {
		w, err := Fit(trueNames, samples, Options{NonNegative: nonneg})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.Properties, trueNames) {
			t.Fatalf("properties %v", w.Properties)
		}
		for j, want := range trueWeights {
			if got := w.Values[j]; math.Abs(got-want) > 1e-9*want {
				t.Errorf("nonnegative=%v: weight of %s = %g, want %g", nonneg, trueNames[j], got, want)
			}
		}
		d := w.Diagnostics
		if d.Rank != len(trueNames) || d.Rows != 40 || d.Residual > 1e-12 || d.TrainingError > 2*ErrorFloor || len(d.Collinear) != 0 {
			t.Errorf("diagnostics %+v", d)
		}
	}
}

// With times multiplied by (1+u), |u| ≤ δ, the true weights leave relative
// residuals r*_j = 1 − 1/(1+u_j). The least-squares solution α̂ has a
// residual no larger than that of α*, so ‖A(α̂ − α*)‖ ≤ 2‖r*‖, and in the
// column-scaled coordinates β = c∘α (c the column norms of A)
// |α̂_k − α*_k| ≤ 2‖r*‖ / (σ_min(A diag(1/c)) c_k). The test checks the
// optimality, the gradient condition Aᵀ(1 − A α̂) = 0 and this bound.
func TestFitMultiplicativeNoise(t *testing.T) {
	const delta = 0.05
	rng := rand.New(rand.NewPCG(3, 4))
	samples := synthetic(rng, 200, trueWeights, delta)
	w, err := Fit(trueNames, samples, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rStar := relResidual(samples, trueWeights)
	rHat := relResidual(samples, w.Values)
	if rHat > rStar {
		t.Errorf("residual of the fit %g exceeds that of the true weights %g", rHat, rStar)
	}
	if math.Abs(rHat-w.Diagnostics.Residual) > 1e-12 {
		t.Errorf("reported residual %g, recomputed %g", w.Diagnostics.Residual, rHat)
	}

	a := relMatrix(samples)
	m, n := a.Dims()
	c := make([]float64, n)
	scaled := mat.NewDense(m, n, nil)
	for j := range n {
		c[j] = mat.Norm(a.ColView(j), 2)
		for i := range m {
			scaled.Set(i, j, a.At(i, j)/c[j])
		}
	}
	var svd mat.SVD
	svd.Factorize(scaled, mat.SVDNone)
	sv := svd.Values(nil)
	sigmaMin := sv[n-1]

	// Gradient Aᵀ(1 − A α̂) in scaled coordinates, relative to its scale.
	var r mat.VecDense
	r.MulVec(a, mat.NewVecDense(n, w.Values))
	r.SubVec(mat.NewVecDense(m, ones(m)), &r)
	var g mat.VecDense
	g.MulVec(scaled.T(), &r)
	if gn := mat.Norm(&g, 2); gn > 1e-10*sv[0]*mat.Norm(&r, 2) {
		t.Errorf("gradient norm %g: not a least-squares minimum", gn)
	}

	for k := range n {
		bound := 2 * rStar / (sigmaMin * c[k])
		if d := math.Abs(w.Values[k] - trueWeights[k]); d > bound {
			t.Errorf("%s: |α̂ − α*| = %g exceeds the bound %g", trueNames[k], d, bound)
		}
	}
	// Every relative error of the fit is at most ‖1 − A α̂‖ ≤ ‖r*‖; here
	// ‖r*‖ ≤ δ/(1−δ)·√m, but the per-class geometric means come out near
	// δ/2, the mean of |u| for uniform noise.
	for cl, e := range w.Diagnostics.ClassError {
		if e > delta {
			t.Errorf("class %s training error %g > δ = %g", cl, e, delta)
		}
	}
}

func TestFitRankDeficiency(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	base := synthetic(rng, 30, trueWeights, 0)
	// Columns added to the true ones: a zero one, a duplicate of the
	// loads, one proportional to the barriers, a sum of two flop columns.
	extend := func(extra ...func(s Sample) float64) []Sample {
		out := make([]Sample, len(base))
		for i, s := range base {
			out[i] = s
			out[i].Counts = slices.Clone(s.Counts)
			for _, f := range extra {
				out[i].Counts = append(out[i].Counts, f(s))
			}
		}
		return out
	}
	zero := func(Sample) float64 { return 0 }
	dup := func(s Sample) float64 { return s.Counts[0] }
	prop := func(s Sample) float64 { return 3 * s.Counts[5] }
	sum := func(s Sample) float64 { return s.Counts[3] + 2*s.Counts[4] }
	names := func(extra ...string) []string { return append(slices.Clone(trueNames), extra...) }

	t.Run("zero column dropped", func(t *testing.T) {
		w, err := Fit(names("flop.f64.div"), extend(zero), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.Diagnostics.Dropped, []string{"flop.f64.div"}) || len(w.Properties) != len(trueNames) {
			t.Errorf("dropped %v, properties %v", w.Diagnostics.Dropped, w.Properties)
		}
		if _, ok := w.Weight("flop.f64.div"); ok {
			t.Error("dropped property has a weight")
		}
	})

	cases := []struct {
		name   string
		names  []string
		extra  []func(Sample) float64
		groups [][]string
	}{
		{"duplicate", names("dup"), []func(Sample) float64{dup}, [][]string{{trueNames[0], "dup"}}},
		{"proportional", names("prop"), []func(Sample) float64{prop}, [][]string{{"sync.barrier", "prop"}}},
		{"sum of two", names("sum"), []func(Sample) float64{sum}, [][]string{{"flop.f32.add", "flop.f32.mul", "sum"}}},
		{"two independent", names("dup", "prop"), []func(Sample) float64{dup, prop},
			[][]string{{trueNames[0], "dup"}, {"sync.barrier", "prop"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Fit(tc.names, extend(tc.extra...), Options{})
			var re *RankError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a *RankError", err)
			}
			if re.Rank != len(trueNames) || re.Properties != len(tc.names) || re.Condition < 1e12 {
				t.Errorf("rank %d of %d, condition %g", re.Rank, re.Properties, re.Condition)
			}
			var got [][]string
			for _, c := range re.Collinear {
				if !c.Exact {
					t.Errorf("group %v not exact", c)
				}
				got = append(got, c.Properties)
			}
			if !equalGroups(got, tc.groups) {
				t.Errorf("collinear groups %v, want %v", got, tc.groups)
			}
			for _, g := range tc.groups {
				for _, p := range g {
					if !strings.Contains(err.Error(), p) {
						t.Errorf("error %q does not name %s", err, p)
					}
				}
			}
		})
	}

	// The minimum-norm solution splits a duplicated column's weight evenly
	// (equal columns have equal scale, and the minimum-norm point of the
	// line β_a + β_b = const has β_a = β_b), and still reproduces the data.
	t.Run("minimum norm", func(t *testing.T) {
		samples := extend(dup)
		w, err := Fit(names("dup"), samples, Options{MinNorm: true})
		if err != nil {
			t.Fatal(err)
		}
		d := w.Diagnostics
		if !d.MinNorm || d.Rank != len(trueNames) || len(d.Collinear) != 1 {
			t.Fatalf("diagnostics %+v", d)
		}
		a, _ := w.Weight(trueNames[0])
		b, _ := w.Weight("dup")
		if want := trueWeights[0] / 2; math.Abs(a-want) > 1e-9*want || math.Abs(b-want) > 1e-9*want {
			t.Errorf("split %g + %g, want %g each", a, b, want)
		}
		if d.Residual > 1e-10 {
			t.Errorf("residual %g", d.Residual)
		}
	})

	t.Run("nearly collinear", func(t *testing.T) {
		near := func(s Sample) float64 { return s.Counts[0] * (1 + 1e-11*rng.Float64()) }
		w, err := Fit(names("near"), extend(near), Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := w.Diagnostics.Collinear
		if len(c) != 1 || c[0].Exact || c[0].Ratio > nearCollinear || !slices.Equal(c[0].Properties, []string{trueNames[0], "near"}) {
			t.Errorf("collinear %v", c)
		}
	})
}

func equalGroups(a, b [][]string) bool {
	key := func(g [][]string) []string {
		var k []string
		for _, x := range g {
			s := slices.Clone(x)
			slices.Sort(s)
			k = append(k, strings.Join(s, ","))
		}
		slices.Sort(k)
		return k
	}
	return slices.Equal(key(a), key(b))
}

func TestFitBadInput(t *testing.T) {
	good := func() []Sample {
		return synthetic(rand.New(rand.NewPCG(7, 8)), 12, trueWeights, 0)
	}
	cases := []struct {
		name  string
		names []string
		edit  func([]Sample) []Sample
		want  string
	}{
		{"zero time", trueNames, func(s []Sample) []Sample { s[2].Time = 0; return s }, "sample 3"},
		{"negative time", trueNames, func(s []Sample) []Sample { s[4].Time = -1e-3; return s }, "time -0.001 s"},
		{"NaN time", trueNames, func(s []Sample) []Sample { s[0].Time = math.NaN(); return s }, "time NaN"},
		{"NaN count", trueNames, func(s []Sample) []Sample { s[1].Counts[3] = math.NaN(); return s }, "count of flop.f32.add is NaN"},
		{"negative count", trueNames, func(s []Sample) []Sample { s[1].Counts[0] = -1; return s }, "count of global.load.f32.stride=1 is -1"},
		{"short counts", trueNames, func(s []Sample) []Sample { s[5].Counts = s[5].Counts[:3]; return s }, "3 counts for 8 properties"},
		{"labelled", trueNames, func(s []Sample) []Sample { s[5].Time = 0; s[5].Label = "m.arrow row 6"; return s }, "m.arrow row 6"},
		{"duplicate property", append(slices.Clone(trueNames[:7]), trueNames[0]), func(s []Sample) []Sample { return s }, "listed twice"},
		{"fewer rows", trueNames, func(s []Sample) []Sample { return s[:5] }, "5 samples for 8 properties"},
		{"no samples", trueNames, func(s []Sample) []Sample { return nil }, "no samples"},
	}
	for _, tc := range cases {
		_, err := Fit(tc.names, tc.edit(good()), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func ones(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	return x
}
