package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
	"github.com/uniperf/uniperf/fit/models/linear"
)

// predictor predicts one corpus row.
type predictor func(models.Row) (models.Prediction, error)

// trainRows returns the calibration's rows: the measurement rows and,
// weight times each, the corpus rows of train.
func trainRows(meas, train []models.Row, weight int) []models.Row {
	out := slices.Clip(meas)
	for range weight {
		out = append(out, train...)
	}
	return out
}

// foldPredictor calibrates form once per fold of train's kernels and
// predicts a row of a trained kernel with the calibration that left its
// fold out, so that no kernel is predicted by weights fitted on it; a
// kernel not in train is predicted by all, the calibration on every row.
// Kernels fall in folds by their place in sorted order, modulo folds: a
// fixed rule, chosen before any figure.
func foldPredictor(env *models.Env, meas, train []models.Row, weight, folds int, all models.Model, newFold func() (models.Model, error)) (predictor, error) {
	kernels := map[string]bool{}
	for _, r := range train {
		kernels[r.Kernel] = true
	}
	fold := map[string]int{}
	for i, k := range slices.Sorted(maps.Keys(kernels)) {
		fold[k] = i % folds
	}
	fitted := make([]models.Model, folds)
	for f := range folds {
		var rest []models.Row
		for _, r := range train {
			if fold[r.Kernel] != f {
				rest = append(rest, r)
			}
		}
		m, err := newFold()
		if err != nil {
			return nil, err
		}
		if err := m.Calibrate(env, trainRows(meas, rest, weight)); err != nil {
			return nil, fmt.Errorf("fold %d of %d: %w", f+1, folds, err)
		}
		zeroMissing(m)
		fitted[f] = m
	}
	return func(r models.Row) (models.Prediction, error) {
		m := all
		if f, ok := fold[r.Kernel]; ok {
			m = fitted[f]
		}
		return m.Predict(env, models.CaseOf(r))
	}, nil
}

// zeroMissing makes a calibrated model price a property no row fitted
// exercised at zero, as uniperf validate does for the corpus; the
// cross-validation leaves such rows out instead, as uniperf validate --cv
// does.
func zeroMissing(m models.Model) {
	switch m := m.(type) {
	case *linear.Model:
		m.Weights.ZeroMissing = true
	case *hierarchy.Model:
		m.ZeroMissing = true
	}
}
