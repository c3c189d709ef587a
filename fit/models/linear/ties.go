package linear

import (
	"errors"
	"maps"
	"math"
	"slices"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// calibrateTies fits rows with every weight apart and with the filled
// strided accesses tied to stride-1 ones (fit.FilledStrideTies), and
// keeps the fit that leave-one-class-out cross-validation on the rows
// prefers, each fit with the saturations it chose. The rows alone cannot
// choose by training error, which a fit with fewer weights never lowers;
// cross-validation asks instead which fit prices a class it has not seen
// better. Apart wins ties and is kept without a check where nothing can
// be tied or the device is a CPU, whose SIMD lanes gather strided
// accesses instead of coalescing them.
func calibrateTies(c *models.Counter, rows []models.Row, opts Options) (*fit.Weights, error) {
	opts.Ties = nil
	apart, err := calibrateOnce(c, rows, opts)
	if err != nil || onCPU(rows) {
		return apart, err
	}
	ties := fit.FilledStrideTies(apart.Properties)
	if len(ties) == 0 {
		return apart, nil
	}
	opts.Ties = ties
	tied, err := calibrateOnce(c, rows, opts)
	if err != nil {
		// Ties that leave the rows unable to determine the weights are
		// no remedy; the fit apart stands.
		return apart, nil
	}
	check, err := tieCheck(c, rows, opts, apart, tied)
	if err != nil {
		return nil, err
	}
	if check.Tied < check.Apart {
		tied.Diagnostics.TieCheck = check
		return tied, nil
	}
	apart.Diagnostics.TieCheck = check
	return apart, nil
}

// onCPU reports whether the rows' device is one whose shipped device
// file says it is a CPU.
func onCPU(rows []models.Row) bool {
	if len(rows) == 0 {
		return false
	}
	d, err := gpus.Lookup(rows[0].Device)
	return err == nil && d.Kind == "cpu"
}

// tieCheck cross-validates the fits apart and tied, each with its grid
// fill held, over the rows that both predict.
func tieCheck(c *models.Counter, rows []models.Row, opts Options, apart, tied *fit.Weights) (*fit.TieCheck, error) {
	a, err := heldErrors(c, rows, opts, apart)
	if err != nil {
		return nil, err
	}
	t, err := heldErrors(c, rows, opts, tied)
	if err != nil {
		return nil, err
	}
	classA, classT := map[string][]float64{}, map[string][]float64{}
	n := 0
	for i, r := range rows {
		if math.IsNaN(a[i]) || math.IsNaN(t[i]) {
			continue
		}
		classA[r.Class] = append(classA[r.Class], a[i])
		classT[r.Class] = append(classT[r.Class], t[i])
		n++
	}
	return &fit.TieCheck{Apart: classMean(classA), Tied: classMean(classT), Rows: n}, nil
}

// classMean is the geometric mean over the classes of each class's
// geometric-mean error.
func classMean(errs map[string][]float64) float64 {
	var means []float64
	for _, class := range slices.Sorted(maps.Keys(errs)) {
		means = append(means, fit.GeoMean(errs[class]))
	}
	return fit.GeoMean(means)
}

// heldErrors leaves out each class of rows in turn, fits the others with
// w's grid fill and ties held, and returns each row's relative error, or
// NaN where the fit without its class cannot price it. Unlike
// CrossValidate it keeps the rows whose counts the other classes do not
// determine (infinite leverage), predicted by the minimum-norm fit: a tie
// that determines what the fit apart leaves free is what the check
// should credit (TestChooseTiesKeepsTrueTie's pair).
func heldErrors(c *models.Counter, rows []models.Row, opts Options, w *fit.Weights) ([]float64, error) {
	opts.Fill, opts.Ties = w.Fill, w.Ties
	props, samples, err := Samples(c, rows, opts)
	if err != nil {
		return nil, err
	}
	errs := make([]float64, len(rows))
	for _, class := range slices.Sorted(maps.Keys(models.ClassesOf(rows))) {
		var train []fit.Sample
		for i, r := range rows {
			if r.Class != class {
				train = append(train, samples[i])
			}
		}
		held, err := fitMinNorm(props, train, opts.Fit)
		for i, r := range rows {
			if r.Class != class {
				continue
			}
			errs[i] = math.NaN()
			if err != nil || unpriced(held, props, samples[i].Counts) != "" {
				continue
			}
			if p, _, perr := held.Predict(props, samples[i].Counts); perr == nil {
				errs[i] = fit.RelativeError(p, samples[i].Time)
			}
		}
	}
	return errs, nil
}

// fitMinNorm is fit.Fit, falling back to the minimum-norm fit where the
// samples leave properties collinear.
func fitMinNorm(props []string, samples []fit.Sample, opts fit.Options) (*fit.Weights, error) {
	return minNormOnRank(opts, func(o fit.Options) (*fit.Weights, error) { return fit.Fit(props, samples, o) })
}

// minNormOnRank fits with opts and, where the rows leave properties
// collinear (*fit.RankError), again with the minimum-norm fit.
func minNormOnRank(opts fit.Options, fitWith func(fit.Options) (*fit.Weights, error)) (*fit.Weights, error) {
	w, err := fitWith(opts)
	var re *fit.RankError
	if errors.As(err, &re) {
		opts.MinNorm = true
		w, err = fitWith(opts)
	}
	return w, err
}
