package fit

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Sample is one measured kernel run: its property counts and its time.
type Sample struct {
	Kernel string    // kernel name
	Class  string    // kernel class, for the per-class training error
	Label  string    // where the run comes from (table and row, params), for messages
	Counts []float64 // one count per property, in the order of Fit's property list
	Time   float64   // measured wall time in seconds
}

// describe names a sample in error messages.
func (s *Sample) describe(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "sample %d", i+1)
	if s.Label != "" {
		fmt.Fprintf(&b, " (%s)", s.Label)
	} else if s.Kernel != "" {
		fmt.Fprintf(&b, " (kernel %s)", s.Kernel)
	}
	return b.String()
}

// checkInput rejects malformed property lists and samples with a message
// that names the sample and the property.
func checkInput(properties []string, samples []Sample) error {
	if len(properties) == 0 {
		return fmt.Errorf("fit: no properties")
	}
	seen := make(map[string]bool, len(properties))
	for i, p := range properties {
		if p == "" {
			return fmt.Errorf("fit: property %d has an empty name", i+1)
		}
		if seen[p] {
			return fmt.Errorf("fit: property %s listed twice", p)
		}
		seen[p] = true
	}
	if len(samples) == 0 {
		return fmt.Errorf("fit: no samples")
	}
	for i := range samples {
		s := &samples[i]
		if len(s.Counts) != len(properties) {
			return fmt.Errorf("fit: %s: %d counts for %d properties", s.describe(i), len(s.Counts), len(properties))
		}
		if math.IsNaN(s.Time) || math.IsInf(s.Time, 0) || s.Time <= 0 {
			return fmt.Errorf("fit: %s: time %g s: want a positive, finite time", s.describe(i), s.Time)
		}
		for j, c := range s.Counts {
			if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
				return fmt.Errorf("fit: %s: count of %s is %g: want a non-negative, finite count", s.describe(i), properties[j], c)
			}
		}
	}
	return nil
}

// zeroColumn reports whether property j counts zero in every sample.
func zeroColumn(samples []Sample, j int) bool {
	for i := range samples {
		if samples[i].Counts[j] != 0 {
			return false
		}
	}
	return true
}

// scaledMatrix returns A with A_ik = w_i p_i,keep[k] / T_i (w the row
// weights), each column divided by its 2-norm, and those norms. Dividing a
// row by its time keeps exact collinearity of the counts exact in A; the
// column scaling makes the singular values, and so the rank and condition
// number, independent of the units of the counts.
func scaledMatrix(samples []Sample, keep []int, w []float64) (*mat.Dense, []float64) {
	a := mat.NewDense(len(samples), len(keep), nil)
	for i := range samples {
		for k, j := range keep {
			a.Set(i, k, w[i]*samples[i].Counts[j]/samples[i].Time)
		}
	}
	scale := make([]float64, len(keep))
	for k := range keep {
		scale[k] = mat.Norm(a.ColView(k), 2)
		for i := range samples {
			a.Set(i, k, a.At(i, k)/scale[k])
		}
	}
	return a, scale
}

// ClassWeights returns the weights that make every kernel class count the
// same in a sum over the samples: w_i = m / (C·m_c) for a sample of class c
// with m_c samples, C classes and m samples in all, so that the weights of
// a class sum to m/C and all weights to m.
func ClassWeights(samples []Sample) []float64 {
	rows := map[string]int{}
	for i := range samples {
		rows[samples[i].Class]++
	}
	w := make([]float64, len(samples))
	for i := range samples {
		w[i] = float64(len(samples)) / float64(len(rows)*rows[samples[i].Class])
	}
	return w
}

// rowWeights returns the square roots of the class weights, which multiply
// the rows of the least-squares problem, or ones.
func rowWeights(samples []Sample, balance bool) []float64 {
	w := make([]float64, len(samples))
	for i := range w {
		w[i] = 1
	}
	if balance {
		for i, c := range ClassWeights(samples) {
			w[i] = math.Sqrt(c)
		}
	}
	return w
}
