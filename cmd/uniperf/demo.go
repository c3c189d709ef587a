package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"runtime"
	"sync"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/report"
)

var demoFull bool

var demoCmd = &cobra.Command{
	Use:   "demo",
	Short: "Run the whole pipeline on the measurement tables shipped in the binary",
	Long: `demo needs no device and no arguments. For every measurement table
embedded in the binary (see the datasets/ directory of the source), on its
own, it

  1. counts every measured kernel symbolically and evaluates the counts at
     each row's parameters,
  2. fits one weight per property to the measurement rows twice: freely, as
     seed 001 §4.3 does, and with uniperf's default fit (every weight
     non-negative; see go doc ./fit),
  3. predicts the test kernels (finite differences, skinny matrix
     multiplication, n-body, convolution) with both fits, in the layout of
     seed 001's Table 1,
  4. cross-validates both fits, leaving out one kernel class of the
     measurement rows at a time (uniperf validate --cv),
  5. compares the seeds' other models (Hong–Kim, cycle-weighted, Resios,
     Xu) with the default linear fit on the same rows, as uniperf compare
     does.

It prints one screen: per table, both fits' geometric-mean errors on each
test kernel, across them and left out one class at a time, and every
model's error on the test rows. These figures are computed when the
binary is built (demosummary.json beside the source, which the tests
recompute from the tables); a table that differs from the one they were
computed on is fitted afresh, with a progress line on stderr.

--json prints the summary as one object, the layout of demosummary.json:
{"schema": "uniperf.demo-summary/1", "tables": [{"table", "sha256" (of
the table's bytes), "device", "suite", "rows", "fits": [{"fit",
"kernels": [{"kernel", "err"}], "test" (geomean across the test
kernels), "cv" (geomean left out one class at a time), "cv_rows",
"measured"}], "models": [{"model", "predicted", "test_rows", "err"}],
"not_compared"}]}; with --full the figures are computed afresh and the
report is left out.

--full computes and prints everything, about a minute of CPU: both
sets of weights with the rates they imply, the training error per class,
measured against predicted times of every test row, the coverage of the
default fit (uniperf fit --coverage), and the sections above per table.

The free fit reproduces the paper's method, negative weights included; a
negative weight can make a prediction negative, which the default fit
cannot. The same steps are uniperf fit (with and without --free), uniperf
validate and uniperf export on embedded:NAME tables.`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		out, progress := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if demoFull {
			report := out
			if demoJSON {
				report = io.Discard
			}
			sums, err := demoReport(report, progress, shippedTables())
			if err != nil || !demoJSON {
				return err
			}
			return writeJSON(out, demoCacheContent{Schema: demoCacheSchema, Tables: sums})
		}
		cached, err := cachedSummaries()
		if err != nil {
			return err
		}
		sums, err := demoSummaries(progress, cached)
		if err != nil {
			return err
		}
		if demoJSON {
			return writeJSON(out, demoCacheContent{Schema: demoCacheSchema, Tables: sums})
		}
		return writeSummaries(out, sums)
	},
}

var demoJSON bool

func init() {
	demoCmd.Flags().BoolVar(&demoFull, "full", false, "compute and print the whole report (about a minute of CPU)")
	demoCmd.Flags().BoolVar(&demoJSON, "json", false, "print the summary as JSON instead of the screen (with --full: computed afresh)")
	rootCmd.AddCommand(demoCmd)
}

// demoSummaries returns the summaries of the one-screen answer, the cached
// ones where a table is the one they were computed on.
func demoSummaries(progress io.Writer, cached map[string]tableSummary) ([]tableSummary, error) {
	names := shippedTables()
	if len(names) == 0 {
		return nil, fmt.Errorf("this binary embeds no measurement tables")
	}
	var sums []tableSummary
	var counter *models.Counter
	for i, name := range names {
		data, err := readTable(name)
		if err != nil {
			return nil, err
		}
		sha := sha256.Sum256(data)
		if s, ok := cached[name]; ok && s.SHA256 == hex.EncodeToString(sha[:]) {
			sums = append(sums, s)
			continue
		}
		fmt.Fprintf(progress, "uniperf demo: %s (%d of %d) differs from the table %s was computed on: fitting, cross-validating and comparing models on it (about 5 s)\n", name, i+1, len(names), demoCacheFile)
		if counter == nil {
			counter = models.NewCounter(nil)
		}
		lt, err := loadTables([]string{name})
		if err != nil {
			return nil, err
		}
		weights, cases, err := fitBoth(io.Discard, name, lt, counter)
		if err != nil {
			return nil, err
		}
		s, err := summarize(name, lt.inputs[0].SHA256, lt, counter, weights, cases)
		if err != nil {
			return nil, err
		}
		sums = append(sums, *s)
	}
	return sums, nil
}

