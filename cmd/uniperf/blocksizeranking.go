package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/report"
)

// rankingResult is what blocksize --ranking reports, as printed with --json.
type rankingResult struct {
	Tables      []string            `json:"tables"`
	Device      string              `json:"device"`
	Backend     string              `json:"backend"`
	Apart       float64             `json:"apart"`
	Tie         float64             `json:"tie"`
	GroupConsts map[string][]string `json:"group_consts"`
	Rankings    []rankingLine       `json:"rankings"`
	// Skipped says which measurement rows the cross-validation could not
	// predict (they are in no held-out group).
	Skipped []string `json:"skipped,omitempty"`
}

// rankingLine is the ranking of one role's rows by one kind of prediction.
type rankingLine struct {
	Role        string `json:"role"`
	Predictions string `json:"predictions"` // heldOut or inSample
	Rows        int    `json:"rows"`        // rows predicted
	report.Ranking
	FractionRight *float64 `json:"fraction_right,omitempty"` // absent where no pair is scored
}

const (
	heldOut  = "held-out"
	inSample = "in-sample"
)

// rankingFlags are the flags blocksize --ranking takes; the others concern
// a kernel's candidates.
var rankingFlags = []string{"ranking", "json"}

// blocksizeRankingFlags refuses the flags of a kernel's candidates with
// --ranking.
func blocksizeRankingFlags(flags *pflag.FlagSet) error {
	var bad []string
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Changed && !slices.Contains(rankingFlags, f.Name) {
			bad = append(bad, "--"+f.Name)
		}
	})
	if len(bad) > 0 {
		return fmt.Errorf("--ranking scores the default linear fit on the tables given as arguments and takes only --json, not %s", strings.Join(bad, ", "))
	}
	return nil
}

// blocksizeRanking scores how well the default linear fit ranks the
// work-group-size variants of the tables' rows.
func blocksizeRanking(out io.Writer, args []string, asJSON bool) error {
	lt, err := loadTables(args)
	if err != nil {
		return err
	}
	counter, err := tableCounter(lt)
	if err != nil {
		return err
	}
	lo := fitOptions{}.linear()
	w, err := linear.CalibrateTables(counter, lt.tables, lo)
	if err != nil {
		return err
	}
	meas := models.Rows(lt.tables, datasets.RoleMeasurement)
	test := models.Rows(lt.tables, datasets.RoleTest)
	inMeas, err := linear.Validate(counter, w, meas)
	if err != nil {
		return err
	}
	// Test rows enter no fit: the fit on every measurement row predicts them held out.
	outTest, err := linear.Validate(counter, w, test)
	if err != nil {
		return err
	}
	cv, skipped, err := linear.CrossValidate(counter, lt.tables, linear.WithTiesOf(lo, w))
	if err != nil {
		return err
	}
	var all []report.Case
	for _, r := range append(slices.Clone(meas), test...) {
		all = append(all, models.ReportCase(r.Row))
	}
	gc, err := models.WorkGroupConsts(tableKernels, all)
	if err != nil {
		return err
	}
	first := lt.tables[slices.Sorted(maps.Keys(lt.tables))[0]].Meta
	res := rankingResult{Tables: args, Device: first.DeviceName, Backend: first.Backend,
		Apart: report.RankApart, Tie: report.RankTie, GroupConsts: gc, Skipped: skipped}
	add := func(role, preds string, cases []report.Case) {
		if len(cases) == 0 {
			return
		}
		r := report.RankVariants(report.GroupVariants(cases, gc))
		l := rankingLine{Role: role, Predictions: preds, Rows: len(cases), Ranking: r}
		if r.Pairs > 0 {
			f := r.FractionRight()
			l.FractionRight = &f
		}
		res.Rankings = append(res.Rankings, l)
	}
	add(datasets.RoleMeasurement, heldOut, cv)
	add(datasets.RoleMeasurement, inSample, inMeas)
	add(datasets.RoleTest, heldOut, outTest)
	if asJSON {
		return writeJSON(out, res)
	}
	return printRanking(out, res)
}

func printRanking(out io.Writer, r rankingResult) error {
	fmt.Fprintf(out, "work-group ranking of the default linear fit on %s (%s, %s)\n", strings.Join(r.Tables, ", "), r.Device, r.Backend)
	byConsts := map[string][]string{}
	for k, names := range r.GroupConsts {
		key := strings.Join(names, ", ")
		if key == "" {
			key = "none"
		}
		byConsts[key] = append(byConsts[key], k)
	}
	for _, key := range slices.Sorted(maps.Keys(byConsts)) {
		fmt.Fprintf(out, "work-group consts %s: %d kernel(s)\n", key, len(byConsts[key]))
	}
	fmt.Fprintf(out, "pairs scored: measured more than %.0f%% apart; tied: predicted within %.1f%%\n\n", 100*r.Apart, 100*r.Tie)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "rows\tpredictions\tgroups\tpairs\tright\twrong\ttied\tfraction right\tpick best\tpick tied\tpick cost geomean\tworst\t")
	for _, l := range r.Rankings {
		frac := "-"
		if l.FractionRight != nil {
			frac = fmt.Sprintf("%.2f", *l.FractionRight)
		}
		cost, worst := "-", "-"
		if l.Groups > 0 {
			cost, worst = fmt.Sprintf("%.3f", l.PickCost), fmt.Sprintf("%.2f", l.PickWorst)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%s\t%s\t\n", l.Role, l.Predictions, l.Groups, l.Pairs,
			l.Right, l.Wrong, l.Tied, frac, l.PickBest, l.PickTied, cost, worst)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	for _, l := range r.Rankings {
		if w := l.Worst; w != nil && l.PickWorst > 1 {
			fmt.Fprintf(out, "worst pick, %s rows %s: %s: %s (%s) against %s (%s)\n", l.Role, l.Predictions, w.Group,
				w.Picked, seconds(w.PickedS), w.Best, seconds(w.BestS))
		}
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(out, "not in the held-out groups (the cross-validation could not predict them):\n  %s\n", strings.Join(r.Skipped, "\n  "))
	}
	return nil
}
