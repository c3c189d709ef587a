package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/report"
)

// tableSummary is what the demo's one-screen answer says about one
// embedded table: both fits' errors on the test kernels and left out one
// class at a time, and every model's error on the test rows.
type tableSummary struct {
	Table  string         `json:"table"`  // embedded:NAME
	SHA256 string         `json:"sha256"` // of the table's bytes
	Device string         `json:"device"`
	Suite  string         `json:"suite"`
	Rows   int            `json:"rows"`
	Fits   []fitSummary   `json:"fits"`
	Models []modelSummary `json:"models"`
	// NotCompared says why models were left out: the device file lacks
	// their parameters, or the table's device has no file.
	NotCompared []string `json:"not_compared,omitempty"`
}

// demoFits are the fits the demo compares, by the label of its columns.
var demoFits = []struct {
	label string
	opts  fitOptions
}{
	{"free fit", fitOptions{free: true}},
	{"default fit", fitOptions{}},
}

// fitSummary is one fit of a table (in the order of demoFits).
type fitSummary struct {
	Fit     string        `json:"fit"`
	Kernels []kernelError `json:"kernels"` // test kernels, in the table's order
	Test    float64       `json:"test"`    // geomean across the test kernels
	// CV is the geomean error of the CVRows of Measured measurement rows
	// predicted by fits without their class.
	CV       float64 `json:"cv"`
	CVRows   int     `json:"cv_rows"`
	Measured int     `json:"measured"`
}

type kernelError struct {
	Kernel string  `json:"kernel"`
	Err    float64 `json:"err"`
}

// modelSummary is one model's error on the test rows it could predict.
type modelSummary struct {
	Model     string  `json:"model"`
	Predicted int     `json:"predicted"`
	TestRows  int     `json:"test_rows"`
	Err       float64 `json:"err"`
}

// demoCacheFile holds the summaries of the shipped tables, so that the
// demo answers at once: fitting, cross-validating and calibrating every
// model on six tables takes about a minute of CPU. TestDemoSummaryCache
// recomputes each summary and compares it with this file; `go test
// ./cmd/uniperf -run TestDemoSummaryCache -update-demo-cache` rewrites it.
const demoCacheFile = "demosummary.json"

//go:embed demosummary.json
var demoCache []byte

// demoCacheSchema names the layout of demosummary.json.
const demoCacheSchema = "uniperf.demo-summary/1"

type demoCacheContent struct {
	Schema string         `json:"schema"`
	Tables []tableSummary `json:"tables"`
}

// cachedSummaries reads the embedded summaries by table name. A cache that
// does not decode is a fault of the build, not of the user's input.
func cachedSummaries() (map[string]tableSummary, error) {
	var c demoCacheContent
	if err := json.Unmarshal(demoCache, &c); err != nil {
		return nil, systemFailure(fmt.Errorf("%s embedded in this binary: %w", demoCacheFile, err))
	}
	if c.Schema != demoCacheSchema {
		return nil, systemFailure(fmt.Errorf("%s embedded in this binary has schema %q, want %q", demoCacheFile, c.Schema, demoCacheSchema))
	}
	out := map[string]tableSummary{}
	for _, s := range c.Tables {
		out[s.Table] = s
	}
	return out, nil
}

// encodeDemoCache is the content of demosummary.json for sums.
func encodeDemoCache(sums []tableSummary) ([]byte, error) {
	data, err := json.MarshalIndent(demoCacheContent{demoCacheSchema, sums}, "", "  ")
	return append(data, '\n'), err
}

// summarize cross-validates both fits of one table and compares every
// model on it; weights are the fits and cases their predictions of the
// test rows.
func summarize(name, sha string, lt *loadedTables, counter *models.Counter, weights []*fit.Weights, cases [][]report.Case) (*tableSummary, error) {
	t := lt.tables[name]
	s := &tableSummary{Table: name, SHA256: sha, Device: t.Meta.DeviceName, Suite: t.Meta.Suite, Rows: len(t.Rows)}
	measured := len(models.Rows(lt.tables, datasets.RoleMeasurement))
	for i, f := range demoFits {
		test, err := report.NewReport(cases[i])
		if err != nil {
			return nil, fmt.Errorf("%s, %s: %w", name, f.label, err)
		}
		fs := fitSummary{Fit: f.label, Test: test.CrossKernel(s.Device), Measured: measured}
		for _, k := range test.Kernels {
			fs.Kernels = append(fs.Kernels, kernelError{k, test.KernelError(s.Device, k)})
		}
		cv, _, err := linear.CrossValidate(counter, lt.tables, linear.WithTiesOf(f.opts.linear(), weights[i]))
		if err != nil {
			return nil, fmt.Errorf("cross-validating %s (%s): %w", name, f.label, err)
		}
		r, err := report.NewReport(cv)
		if err != nil {
			return nil, fmt.Errorf("cross-validating %s (%s): %w", name, f.label, err)
		}
		fs.CV, fs.CVRows = r.CrossKernel(s.Device), len(cv)
		s.Fits = append(s.Fits, fs)
	}
	return s, summarizeModels(s, lt, counter)
}

