package main

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
)

// heldRow is a row of a class left out, as -why reads it: its measured
// time, the prediction of the calibration without its class (features
// without a weight priced at zero, and named), and the terms of that
// prediction and of the calibration on all the rows.
type heldRow struct {
	measured, predicted float64
	// unpriced are the features the fold has no weight for: the
	// cross-validation does not predict the row.
	unpriced []string
	// fold and all are each term's seconds in the fold's prediction and
	// in that of the calibration on every row.
	fold, all map[string]float64
	// allPredicted is the prediction of the calibration on every row.
	allPredicted float64
}

// classWhy is the diagnosis of one class left out.
type classWhy struct {
	class            string
	rows, predicted  int
	geomean, median  float64 // of the predicted rows: |error| and signed p/m − 1
	slow             int     // predicted rows predicted slower than measured
	allMedian        float64 // signed median of the calibration on every row, same rows
	unpriced         map[string]int
	foldShare, share map[string]float64 // mean share of a term in the prediction
}

// summarize diagnoses a class's rows: how many the fold predicts, their
// errors, the features that leave the others unpredicted, and each
// term's share of the prediction (its seconds over the prediction's,
// averaged over the predicted rows; in a max form a part the max does
// not take has terms too, so that shares may sum past 1).
func summarize(class string, rows []heldRow) classWhy {
	w := classWhy{class: class, rows: len(rows), unpriced: map[string]int{}, foldShare: map[string]float64{}, share: map[string]float64{}}
	var errs, signed, allSigned []float64
	for _, r := range rows {
		for _, p := range r.unpriced {
			w.unpriced[p]++
		}
		if len(r.unpriced) > 0 {
			continue
		}
		errs = append(errs, fit.RelativeError(r.predicted, r.measured))
		signed = append(signed, r.predicted/r.measured-1)
		allSigned = append(allSigned, r.allPredicted/r.measured-1)
		if r.predicted > r.measured {
			w.slow++
		}
		for p, t := range r.fold {
			w.foldShare[p] += t / r.predicted
		}
		for p, t := range r.all {
			w.share[p] += t / r.allPredicted
		}
	}
	w.predicted = len(errs)
	if w.predicted == 0 {
		return w
	}
	for _, m := range []map[string]float64{w.foldShare, w.share} {
		for p := range m {
			m[p] /= float64(w.predicted)
		}
	}
	w.geomean, w.median, w.allMedian = fit.GeoMean(errs), median(signed), median(allSigned)
	return w
}

// median is the median of xs (the mean of the middle two of an even
// count), as a row's spread takes it.
func median(xs []float64) float64 { return datasets.SpreadOf(xs, 0).Median }

// top returns the n keys of m with the largest values, largest first
// (ties by name).
func top(m map[string]float64, n int) []string {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b))
	})
	return keys[:min(n, len(keys))]
}

// text prints the diagnosis in lines, with the weights (seconds per
// count) of the terms named by the fold (foldW) and by the calibration
// on every row (allW).
func (w classWhy) text(form string, foldW, allW func(string) float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    %s why %s: %d rows, %d predicted", form, w.class, w.rows, w.predicted)
	if w.predicted > 0 {
		fmt.Fprintf(&b, " (geomean %.3f, signed median %+.2f, %d too slow, %d too fast; calibrated on every row: signed median %+.2f)",
			w.geomean, w.median, w.slow, w.predicted-w.slow, w.allMedian)
	}
	b.WriteString("\n")
	if len(w.unpriced) > 0 {
		var us []string
		for _, p := range slices.Sorted(maps.Keys(w.unpriced)) {
			us = append(us, fmt.Sprintf("%s (%d rows)", p, w.unpriced[p]))
		}
		fmt.Fprintf(&b, "      not predicted: no other class exercises %s\n", strings.Join(us, ", "))
	}
	if w.predicted == 0 {
		return b.String()
	}
	for _, s := range []struct {
		name   string
		shares map[string]float64
	}{{"left out", w.foldShare}, {"every row", w.share}} {
		var ts []string
		for _, p := range top(s.shares, 5) {
			ts = append(ts, fmt.Sprintf("%s %.0f%% (w left out %s, every row %s)", p, 100*s.shares[p], weightText(foldW(p)), weightText(allW(p))))
		}
		fmt.Fprintf(&b, "      terms, %s: %s\n", s.name, strings.Join(ts, ", "))
	}
	return b.String()
}

// why calibrates a new model of form (newFold) without each class of
// the measurement rows in turn, as the cross-validation does, and prints
// each class's diagnosis; all is the form calibrated on every row.
func why(env *models.Env, meas []models.Row, form string, all *hierarchy.Model, newFold func() (models.Model, error)) error {
	for _, f := range models.Folds(meas) {
		m, err := newFold()
		if err != nil {
			return err
		}
		fold, ok := m.(*hierarchy.Model)
		if !ok {
			return fmt.Errorf("-why: form %s is not a hierarchy form", form)
		}
		if err := fold.Calibrate(env, f.Rest); err != nil {
			fmt.Printf("    %s why %s: not calibrated without it: %v\n", form, f.Class, err)
			continue
		}
		fold.ZeroMissing = true
		var held []heldRow
		for _, r := range f.Held {
			h, err := hold(env, r, fold, all)
			if err != nil {
				return fmt.Errorf("-why, class %s: %w", f.Class, err)
			}
			held = append(held, h)
		}
		fmt.Print(summarize(f.Class, held).text(form, weightOf(fold), weightOf(all)))
	}
	return nil
}

// hold predicts a row with the fold (ZeroMissing) and with the
// calibration on every row.
func hold(env *models.Env, r models.Row, fold, all *hierarchy.Model) (heldRow, error) {
	h := heldRow{measured: r.TimeS}
	p, err := fold.Predict(env, models.CaseOf(r))
	if err != nil {
		return h, err
	}
	q, err := all.Predict(env, models.CaseOf(r))
	if err != nil {
		return h, err
	}
	h.predicted, h.allPredicted = p.Seconds, q.Seconds
	h.fold, h.unpriced = terms(p.Explain)
	h.all, _ = terms(q.Explain)
	return h, nil
}

// terms returns an explanation's priced terms, in seconds, and the
// features it has no weight for. The part totals that follow the terms
// are sums of them, not terms.
func terms(explain []models.Quantity) (map[string]float64, []string) {
	priced := map[string]float64{}
	var unpriced []string
	for _, e := range explain {
		switch {
		case e.Note == hierarchy.NoWeight:
			unpriced = append(unpriced, e.Name)
		case e.Unit == "s" && !strings.HasPrefix(e.Name, hierarchy.PartPrefix):
			priced[e.Name] = e.Value
		}
	}
	return priced, unpriced
}

// weightOf returns a calibration's weight of a feature, NaN where it
// has none: no row it was fitted on has the feature, or its form left
// the feature out (Calibrate turns an option off where no row has its
// feature, so that a fold prices a class's rows without it).
func weightOf(m *hierarchy.Model) func(string) float64 {
	return func(p string) float64 {
		if j := slices.Index(m.Properties, p); j >= 0 {
			return m.Values[j]
		}
		return math.NaN()
	}
}

// weightText prints a weight, "none" for NaN (weightOf).
func weightText(w float64) string {
	if math.IsNaN(w) {
		return "none"
	}
	return fmt.Sprintf("%.3g", w)
}
