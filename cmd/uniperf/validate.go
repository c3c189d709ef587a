package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/report"
	"github.com/uniperf/uniperf/fit/report/plots"
)

// validateOptions are the flags of `uniperf validate`.
type validateOptions struct {
	weights    string
	cv         bool
	role       string
	plot       string
	fit        fitOptions // for --cv
	model      string
	deviceFile string
	coverage   bool
	json       bool
	strict     bool
	warnShare  float64
}

var validateOpts validateOptions

var validateCmd = &cobra.Command{
	Use:   "validate --weights WEIGHTS.arrow TABLE.arrow...",
	Short: "Compare predicted with measured run times (seed 001 Table 1)",
	Long: `validate predicts every test row (role "test") of the measurement tables with
the weights and prints seed 001's Table 1 for the device: measured and
predicted time per test kernel and size, the geometric mean of the
relative error |predicted − measured| / measured per kernel, and its
geometric mean across kernels. --role measurement or --role all validates
other rows. A table is a path or embedded:NAME.

Relative errors below 0.001 enter the geometric means as 0.001 (rounded
timings can give an error of exactly zero, which would make any geometric
mean zero); such cases are marked with an asterisk.

--cv needs no weights: it leaves out one kernel class of the measurement
rows at a time, fits on the other classes, and predicts the rows left
out, which shows how well the measurement set prices kernels it has not
seen. Rows that count a property no other class exercises, or a
combination of properties the other classes do not determine, are not
predicted; each class's such rows are listed with the reason.
--free, --balance, --robust, --min-norm, --no-integer, --no-grid-fill,
--one-saturation, --no-ties, --own-ldg, --ldg-fallback and --fill-from set up those fits as in uniperf fit; the
ties of the default fit are chosen once, on all the measurement rows,
and every fold fits with that choice. The error is 0.285 on the shipped
pocl-epyc-paper table and 0.115 to 0.141 on the H100 and H200 tables; on
a CPU it is large where a class alone sets a property apart (strided
stores), where its sizes straddle the last-level cache, or where a loop
over a parameter runs serially in each work-item; go doc
github.com/uniperf/uniperf/fit says which classes and why.

--coverage (with --weights) adds the coverage report of uniperf fit
--coverage: for every property of the test kernels, the measurement
classes that exercise it, the standard error of its weight and the weight
refitted without each of those classes, and for every test row the
leverage and relative standard error of its prediction, with a warning
where the prediction extrapolates or relies on a weight that one class
alone supports, that is weakly determined, or that its classes disagree
on. It needs the tables the weights were fitted on.

Where the rows hold their raw times (uniperf measure keeps them), the
median and maximum of each row's kept runs stand beside the measured
minimum, and an error smaller than the median's excess over the minimum
is marked "~": within the noise, since a typical run lies farther from
the measured time than the prediction does.

A property the weights have no weight for is priced at zero, with one
warning per kernel that names it and its share of the counts (--strict
makes it an error, as before). A warning per kernel also says where more
than --warn-share (default 0.25) of a row's prediction rests on weights
the non-negative fit held at zero (their share of the counts) or that
the rows determine weakly (their share of the time), as uniperf predict
says for one prediction.

--plot FILE.svg draws predicted against measured time, log-log, with the
diagonal.

--model NAME validates another model (hongkim, cycles; see uniperf
compare): --weights is then the calibration file that uniperf fit --model
NAME wrote, and --cv calibrates that model without each class in turn.
The device parameters come from the shipped device file of the tables'
device or from --device-file. Rows the model cannot predict are listed
and left out of the report.

--json prints one object instead of the report: {"title", "cases": [{"model",
"device", "class", "kernel", "role", "size", "params", "consts",
"local_size", "measured_s", "median_s", "max_s", "predicted_s",
"relative_error", "within_noise", "error"}], "not_predicted": [...],
"notes": [...]}, with times at full precision (the report rounds them),
median_s and max_s the kept runs' spread where the table holds them, and
"error" set where a row was not predicted.`,
	Example: `  uniperf validate --weights pocl.weights.arrow embedded:pocl-epyc-quick.arrow
  uniperf validate --cv embedded:pocl-epyc-quick.arrow --plot cv.svg
  uniperf validate --model cycles --cv embedded:pocl-epyc-quick.arrow`,
	Args: cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return validate(cmd.OutOrStdout(), args, validateOpts)
	},
}