// summarizeModels adds every model's error on the test rows, each model
// calibrated on the table's measurement rows. A model whose device file
// lacks its parameters (no paper measured the H100's Hong–Kim constants,
// say) is noted rather than ending the demo. It calibrates and predicts
// as models.Compare does, without the cycle-weighted model's size
// sensitivity, which Compare adds and which is half the demo's time.
func summarizeModels(s *tableSummary, lt *loadedTables, counter *models.Counter) error {
	devices, _, err := deviceRows(lt, counter, true, "")
	if err != nil {
		// A table of a device without a parameter file still fits and
		// validates; only the analytical models need the file.
		s.NotCompared = append(s.NotCompared, fmt.Sprintf("the other models: %v", err))
		return nil
	}
	newModel := modelMaker(fitOptions{})
	for _, d := range devices {
		var meas, test []models.Row
		for _, r := range d.Rows {
			switch r.Role {
			case datasets.RoleMeasurement:
				meas = append(meas, r)
			case datasets.RoleTest:
				test = append(test, r)
			}
		}
		for _, name := range models.Names() {
			m, err := newModel(name)
			if err == nil {
				err = m.Calibrate(d.Env, meas)
			}
			var missingParam *gpus.MissingError
			if errors.As(err, &missingParam) {
				s.NotCompared = append(s.NotCompared, fmt.Sprintf("%s: model %s on device %s: %v", name, name, d.Device, err))
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: model %s on device %s: %w", s.Table, name, d.Device, err)
			}
			ms := modelSummary{Model: name, TestRows: len(test)}
			var errs []float64
			for _, r := range test {
				if p, err := m.Predict(d.Env, models.CaseOf(r)); err == nil {
					errs = append(errs, fit.RelativeError(p.Seconds, r.TimeS))
				}
			}
			ms.Predicted, ms.Err = len(errs), fit.GeoMean(errs)
			s.Models = append(s.Models, ms)
		}
	}
	return nil
}

// writeSummaries prints the one-screen answer: a line per table and fit
// with the test kernels' errors and the leave-one-class-out error, then
// a line per table with every model's error on the test rows.
func writeSummaries(out io.Writer, sums []tableSummary) error {
	var kernels, modelNames []string
	for _, s := range sums {
		for _, f := range s.Fits {
			for _, k := range f.Kernels {
				if !slices.Contains(kernels, k.Kernel) {
					kernels = append(kernels, k.Kernel)
				}
			}
		}
		for _, m := range s.Models {
			if !slices.Contains(modelNames, m.Model) {
				modelNames = append(modelNames, m.Model)
			}
		}
	}
	slices.Sort(modelNames)
	fmt.Fprintf(out, "uniperf demo: %d embedded measurement tables, each fitted on its own (uniperf demo --full prints the whole report)\n\n", len(sums))
	fmt.Fprintln(out, "Geometric-mean relative error |predicted - measured| / measured of the test kernels (seed 001 Table 1)")
	fmt.Fprintln(out, "and of the measurement rows left out one class at a time (uniperf validate --cv). \"free fit\" is the")
	fmt.Fprintln(out, "paper's fit (seed 001 §4.3), \"default fit\" uniperf's: every weight non-negative, and the counts")
	fmt.Fprintln(out, "scaled by how full each launch leaves the device (the grid fill, uniperf fit --help).")
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "table\tdevice\tfit\t%s\tcross-kernel\tleave-one-class-out (rows)\n", strings.Join(kernels, "\t"))
	for _, s := range sums {
		table, device := shortTable(s.Table), s.Device
		for _, f := range s.Fits {
			fmt.Fprintf(tw, "%s\t%s\t%s\t", table, device, f.Fit)
			for _, k := range kernels {
				fmt.Fprintf(tw, "%s\t", kernelCell(f.Kernels, k))
			}
			fmt.Fprintf(tw, "%.3f\t%.3f (%d/%d)\n", f.Test, f.CV, f.CVRows, f.Measured)
			table, device = "", ""
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Every model calibrated on the same measurement rows: geometric-mean relative error of the test rows")
	fmt.Fprintln(out, "(uniperf compare; linear is the default fit).")
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "table\tdevice\t%s\n", strings.Join(modelNames, "\t"))
	var notes []string
	for _, s := range sums {
		cells := []string{shortTable(s.Table), s.Device}
		for _, name := range modelNames {
			cells = append(cells, modelCell(s.Models, name))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
		for _, n := range s.NotCompared {
			if !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(out, "not compared (-): %s\n", n)
	}
	return nil
}

// shortTable is a table's name without the embedded: prefix and the
// extension, to keep the summary narrow.
func shortTable(name string) string {
	return strings.TrimSuffix(strings.TrimPrefix(name, embeddedPrefix), ".arrow")
}

func kernelCell(errs []kernelError, kernel string) string {
	for _, k := range errs {
		if k.Kernel == kernel {
			return fmt.Sprintf("%.3f", k.Err)
		}
	}
	return "-"
}

// modelCell is a model's error, with the rows it predicted where it could
// not predict them all, or "-" where it was not compared.
func modelCell(ms []modelSummary, name string) string {
	for _, m := range ms {
		if m.Model != name {
			continue
		}
		if m.Predicted < m.TestRows {
			return fmt.Sprintf("%.3f (%d of %d)", m.Err, m.Predicted, m.TestRows)
		}
		return fmt.Sprintf("%.3f", m.Err)
	}
	return "-"
}

// writeModelTable prints a table's model comparison in the layout of the
// full report.
func writeModelTable(out io.Writer, s *tableSummary) error {
	if len(s.Models) > 0 {
		fmt.Fprintf(out, "== every model on the same rows (uniperf compare; linear is the default fit)\n\n")
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "model\tdevice\ttest rows predicted\tgeomean relative error")
		for _, m := range s.Models {
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%.3f\n", m.Model, s.Device, m.Predicted, m.TestRows, m.Err)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, n := range s.NotCompared {
		fmt.Fprintf(out, "not compared: %s\n", n)
	}
	_, err := fmt.Fprintln(out)
	return err
}
