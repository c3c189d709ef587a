package fit

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Options adjust Fit.
type Options struct {
	// NonNegative constrains every weight to α ≥ 0 (Lawson–Hanson NNLS).
	NonNegative bool
	// Balance weighs the rows so that every kernel class counts the same
	// in the sum, whatever its number of rows (see ClassWeights).
	Balance bool
	// Robust minimises the sum of absolute relative errors instead of
	// their squares (by iteratively reweighted least squares).
	Robust bool
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

// DefaultOptions returns the fit uniperf makes unless asked for another;
// the package documentation says why. The zero Options is seed 001's free
// fit.
func DefaultOptions() Options {
	return Options{NonNegative: true}
}

// options returns the options that fitted w, as its diagnostics record
// them.
func (w *Weights) options() Options {
	d := w.Diagnostics
	return Options{NonNegative: d.NonNegative, Balance: d.Balanced, Robust: d.Robust, MinNorm: d.MinNorm}
}

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

	rw := rowWeights(samples, opts.Balance)
	a, scale := scaledMatrix(samples, keep, rw)
	// The non-negative fit solves its own subproblems and needs of the
	// SVD only the rank and V; leaving U out spares its m×n columns.
	kind := mat.SVDThin
	if opts.NonNegative {
		kind = mat.SVDThinV
	}
	var svd mat.SVD
	if !svd.Factorize(a, kind) {
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
		Balanced:    opts.Balance,
		Robust:      opts.Robust,
		Dropped:     dropped,
		Collinear:   collinear(sv, &v, names, tol),
	}
	if rank < len(keep) {
		if !opts.MinNorm {
			return nil, &RankError{Rank: rank, Properties: len(keep), Condition: diag.Condition, Collinear: diag.Collinear}
		}
		diag.MinNorm = true
	}

	b := mat.NewVecDense(len(samples), rw)
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
	if opts.Robust {
		var err error
		if beta, err = irls(a, rw, beta, opts.NonNegative, tol); err != nil {
			return nil, err
		}
		diag.AtZero = nil
		for k, x := range beta {
			if opts.NonNegative && x == 0 {
				diag.AtZero = append(diag.AtZero, names[k])
			}
		}
	}

	w := &Weights{Model: ModelUnified, Properties: names, Values: make([]float64, len(keep))}
	for k := range beta {
		w.Values[k] = beta[k] / scale[k]
	}
	diag.Residual, diag.ClassError, diag.TrainingError = trainingError(samples, keep, w.Values)
	w.Diagnostics = diag
	w.Diagnostics.Weak = weakWeights(w, properties, samples)
	return w, nil
}

// nonZeroColumns returns the indices of the properties that are non-zero in
// some sample, and the names of the others.
func nonZeroColumns(properties []string, samples []Sample) (keep []int, dropped []string) {
	for j, p := range properties {
		if zeroColumn(samples, j) {
			dropped = append(dropped, p)
		} else {
			keep = append(keep, j)
		}
	}
	return keep, dropped
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

// irls minimises Σ_j rw_j² |1 − (A β)_j / rw_j| by iteratively reweighted
// least squares, starting from β: each step solves the least-squares
// problem with row j scaled by 1/√max(|r_j|, δ).
func irls(a *mat.Dense, rw, beta []float64, nonNegative bool, tol float64) ([]float64, error) {
	const delta = 1e-3
	m, n := a.Dims()
	for range 100 {
		var pred mat.VecDense
		pred.MulVec(a, mat.NewVecDense(n, beta))
		aw := mat.NewDense(m, n, nil)
		bw := make([]float64, m)
		for i := range m {
			r := 1 - pred.AtVec(i)/rw[i]
			u := 1 / math.Sqrt(math.Max(math.Abs(r), delta))
			for k := range n {
				aw.Set(i, k, a.At(i, k)*u)
			}
			bw[i] = rw[i] * u
		}
		var next []float64
		if nonNegative {
			var err error
			if next, err = nnls(aw, mat.NewVecDense(m, bw), tol); err != nil {
				return nil, err
			}
		} else {
			var svd mat.SVD
			if !svd.Factorize(aw, mat.SVDThin) {
				return nil, fmt.Errorf("fit: robust fit: singular value decomposition did not converge")
			}
			next = make([]float64, n)
			svd.SolveVecTo(mat.NewVecDense(n, next), mat.NewVecDense(m, bw), svd.Rank(tol))
		}
		var change, size float64
		for k := range n {
			change = math.Max(change, math.Abs(next[k]-beta[k]))
			size = math.Max(size, math.Abs(next[k]))
		}
		beta = next
		if change <= 1e-9*size {
			break
		}
	}
	return beta, nil
}