func init() {
	f := validateCmd.Flags()
	f.StringVar(&validateOpts.weights, "weights", "", "weight table written by uniperf fit, or weights in the CSV of uniperf export (FILE.csv, or FILE.csv#DEVICE for one of several devices)")
	f.BoolVar(&validateOpts.cv, "cv", false, "leave-one-kernel-class-out cross-validation on the measurement rows")
	f.StringVar(&validateOpts.role, "role", datasets.RoleTest, "rows to validate: test, measurement or all")
	f.StringVar(&validateOpts.plot, "plot", "", "draw predicted against measured time to this SVG file")
	f.BoolVar(&validateOpts.fit.free, "free", false, "with --cv: seed 001's free fits instead of the default fit")
	f.BoolVar(&validateOpts.fit.balance, "balance", false, "with --cv: balance the kernel classes")
	f.BoolVar(&validateOpts.fit.robust, "robust", false, "with --cv: minimise absolute relative errors")
	f.BoolVar(&validateOpts.fit.minNorm, "min-norm", false, "with --cv: accept collinear properties")
	f.BoolVar(&validateOpts.fit.noInteger, "no-integer", false, "with --cv: leave integer operations out of the fits")
	f.BoolVar(&validateOpts.fit.noFill, "no-grid-fill", false, "with --cv: fit without the grid-fill factor")
	f.BoolVar(&validateOpts.fit.oneSaturation, "one-saturation", false, "with --cv: one grid-fill saturation for every property, none apart for the latency-bound or the coalesced global ones")
	f.BoolVar(&validateOpts.fit.noTies, "no-ties", false, "with --cv: keep every weight apart, no filled strided accesses tied to stride-1 ones")
	f.BoolVar(&validateOpts.fit.ownLdg, "own-ldg", false, "with --cv: give strided readonly loads weights of their own instead of the plain loads' of their classes")
	f.BoolVar(&validateOpts.fit.ldgFallback, "ldg-fallback", false, "with --cv: price a strided readonly load by the plain load of its class only where no row counts it")
	f.StringSliceVar(&validateOpts.fit.fillFrom, "fill-from", nil, "with --cv: "+fillFromUsage)
	f.StringVar(&validateOpts.model, "model", "linear", "model to validate: "+strings.Join(models.Names(), ", "))
	f.StringVar(&validateOpts.deviceFile, "device-file", "", "device parameter file (shipped name or JSON, see fit/gpus) for models other than linear")
	f.BoolVar(&validateOpts.json, "json", false, "print every row's measured and predicted time as JSON instead of the report")
	f.BoolVar(&validateOpts.coverage, "coverage", false, "with --weights: report how well the measurement rows determine the test predictions")
	f.BoolVar(&validateOpts.strict, "strict", false, "fail on a property the weights have no weight for, rather than price it at zero with a warning")
	f.Float64Var(&validateOpts.warnShare, "warn-share", defaultWarnShare, warnShareUsage)
	rootCmd.AddCommand(validateCmd)
}

