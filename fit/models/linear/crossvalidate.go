package linear

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/report"
)

// CrossValidate leaves out each kernel class of the measurement rows in
// turn, fits on the other classes and predicts the rows left out. Where
// the other classes leave properties collinear, the fit is the
// minimum-norm one. A row that counts a property the other classes do not
// exercise, or whose counts have a component the fit does not determine
// (an infinite leverage, see fit.Precision), cannot be predicted; skipped
// lists, per class, the rows left unpredicted and why. With
// opts.ChooseTies the ties are chosen once, on all the rows, and every
// fold fits with that choice (WithTiesOf passes the choice of weights
// already fitted instead).
func CrossValidate(c *models.Counter, tables map[string]*datasets.Table, opts Options) (cases []report.Case, skipped []string, err error) {
	if _, err := models.OneDevice(tables); err != nil {
		return nil, nil, err
	}
	rows := models.Rows(tables, datasets.RoleMeasurement)
	if opts.ChooseTies {
		// Choosing ties cross-validates on its own; choosing them in
		// every fold would nest a cross-validation in each. The choice
		// made once on all the rows holds in every fold; where all the
		// rows cannot be fitted, there are none.
		w, err := Calibrate(c, rows, opts)
		opts.ChooseTies = false
		if err == nil {
			opts.Ties = w.Ties
		}
	}
	for _, f := range models.Folds(rows) {
		got, why, err := predictHeld(c, f.Rest, f.Held, opts)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", f.Class, err))
			continue
		}
		cases = append(cases, got...)
		if len(why) > 0 {
			skipped = append(skipped, fmt.Sprintf("%s: %d of %d rows not predicted: %s", f.Class, len(f.Held)-len(got), len(f.Held), strings.Join(why, "; ")))
		}
	}
	return cases, skipped, nil
}

// WithTiesOf returns opts for cross-validating the rows that w was
// fitted on with opts: where opts choose ties, w's choice, which
// CrossValidate would otherwise make again on the same rows.
func WithTiesOf(opts Options, w *fit.Weights) Options {
	if opts.ChooseTies {
		opts.ChooseTies, opts.Ties = false, w.Ties
	}
	return opts
}

// predictHeld fits train and predicts the rows of held that the fit
// prices and determines, and says why it left the others out (each reason
// once).
func predictHeld(c *models.Counter, train, held []models.Row, opts Options) ([]report.Case, []string, error) {
	w, err := minNormOnRank(opts.Fit, func(f fit.Options) (*fit.Weights, error) {
		o := opts
		o.Fit = f
		return Calibrate(c, train, o)
	})
	if err != nil {
		return nil, nil, err
	}
	opts.Fill, opts.Ties = w.Fill, w.Ties
	props, samples, err := Samples(c, append(slices.Clone(train), held...), opts)
	if err != nil {
		return nil, nil, err
	}
	pr, err := fit.NewPrecision(w, props, samples[:len(train)])
	if err != nil {
		return nil, nil, err
	}
	var cases []report.Case
	var why []string
	note := func(s string) {
		if !slices.Contains(why, s) {
			why = append(why, s)
		}
	}
	for i, r := range held {
		counts := samples[len(train)+i].Counts
		if p := unpriced(w, props, counts); p != "" {
			note(fmt.Sprintf("%s is exercised by no other class", p))
			continue
		}
		pred, h, err := pr.PredictionLeverage(counts)
		if err != nil {
			return nil, nil, err
		}
		if math.IsInf(h, 1) {
			note(fmt.Sprintf("%s counts a combination of properties the other classes do not determine", r.Kernel))
			continue
		}
		rc := models.ReportCase(r.Row)
		rc.Predicted = pred
		cases = append(cases, rc)
	}
	return cases, why, nil
}

// Coverage reports how well the measurement rows of tables determine the
// weights w, fitted to them with opts, and the predictions of the tables'
// test rows (see fit.Coverage).
func Coverage(c *models.Counter, w *fit.Weights, tables map[string]*datasets.Table, opts Options) (*fit.Coverage, error) {
	train := models.Rows(tables, datasets.RoleMeasurement)
	test := models.Rows(tables, datasets.RoleTest)
	if len(train) == 0 || len(test) == 0 {
		return nil, fmt.Errorf("coverage: the tables have %d measurement and %d test rows: it needs both", len(train), len(test))
	}
	// The counts are those w was fitted on, scaled by its grid fill.
	if err := models.CheckBanks(w, c); err != nil {
		return nil, fmt.Errorf("coverage: %w", err)
	}
	opts.Fill, opts.Ties = w.Fill, w.Ties
	props, samples, err := Samples(c, append(slices.Clone(train), test...), opts)
	if err != nil {
		return nil, err
	}
	for i, r := range test {
		samples[len(train)+i].Label = models.SizeLabel(r.Row)
	}
	return fit.NewCoverage(w, props, samples[:len(train)], samples[len(train):])
}
