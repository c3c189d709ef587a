package fit

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Precision is what the measurement rows say about how well a fit
// determines its weights and its predictions.
//
// The relative-error fit is the linear regression 1 = A α + ε with
// A_ij = p_ij/T_j, where ε_j is row j's relative error. Taking the errors
// as independent with a common standard deviation σ, estimated from the
// residuals as σ̂² = Σ_j r_j² / (rows − free weights), the weights have the
// covariance σ̂² (AᵀA)⁻¹. A prediction with counts p₀ and predicted time T̂₀
// has the relative standard error σ̂ √h₀, where h₀ = a₀ᵀ (AᵀA)⁻¹ a₀ with
// a₀ = p₀/T̂₀ is its leverage. The leverages of the measurement rows, the
// diagonal of the hat matrix A (AᵀA)⁻¹ Aᵀ, sum to the number of free
// weights; a prediction whose leverage exceeds every measurement row's lies
// outside what the rows span and is an extrapolation.
//
// A fit that balances the kernel classes (Options.Balance) is the same
// regression with row j weighted by w_j (ClassWeights, which average 1):
// σ̂² = Σ_j w_j r_j² / (rows − free weights) is then the variance of a row
// of average weight, AᵀA is AᵀWA, and a prediction counts as such a row.
//
// Only free weights take part. The non-negative fit holds some weights at
// zero, which are then constants of the fit, not estimates: their standard
// error is NaN and they do not enter the leverages. A direction that the
// rows do not determine at all (a rank-deficient, minimum-norm fit) gives
// the weights along it an infinite standard error, and a prediction with a
// component along it an infinite leverage.
type Precision struct {
	Properties []string
	Weights    []float64
	// StdErr is the standard error of each weight, in s/op: NaN for a
	// weight held at zero, +Inf for one the rows do not determine.
	StdErr []float64
	// Sigma is σ̂, the estimated standard deviation of one row's relative
	// error; DOF the degrees of freedom it rests on.
	Sigma float64
	DOF   int
	// Leverage is each measurement row's leverage; MaxLeverage the
	// largest.
	Leverage    []float64
	MaxLeverage float64

	free  []int      // indices into Properties of the free weights
	scale []float64  // column norms of A over the free weights
	basis *mat.Dense // V Σ⁻¹ over the determined directions: h = ‖aᵀ basis‖²
	null  *mat.Dense // V over the undetermined directions
}

// NewPrecision computes the precision of weights w fitted to samples (the
// samples Fit was given, with their properties in that order). A weight is
// free unless it is exactly zero and w comes from a non-negative fit.
func NewPrecision(w *Weights, properties []string, samples []Sample) (*Precision, error) {
	return newPrecision(w, properties, samples, true)
}

// newPrecision is NewPrecision, with the rows' leverages where leverage
// is set: they need the SVD's U, m×n, which costs most of the SVD of a
// table's thousand rows, and Fit's check for weak weights, made on every
// fit, reads only the standard errors.
func newPrecision(w *Weights, properties []string, samples []Sample, leverage bool) (*Precision, error) {
	if err := checkInput(properties, samples); err != nil {
		return nil, err
	}
	aligned, missing := w.Align(properties)
	for _, p := range missing {
		if col := slices.Index(properties, p); !zeroColumn(samples, col) {
			return nil, fmt.Errorf("precision: the weights have no weight for %s, which the samples count", p)
		}
	}
	pr := &Precision{Properties: properties, Weights: aligned, StdErr: make([]float64, len(properties))}
	for j := range properties {
		pr.StdErr[j] = math.NaN()
		held := w.Diagnostics.NonNegative && aligned[j] == 0
		if !held && !zeroColumn(samples, j) {
			pr.free = append(pr.free, j)
		}
	}
	if len(pr.free) == 0 {
		return nil, fmt.Errorf("precision: no free weight")
	}
	rw := rowWeights(samples, w.Diagnostics.Balanced)
	a, scale := scaledMatrix(samples, pr.free, rw)
	pr.scale = scale
	kind := mat.SVDThinV
	if leverage {
		kind = mat.SVDThin
	}
	var svd mat.SVD
	if !svd.Factorize(a, kind) {
		return nil, fmt.Errorf("precision: singular value decomposition of the %d×%d matrix did not converge", len(samples), len(pr.free))
	}
	sv := svd.Values(nil)
	var v mat.Dense
	svd.VTo(&v)
	rank := svd.Rank(float64(max(len(samples), len(pr.free))) * eps)
	n := len(pr.free)
	pr.basis = mat.NewDense(n, max(rank, 1), nil)
	for k := range rank {
		for i := range n {
			pr.basis.Set(i, k, v.At(i, k)/sv[k])
		}
	}
	if rank < n {
		pr.null = mat.DenseCopyOf(v.Slice(0, n, rank, n))
	}

	var ss float64
	for i := range samples {
		r := rw[i] * (1 - dot(aligned, samples[i].Counts)/samples[i].Time)
		ss += r * r
	}
	pr.DOF = len(samples) - rank
	pr.Sigma = math.NaN()
	if pr.DOF > 0 {
		pr.Sigma = math.Sqrt(ss / float64(pr.DOF))
	}

	if leverage {
		var u mat.Dense
		svd.UTo(&u)
		pr.Leverage = make([]float64, len(samples))
		for i := range samples {
			for k := range rank {
				pr.Leverage[i] += u.At(i, k) * u.At(i, k)
			}
			pr.MaxLeverage = math.Max(pr.MaxLeverage, pr.Leverage[i])
		}
	}
	for k, j := range pr.free {
		if pr.undetermined(k) {
			pr.StdErr[j] = math.Inf(1)
			continue
		}
		row := pr.basis.RawRowView(k)
		pr.StdErr[j] = pr.Sigma * math.Sqrt(dot(row, row)) / scale[k]
	}
	return pr, nil
}