func validate(out io.Writer, args []string, opts validateOptions) error {
	if opts.cv == (opts.weights != "") {
		return fmt.Errorf("give either --weights (validate a fit) or --cv (cross-validate the measurement rows)")
	}
	role := opts.role
	switch role {
	case "all":
		role = ""
	case datasets.RoleTest, datasets.RoleMeasurement:
	default:
		return fmt.Errorf("--role %q: want test, measurement or all", opts.role)
	}
	if _, err := models.New(opts.model); err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if err := opts.fit.checkLinear(opts.model); err != nil {
		return err
	}
	if !opts.cv && opts.fit.setsFit() {
		// With --weights nothing is fitted: the flags would do nothing.
		return fmt.Errorf("--free, --balance, --robust, --min-norm, --no-integer, --no-grid-fill, --one-saturation, --no-ties, --own-ldg, --ldg-fallback and --fill-from set up the fits of --cv; --weights validates weights already fitted: drop them, or give them to the uniperf fit that writes the weights")
	}
	if opts.coverage && (opts.weights == "" || opts.model != "linear") {
		return fmt.Errorf("--coverage reports on the linear model's weights: give --weights, not --cv or another --model")
	}
	if opts.coverage && opts.json {
		return fmt.Errorf("--coverage prints a report; it does not go with --json")
	}
	if err := checkWarnShare(opts.warnShare); err != nil {
		return err
	}
	if opts.model == "linear" && opts.deviceFile != "" {
		return fmt.Errorf("--device-file is for models other than linear, which needs no device parameters")
	}
	lt, err := loadTables(args)
	if err != nil {
		return err
	}
	// In JSON, what the report would say beside the table goes into notes.
	text := out
	var notes bytes.Buffer
	if opts.json {
		text = &notes
	}
	var cases []report.Case
	var skipped []string
	title := ""
	switch {
	case opts.model != "linear":
		cases, skipped, title, err = validateModel(text, lt, role, opts)
		if err != nil {
			return err
		}
	case opts.cv:
		if opts.fit, err = opts.fit.withFillRows(lt); err != nil {
			return err
		}
		cases, skipped, err = cvCases(lt, opts.fit)
		if err != nil {
			return err
		}
		title = "leave-one-class-out cross-validation"
	default:
		if cases, err = validationCases(lt, opts, role); err != nil {
			return err
		}
		title = "validation with " + opts.weights
	}
	withSpread(cases, lt)
	if !opts.json {
		for _, s := range skipped {
			if opts.cv && opts.model == "linear" {
				fmt.Fprintf(out, "not cross-validated: %s\n", s)
			} else {
				fmt.Fprintf(out, "not predicted: %s\n", s)
			}
		}
	}
	if opts.json {
		err = writeJSON(out, validationJSON{Title: title, Cases: casesJSON(cases), NotPredicted: nonNil(skipped), Notes: nonNil(noteLines(notes.String()))})
	} else {
		err = printReport(out, cases)
	}
	if err != nil {
		return err
	}
	if opts.coverage {
		fmt.Fprintln(out)
		if err := validateCoverage(out, lt, opts.weights); err != nil {
			return err
		}
	}
	if opts.plot != "" {
		var svg bytes.Buffer
		if err := plots.Validation(&svg, cases, title); err != nil {
			return err
		}
		return writeOutput(nil, opts.plot, svg.Bytes())
	}
	return nil
}

// withSpread gives each case the median and maximum of its row's kept
// runs, found by the row's device and key.
func withSpread(cases []report.Case, lt *loadedTables) {
	type at struct {
		device string
		key    datasets.Key
	}
	spread := map[at]datasets.Spread{}
	for _, t := range lt.tables {
		for _, r := range t.Rows {
			spread[at{r.Device, r.Key()}] = datasets.SpreadOf(r.RawTimesS, int(r.RunsDiscarded))
		}
	}
	for i, c := range cases {
		if s, ok := spread[at{c.Device, datasets.MakeKey(c.Kernel, c.Consts, c.Params, c.LocalSize)}]; ok {
			cases[i].Median, cases[i].Max = s.Median, s.Max
		}
	}
}

// validationCases predicts the rows of role with the weights at
// opts.weights, pricing a property they have no weight for at zero unless
// opts.strict, and warns where a prediction does not rest on the fit.
func validationCases(lt *loadedTables, opts validateOptions, role string) ([]report.Case, error) {
	path := opts.weights
	w, err := loadWeights(path)
	if err != nil {
		return nil, err
	}
	if err := models.CheckWeights(w); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, name := range slices.Sorted(maps.Keys(lt.tables)) {
		if d := lt.tables[name].Meta.DeviceName; d != w.Device {
			return nil, fmt.Errorf("%s was measured on %q but %s holds weights for %q: validate a device with its own weights", name, d, path, w.Device)
		}
	}
	rows := models.Rows(lt.tables, role)
	if len(rows) == 0 {
		return nil, fmt.Errorf("the tables have no rows of role %q to validate", role)
	}
	w.ZeroMissing = !opts.strict
	cases, terms, err := linear.ValidateTerms(models.NewCounterWith(tableKernels, models.WeightsBanks(w)), w, rows)
	if err != nil {
		return nil, err
	}
	warnValidation(w, cases, terms, opts.warnShare)
	return cases, nil
}