// demoReport runs the pipeline on each of the named tables alone (tables
// measured on different hosts may name the same device), prints every
// step, and returns the tables' summaries. Tables are worked on by
// GOMAXPROCS workers, each into a buffer of its own, and printed in order.
func demoReport(out, progress io.Writer, names []string) ([]tableSummary, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("this binary embeds no measurement tables")
	}
	counter := models.NewCounter(nil)
	reports := make([]bytes.Buffer, len(names))
	sums := make([]tableSummary, len(names))
	errs := make([]error, len(names))
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				if i < len(names) {
					fmt.Fprintf(progress, "uniperf demo: %s (%d of %d): fitting, validating, cross-validating, comparing models\n", names[i], i+1, len(names))
				}
				mu.Unlock()
				if i >= len(names) {
					return
				}
				lt, err := loadTables([]string{names[i]})
				if err != nil {
					errs[i] = err
					continue
				}
				s, err := demoTable(&reports[i], names[i], lt, counter)
				if err != nil {
					errs[i] = err
					continue
				}
				sums[i] = *s
			}
		})
	}
	wg.Wait()
	for i := range names {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if _, err := reports[i].WriteTo(out); err != nil {
			return nil, err
		}
	}
	return sums, nil
}

// fitBoth fits a table both ways, prints the weights and their
// diagnostics, and returns the weights and each fit's predictions of the
// test rows, in the order of demoFits.
func fitBoth(out io.Writer, name string, lt *loadedTables, counter *models.Counter) ([]*fit.Weights, [][]report.Case, error) {
	var weights []*fit.Weights
	var labels []string
	cases := make([][]report.Case, len(demoFits))
	test := models.Rows(lt.tables, datasets.RoleTest)
	for i, f := range demoFits {
		w, err := linear.CalibrateTables(counter, lt.tables, f.opts.linear())
		if err != nil {
			return nil, nil, fmt.Errorf("fitting %s (%s): %w", name, f.label, err)
		}
		fmt.Fprintf(out, "%s: ", f.label)
		printDiagnostics(out, w)
		fmt.Fprintln(out)
		if cases[i], err = linear.Validate(counter, w, test); err != nil {
			return nil, nil, fmt.Errorf("validating %s: %w", name, err)
		}
		weights, labels = append(weights, w), append(labels, f.label)
	}
	c, err := report.CompareWeights(weights, labels)
	if err != nil {
		return nil, nil, err
	}
	if err := c.WriteMarkdown(out); err != nil {
		return nil, nil, err
	}
	_, err = fmt.Fprintln(out)
	return weights, cases, err
}

// demoTable prints one table's fits, test predictions, coverage,
// cross-validation and model comparison, and returns its summary.
func demoTable(out io.Writer, name string, lt *loadedTables, counter *models.Counter) (*tableSummary, error) {
	t := lt.tables[name]
	fmt.Fprintf(out, "== %s: %s, suite %s, %d rows\n\n", name, t.Meta.DeviceName, t.Meta.Suite, len(t.Rows))
	weights, cases, err := fitBoth(out, name, lt, counter)
	if err != nil {
		return nil, err
	}
	for i, f := range demoFits {
		fmt.Fprintf(out, "== %s, test kernels, %s: measured against predicted (seed 001 Table 1)\n\n", name, f.label)
		if err := printReport(out, cases[i]); err != nil {
			return nil, err
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "== %s, coverage of the default fit\n\n", name)
	cov, err := linear.Coverage(counter, weights[len(weights)-1], lt.tables, demoFits[len(demoFits)-1].opts.linear())
	if err != nil {
		return nil, err
	}
	if err := cov.WriteText(out); err != nil {
		return nil, err
	}
	s, err := summarize(name, lt.inputs[0].SHA256, lt, counter, weights, cases)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "\n== %s, leave-one-class-out cross-validation (uniperf validate --cv)\n\n", name)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "fit\trows predicted\tcross-kernel geomean relative error")
	for _, f := range s.Fits {
		fmt.Fprintf(tw, "%s\t%d/%d\t%.3f\n", f.Fit, f.CVRows, f.Measured, f.CV)
	}
	if err := tw.Flush(); err != nil {
		return nil, err
	}
	fmt.Fprintln(out)
	return s, writeModelTable(out, s)
}
