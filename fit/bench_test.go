package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// benchProblem is a measurement-set-sized problem: 300 rows, 20
// properties with counts spanning 1 .. 1e12, times with 5% noise and some
// negative true weights so that the non-negative fit has work to do.
func benchProblem() ([]string, []Sample) {
	rng := rand.New(rand.NewPCG(31, 32))
	const m, n = 300, 20
	names := make([]string, n)
	w := make([]float64, n)
	scale := make([]float64, n)
	for j := range n {
		names[j] = fmt.Sprintf("p%02d", j)
		scale[j] = math.Pow(10, float64(j%13))
		w[j] = (rng.Float64() - 0.2) * 1e-3 / scale[j]
	}
	samples := make([]Sample, m)
	for i := range samples {
		c := make([]float64, n)
		var t float64
		for j := range c {
			c[j] = math.Round(scale[j] * 10 * rng.Float64())
			t += w[j] * c[j]
		}
		samples[i] = Sample{Class: fmt.Sprint(i % 9), Counts: c, Time: math.Abs(t)*(1+0.05*rng.NormFloat64()) + 1e-5}
	}
	return names, samples
}

func BenchmarkFit(b *testing.B) {
	names, samples := benchProblem()
	for _, nonneg := range []bool{false, true} {
		b.Run(fmt.Sprintf("nonnegative=%v", nonneg), func(b *testing.B) {
			for b.Loop() {
				if _, err := Fit(names, samples, Options{NonNegative: nonneg, MinNorm: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