// undetermined says whether free weight k has a component along a
// direction the rows do not determine.
func (pr *Precision) undetermined(k int) bool {
	if pr.null == nil {
		return false
	}
	row := pr.null.RawRowView(k)
	return dot(row, row) > involved
}

// PredictionLeverage returns the predicted time of counts (in the order of
// Properties) and its leverage h₀ = a₀ᵀ (AᵀA)⁻¹ a₀ with a₀ = counts/T̂₀.
// The leverage is +Inf when the counts have a component along a direction
// the rows do not determine, and NaN when the prediction is not positive.
func (pr *Precision) PredictionLeverage(counts []float64) (predicted, leverage float64, err error) {
	if len(counts) != len(pr.Properties) {
		return 0, 0, fmt.Errorf("precision: %d counts for %d properties", len(counts), len(pr.Properties))
	}
	predicted = dot(pr.Weights, counts)
	if !(predicted > 0) {
		return predicted, math.NaN(), nil
	}
	a := make([]float64, len(pr.free))
	for k, j := range pr.free {
		a[k] = counts[j] / predicted / pr.scale[k]
	}
	if pr.null != nil {
		_, c := pr.null.Dims()
		for k := range c {
			var s float64
			for i := range a {
				s += a[i] * pr.null.At(i, k)
			}
			if math.Abs(s) > math.Sqrt(involved)*math.Sqrt(dot(a, a)) {
				return predicted, math.Inf(1), nil
			}
		}
	}
	_, r := pr.basis.Dims()
	for k := range r {
		var s float64
		for i := range a {
			s += a[i] * pr.basis.At(i, k)
		}
		leverage += s * s
	}
	return predicted, leverage, nil
}

// Free says whether the weight of property j is estimated by the fit
// (rather than held at zero or absent from every row).
func (pr *Precision) Free(j int) bool { return slices.Contains(pr.free, j) }

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// WeakRelStdErr is the relative standard error above which a weight
// counts as weakly determined: at one standard error it is uncertain by
// more than a quarter of its value. A weight that moves by more than this
// fraction when one of its classes is left out of the fit is one its
// classes disagree on.
const WeakRelStdErr = 0.25

// weakWeights lists the free weights of w, fitted to samples, whose
// relative standard error is above WeakRelStdErr or infinite. A fit
// whose precision cannot be computed (every weight held at zero, say)
// lists none: Coverage reports why.
func weakWeights(w *Weights, properties []string, samples []Sample) []string {
	pr, err := newPrecision(w, properties, samples, false)
	if err != nil {
		return nil
	}
	var weak []string
	for _, j := range pr.free {
		if pr.StdErr[j]/math.Abs(pr.Weights[j]) > WeakRelStdErr {
			weak = append(weak, properties[j])
		}
	}
	return weak
}
