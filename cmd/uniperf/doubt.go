package main

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/report"
)

// defaultWarnShare is the share of a prediction above which predict and
// validate warn that it rests on weights held at zero or weakly
// determined. A quarter: a weak weight is uncertain by more than a
// quarter of its value (fit.WeakRelStdErr), so terms above this share
// make the prediction uncertain by more than about 6%, more than the
// spread of repeated measurements on the shipped tables; and a quarter of
// the counts priced at nothing is a cost the prediction may well miss.
const defaultWarnShare = 0.25

const warnShareUsage = "warn where more than this share of a prediction rests on weights the fit held at zero (share of the counts) or determined weakly (share of the time); 1 never warns"

// checkWarnShare refuses a --warn-share outside 0..1.
func checkWarnShare(s float64) error {
	if !(s >= 0 && s <= 1) {
		return fmt.Errorf("--warn-share %g: want a share from 0 to 1", s)
	}
	return nil
}

// doubtLines words what is doubtful about one prediction: each kind of
// doubt whose share is above limit, with its terms and their shares.
func doubtLines(w *fit.Weights, terms []fit.Term, limit float64) []string {
	d := w.Doubt(terms)
	var total float64
	for _, t := range terms {
		total += t.Count
	}
	var out []string
	if d.HeldShare > limit {
		var parts []string
		for _, t := range d.Held {
			parts = append(parts, fmt.Sprintf("%s %.2g%%", t.Property, 100*t.Count/total))
		}
		out = append(out, fmt.Sprintf("%.0f%% of the counts are priced at zero by weights the fit held at zero (%s)", 100*d.HeldShare, strings.Join(parts, ", ")))
	}
	if d.WeakShare > limit {
		var parts []string
		for _, t := range d.Weak {
			parts = append(parts, fmt.Sprintf("%s %.2g%%", t.Property, 100*t.Share))
		}
		out = append(out, fmt.Sprintf("%.0f%% of the predicted time rests on weakly determined weights (%s; uniperf fit --coverage says why)", 100*d.WeakShare, strings.Join(parts, ", ")))
	}
	return out
}

// warnDoubt warns on stderr where more than limit of a prediction rests
// on weights held at zero or weakly determined.
func warnDoubt(kernel string, params map[string]int64, w *fit.Weights, terms []fit.Term, limit float64) {
	for _, l := range doubtLines(w, terms, limit) {
		fmt.Fprintf(stderr, "warning: %s%s: %s, above --warn-share %g\n", kernel, atParams(params), l, limit)
	}
}

// warnValidation warns on stderr of the validated rows' predictions: one
// line per kernel and property the weights have no weight for (priced at
// zero), and per kernel where more than limit of a prediction rests on
// weights held at zero or weakly determined, each with the number of rows
// concerned and the range of the share; one line per kernel keeps the
// warnings of a table of hundreds of rows readable.
func warnValidation(w *fit.Weights, cases []report.Case, terms [][]fit.Term, limit float64) {
	const (
		unweighted = iota
		held
		weak
	)
	type key struct {
		kernel   string
		kind     int
		property string
	}
	var shares fit.Ranges[key]
	rows := map[string]int{}
	for i, c := range cases {
		rows[c.Kernel]++
		var total float64
		for _, t := range terms[i] {
			total += t.Count
		}
		for _, t := range terms[i] {
			if t.Unweighted {
				shares.Note(key{c.Kernel, unweighted, t.Property}, t.Count/total)
			}
		}
		d := w.Doubt(terms[i])
		if d.HeldShare > limit {
			shares.Note(key{c.Kernel, held, ""}, d.HeldShare)
		}
		if d.WeakShare > limit {
			shares.Note(key{c.Kernel, weak, ""}, d.WeakShare)
		}
	}
	for _, k := range shares.Keys() {
		a := shares.Of(k)
		share := fmt.Sprintf("%.2g%%", 100*a.Lo)
		if hi := fmt.Sprintf("%.2g%%", 100*a.Hi); hi != share {
			share = fmt.Sprintf("%.2g–%s", 100*a.Lo, hi)
		}
		head := fmt.Sprintf("warning: %s (%d of %d rows)", k.kernel, a.N, rows[k.kernel])
		switch k.kind {
		case unweighted:
			fmt.Fprintf(stderr, "%s: the weights have no weight for %s (%s of the kernel's counts); priced at zero (--strict refuses)\n", head, k.property, share)
		case held:
			fmt.Fprintf(stderr, "%s: %s of the counts are priced at zero by weights the fit held at zero, above --warn-share %g\n", head, share, limit)
		case weak:
			fmt.Fprintf(stderr, "%s: %s of the predicted time rests on weakly determined weights (uniperf fit --coverage says which), above --warn-share %g\n", head, share, limit)
		}
	}
}