// validateCoverage prints the coverage report of the weights at path,
// which must have been fitted on the loaded tables.
func validateCoverage(out io.Writer, lt *loadedTables, path string) error {
	w, err := loadWeights(path)
	if err != nil {
		return err
	}
	if err := sameInputs(w, lt); err != nil {
		return fmt.Errorf("--coverage: %s: %w", path, err)
	}
	integer := slices.ContainsFunc(w.Properties, models.IntegerOp)
	c, err := linear.Coverage(models.NewCounterWith(tableKernels, models.WeightsBanks(w)), w, lt.tables, linear.Options{NoInteger: !integer})
	if err != nil {
		return err
	}
	return c.WriteText(out)
}

// sameInputs checks that the loaded tables are the ones the weights were
// fitted on, by content.
func sameInputs(w *fit.Weights, lt *loadedTables) error {
	var want, got []string
	for _, in := range w.Inputs {
		want = append(want, in.SHA256)
	}
	for _, in := range lt.inputs {
		got = append(got, in.SHA256)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		var names []string
		for _, in := range w.Inputs {
			names = append(names, in.Name)
		}
		return fmt.Errorf("the weights were fitted on other tables (%s); give exactly those", strings.Join(names, ", "))
	}
	return nil
}

func cvCases(lt *loadedTables, opts fitOptions) ([]report.Case, []string, error) {
	counter, err := tableCounter(lt)
	if err != nil {
		return nil, nil, err
	}
	cases, skipped, err := linear.CrossValidate(counter, lt.tables, opts.linear())
	if err != nil {
		return nil, nil, err
	}
	if len(cases) == 0 {
		return nil, nil, fmt.Errorf("no kernel class could be cross-validated:\n  %s", strings.Join(skipped, "\n  "))
	}
	return cases, skipped, nil
}

func printReport(out io.Writer, cases []report.Case) error {
	r, err := report.NewReport(cases)
	if err != nil {
		return err
	}
	return r.WriteText(out)
}

// validateModel predicts rows of the tables with a model other than
// linear: the rows of role with the calibration at opts.weights, or, with
// --cv, every measurement row by the model calibrated without its class.
// It returns the cases and why other rows were not predicted, and prints
// where the tables and the device file disagree.
func validateModel(out io.Writer, lt *loadedTables, role string, opts validateOptions) (cases []report.Case, skipped []string, title string, err error) {
	var cal *models.CalibrationFile
	var m models.Model
	if !opts.cv {
		if cal, m, err = readCalibration(opts.weights, opts.model); err != nil {
			return nil, nil, "", err
		}
		for _, name := range slices.Sorted(maps.Keys(lt.tables)) {
			if d := lt.tables[name].Meta.DeviceName; d != cal.Device {
				return nil, nil, "", fmt.Errorf("%s was measured on %q but %s calibrates %q: validate a device with its own calibration", name, d, opts.weights, cal.Device)
			}
		}
	}
	devices, notes, err := deviceRows(lt, nil, true, opts.deviceFile)
	if err != nil {
		return nil, nil, "", err
	}
	for _, n := range notes {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	var outs []report.Case
	for _, d := range devices {
		if opts.cv {
			o, s := models.CrossValidate(d, opts.model, models.New)
			outs, skipped = append(outs, o...), append(skipped, s...)
			continue
		}
		for _, r := range d.Rows {
			if role != "" && r.Role != role {
				continue
			}
			o := models.ReportCase(r.Row)
			o.Device = d.Device
			if p, err := m.Predict(d.Env, models.CaseOf(r)); err != nil {
				o.Err = err.Error()
			} else {
				o.Predicted = p.Seconds
			}
			outs = append(outs, o)
		}
	}
	for _, o := range outs {
		if o.Err != "" {
			skipped = append(skipped, fmt.Sprintf("%s %s: %s", o.Kernel, o.Size, o.Err))
			continue
		}
		cases = append(cases, o)
	}
	if len(cases) == 0 {
		return nil, nil, "", fmt.Errorf("the %s model predicted none of the rows:\n  %s", opts.model, strings.Join(skipped, "\n  "))
	}
	title = fmt.Sprintf("%s model, validation with %s", opts.model, opts.weights)
	if opts.cv {
		title = opts.model + " model, leave-one-class-out cross-validation"
	}
	return cases, skipped, title, nil
}
