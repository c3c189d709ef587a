package fit

import (
	"fmt"
	"math"
	"sort"
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

// Options adjust Fit.
type Options struct {
	// NonNegative constrains every weight to α ≥ 0 (Lawson–Hanson NNLS).
	NonNegative bool
	// MinNorm accepts a rank-deficient matrix and returns the
	// minimum-norm solution in column-scaled coordinates, with the
	// collinear properties listed in the diagnostics, instead of a
	// *RankError.
	MinNorm bool
	// RankTol is the relative singular-value threshold below which the
	// column-scaled matrix counts as rank-deficient: σ_k ≤ RankTol·σ_1.
	// Zero means max(rows, properties)·ε, as LAPACK and NumPy use.
	RankTol float64
}

// nearCollinear is the singular-value ratio σ_k/σ_1 below which a
// direction is reported as nearly collinear even when the matrix has full
// rank: below √ε half the digits of the weights along it are noise.
var nearCollinear = math.Sqrt(eps)

const eps = 0x1p-52

// Fit solves the relative-error least-squares problem of seed 001 §4.3 for
// the named properties over the samples and returns the weights. The
// returned table has no device, model, version or inputs; the caller sets
// them.
func Fit(properties []string, samples []Sample, opts Options) (*Weights, error) {
	if err := checkInput(properties, samples); err != nil {
		return nil, err
	}
	keep, dropped := nonZeroColumns(properties, samples)
	if len(keep) == 0 {
		return nil, fmt.Errorf("fit: every property is zero in every sample")
	}
	if len(samples) < len(keep) {
		msg := fmt.Sprintf("fit: %d samples for %d properties: need at least as many measurement rows as properties", len(samples), len(keep))
		if len(dropped) > 0 {
			msg += fmt.Sprintf(" (%d more properties, zero in every sample, were already dropped)", len(dropped))
		}
		return nil, fmt.Errorf("%s", msg)
	}
	names := make([]string, len(keep))
	for k, j := range keep {
		names[k] = properties[j]
	}

	a, scale := scaledMatrix(samples, keep)
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, fmt.Errorf("fit: singular value decomposition of the %d×%d matrix did not converge", len(samples), len(keep))
	}
	tol := opts.RankTol
	if tol == 0 {
		tol = float64(max(len(samples), len(keep))) * eps
	}
	if tol < 0 || math.IsNaN(tol) {
		return nil, fmt.Errorf("fit: rank tolerance %g: want a non-negative number", opts.RankTol)
	}
	sv := svd.Values(nil)
	var v mat.Dense
	svd.VTo(&v)
	rank := svd.Rank(tol)
	diag := Diagnostics{
		Rows:        len(samples),
		Properties:  len(keep),
		Rank:        rank,
		Condition:   sv[0] / sv[len(sv)-1],
		NonNegative: opts.NonNegative,
		Dropped:     dropped,
		Collinear:   collinear(sv, &v, names, tol),
	}
	if rank < len(keep) {
		if !opts.MinNorm {
			return nil, &RankError{Rank: rank, Properties: len(keep), Condition: diag.Condition, Collinear: diag.Collinear}
		}
		diag.MinNorm = true
	}

	b := mat.NewVecDense(len(samples), ones(len(samples)))
	beta := make([]float64, len(keep))
	if opts.NonNegative {
		var err error
		beta, err = nnls(a, b, tol)
		if err != nil {
			return nil, err
		}
		for k, x := range beta {
			if x == 0 {
				diag.AtZero = append(diag.AtZero, names[k])
			}
		}
	} else {
		svd.SolveVecTo(mat.NewVecDense(len(keep), beta), b, rank)
	}

	w := &Weights{Model: ModelUnified, Properties: names, Values: make([]float64, len(keep))}
	for k := range beta {
		w.Values[k] = beta[k] / scale[k]
	}
	diag.Residual, diag.ClassError, diag.TrainingError = trainingError(samples, keep, w.Values)
	w.Diagnostics = diag
	return w, nil
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

// nonZeroColumns returns the indices of the properties that are non-zero in
// some sample, and the names of the others.
func nonZeroColumns(properties []string, samples []Sample) (keep []int, dropped []string) {
	for j, p := range properties {
		zero := true
		for i := range samples {
			if samples[i].Counts[j] != 0 {
				zero = false
				break
			}
		}
		if zero {
			dropped = append(dropped, p)
		} else {
			keep = append(keep, j)
		}
	}
	return keep, dropped
}

// scaledMatrix returns A with A_ik = p_i,keep[k] / T_i, each column divided
// by its 2-norm, and those norms. Dividing a row by its time keeps exact
// collinearity of the counts exact in A; the column scaling makes the
// singular values, and so the rank and condition number, independent of
// the units of the counts.
func scaledMatrix(samples []Sample, keep []int) (*mat.Dense, []float64) {
	a := mat.NewDense(len(samples), len(keep), nil)
	for i := range samples {
		for k, j := range keep {
			a.Set(i, k, samples[i].Counts[j]/samples[i].Time)
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

func ones(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	return x
}

// trainingError returns the 2-norm of the relative residuals 1 − Σ α_i p_i/T,
// the geometric-mean relative error per kernel class, and their geometric
// mean over the classes.
func trainingError(samples []Sample, keep []int, w []float64) (float64, map[string]float64, float64) {
	var ss float64
	byClass := make(map[string][]float64)
	for i := range samples {
		var pred float64
		for k, j := range keep {
			pred += w[k] * samples[i].Counts[j]
		}
		r := 1 - pred/samples[i].Time
		ss += r * r
		byClass[samples[i].Class] = append(byClass[samples[i].Class], RelativeError(pred, samples[i].Time))
	}
	classErr := make(map[string]float64, len(byClass))
	means := make([]float64, 0, len(byClass))
	for c, errs := range byClass {
		classErr[c] = GeoMean(errs)
		means = append(means, classErr[c])
	}
	sort.Float64s(means) // a fixed summation order gives a reproducible mean
	return math.Sqrt(ss), classErr, GeoMean(means)
}
