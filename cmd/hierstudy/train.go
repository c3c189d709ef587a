package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/examples"
	"github.com/uniperf/uniperf/fit/models"
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
func foldPredictor(form string, env *models.Env, meas, train []models.Row, weight, folds int, all models.Model) (predictor, error) {
	byKernel := map[string][]models.Row{}
	for _, r := range train {
		byKernel[r.Kernel] = append(byKernel[r.Kernel], r)
	}
	fold := map[string]int{}
	for i, k := range slices.Sorted(maps.Keys(byKernel)) {
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
		m, err := newModel(form)
		if err != nil {
			return nil, err
		}
		if err := m.Calibrate(env, trainRows(meas, rest, weight)); err != nil {
			return nil, fmt.Errorf("%s, fold %d of %d: %w", form, f+1, folds, err)
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

// corpusSpec says how the corpus enters the study: which of its tables
// join the calibrations (-train), how many times each row counts, in how
// many folds the kernels trained on are predicted, and which other
// complete runs give its times (-repeats).
type corpusSpec struct {
	paths         []string
	weight, folds int
	// repeats are the folders of the corpus's other complete runs
	// (-repeats).
	repeats []string
}

// check refuses weights and folds out of range and any table of a kernel
// outside examples/' development part: held-out kernels are never fitted.
func (t corpusSpec) check() error {
	if t.weight < 1 || t.weight > 1000 {
		return badInput{fmt.Errorf("-train-weight %d: want 1 to 1000", t.weight)}
	}
	if t.folds < 2 || t.folds > 100 {
		return badInput{fmt.Errorf("-folds %d: want 2 to 100", t.folds)}
	}
	for _, p := range t.paths {
		name := strings.TrimSuffix(filepath.Base(p), ".arrow") + ".knl"
		if examples.SplitOf(name) != examples.Development {
			return badInput{fmt.Errorf("-train %s: %s is not a development kernel of examples/ (held-out kernels are never fitted)", p, name)}
		}
	}
	return nil
}
