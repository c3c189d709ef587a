package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/cycles"
	"github.com/uniperf/uniperf/fit/models/hongkim"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/report"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// fitOptions are the flags of `uniperf fit`.
type fitOptions struct {
	out       string
	free      bool
	balance   bool
	robust    bool
	minNorm   bool
	noInteger bool
	noFill    bool
	// oneSaturation fits the grid fill with one saturation for every
	// property, the form before the latency-bound properties had theirs.
	oneSaturation bool
	// noTies keeps every weight apart, never offering the ties of filled
	// strided accesses to stride-1 ones.
	noTies bool
	// ownLdg gives the strided readonly loads weights of their own
	// instead of the plain loads' of their classes.
	ownLdg bool
	// ldgFallback keeps that tie only for the strided readonly loads
	// that no row counts.
	ldgFallback bool
	model       string
	deviceFile  string
	coverage    bool
	json        bool
	// fillFrom names the tables that the grid-fill classes may be read
	// from besides the fitted ones (--fill-from), and fillRows holds
	// their measurement rows once the tables are loaded (withFillRows).
	fillFrom []string
	fillRows []models.Row
	// hongkimTraffic is the hongkim model's traffic option
	// (hongkim.Model.Traffic); empty takes its default.
	hongkimTraffic string
}

var fitOpts fitOptions

var fitCmd = &cobra.Command{
	Use:   "fit TABLE.arrow... --out WEIGHTS.arrow [--model NAME]",
	Short: "Fit a model (by default one weight per property) to a device's measurement tables",
	Long: `fit counts the kernel of every measurement row (role "measurement") at the
row's parameters and finds the weights α (seconds per operation) that
minimise the squared relative error of seed 001 §4.3,

  Σ_rows (1 − Σ_i α_i p_i / T)²,

by a column-scaled singular value decomposition, with every weight held
non-negative (Lawson–Hanson): uniperf's default fit, chosen over the
paper's free fit by leave-one-class-out cross-validation (go doc ./fit
gives the evidence). --free is seed 001's free fit, whose negative
weights can make predictions negative. --balance weighs the rows so that
every kernel class counts the same; --robust minimises the absolute
relative errors instead of their squares. Test rows (role "test") are
left for uniperf validate. All tables must come from one device. A table
is a path or embedded:NAME for a table shipped in the binary.

The default fit also models how full the device is (the grid fill, go doc
./fit GridFill): every count but the launch terms is scaled by
U·max(⌈G/U⌉·wg, S)/(G·wg) for a launch of G groups of wg work-items on
the U compute units the table records, so that a grid too small to fill
the device costs the time of its busiest unit rather than time in
proportion to its counts. The saturation S is the work-items a unit
needs to run at full throughput; the latency-bound properties (local
accesses, divisions, powers, special functions), whose long latencies
need more resident work to hide, have a second one, and the coalesced
global accesses (stride 1 and filled strides) a third, for the bytes
in flight a unit needs. Each is read from the rows of the measurement
class that varies only the grid for it, fitting that class alone
(grid_fill_chain S, grid_fill_local the latency-bound one,
grid_fill_stream the global one); where the tables lack the class, or
its rows do not place the saturation (the output says why), S and the
latency-bound one are chosen among 0 to 1024 by the least
training error of the whole fit (by coordinate search: a shared S
first, then each in turn with the other held), and the global accesses
share S. The output says which came from where; the weight table
records U and the saturations, and predict and validate apply them.
--one-saturation gives every property one S, searched (the default
before the latency-bound one); --no-grid-fill fits the counts as they
are; --free (the paper's model) implies it.

--fill-from TABLE... reads a grid-fill class from other tables of the
same device instead, where their rows of the class reach wider
work-groups than the fitted tables' (--fill-from auto: the shipped tables
of the device). Through OpenCL the H100 and H200 ran the grid-fill
kernels in groups of at most 256 work-items, through CUDA up to 1024;
on the groups both have, the backends read the same saturations within
a step or two, and the wider groups raise the latency-bound one from
448 to 640. Read so, the OpenCL tables' test kernels come out at 0.082
and 0.057 across kernels instead of 0.188 and 0.196, but
leave-one-class-out cross-validation on their measurement rows gets
worse (0.148 and 0.127 instead of 0.141 and 0.115: the arith class's
special functions, run alone, hide their latency with fewer
work-items), which is why it is not the default (go doc ./fit). The
other tables' rows set saturations only; they enter no fit, and a class
the fitted tables lack is not read from them.

The default fit also offers to tie the weights of filled strided global
accesses (stride=k/k: a group's accesses of stride k that together use
every element) to those of stride-1 accesses of the same type and
direction: they move the same cache lines, and a GPU coalesces them
into lines alike, but the few measurement kernels that have them often
cannot set their weights apart from the rest of those kernels' time
(a weight held at zero, or two classes that disagree). It fits the rows
both ways and keeps the ties where leave-one-class-out cross-validation
on the measurement rows prefers them (the report prints both errors);
on a device whose shipped device file says it is a CPU, whose vector
lanes gather strided accesses rather than coalesce them, it does not
offer them. --no-ties keeps every weight apart; --free implies it.
Each strided readonly load (global.ldg.T.stride=k/s) is priced by the
weight of the plain load of its class, global.load.T.stride=k/s (or what
that is tied to), so that a table without strided readonly rows (the GPU
tables) still prices them; chosen on PoCL's rows, where the two were
within 0.02 on cross-validation and the development kernels of
examples/ preferred the tie (docs/model.md). --own-ldg gives them
weights of their own; --no-ties and --free drop the tie too.
--ldg-fallback keeps the tie only for the strided readonly loads that
no measurement row counts, and fits the others by their own rows: on a
table with such rows it is --own-ldg for the classes they hold, on one
without (the GPU tables) the default.

Properties that are zero in every row are dropped and listed. Properties
that the measurement set cannot tell apart (collinear columns) make the fit
fail with their names and the condition number, because any split of the
time between them would be arbitrary; --min-norm accepts the minimum-norm
solution instead. Integer operations (int.*, which the arith_int class
prices) are fitted like the other properties; --no-integer leaves them
out, as seed 001 does.

Local accesses with bank conflicts (local.<t>.conflict=D) are counted
with the bank layout of the tables' device, from the local_banks of its
shipped device file (16 banks of 4 bytes on compute capability 1.x, 32
of 4 on later NVIDIA GPUs), and with 32 banks of 4 bytes where the device
has no file or no layout (a CPU); the weights record the layout, and
predict and validate count with it.

--coverage reports, for every property that the tables' test kernels
use, which measurement classes exercise it (rows, distinct counts), its
weight's standard error from the relative-error regression (residual
variance σ̂² times (AᵀA)⁻¹), the weight refitted without each of those
classes in turn and the largest relative change among them (spread), and
for every test row the leverage of its prediction against the
measurement rows' and its relative standard error σ̂·√leverage. It warns
where a prediction extrapolates (leverage above every measurement row's)
or relies (5% of the time or more) on a weight that one class alone
exercises, that is uncertain by more than 25%, or that moves by more
than 25% without one of its classes.

The weight table (Arrow IPC) records the device, the weights, the fit
diagnostics (rows, rank, residual, condition number, per-class training
error), the uniperf version and the SHA-256 of every input table.

--model NAME calibrates another model (see uniperf compare) on the
measurement rows instead, with the device parameters of the shipped device
file for the tables' device or of --device-file:

  hongkim  fits Hong and Kim's Mem_LD, Departure_del_coal and
           Departure_del_uncoal (cycles) by relative-error least squares;
           on a GPU only the share of the global bytes that the
           hierarchy counts place in DRAM is DRAM traffic (uniperf's
           extension), on a CPU every access is, as in seed 002;
           --hongkim-traffic hierarchy or paper chooses
  cycles   sets one adjusting weight per kernel (kernel and consts) from
           its smallest measured size

and writes a calibration file (JSON, schema uniperf-calibration/1: the
model, the tables' device name, the device file, the uniperf version, the
SHA-256 of every input table, and under "calibration" the model's
calibrated state: Hong–Kim's three parameters and fit report, or the
cycle weights and every kernel's adjusting weight with the size it was
calibrated on). uniperf predict and validate read it with the same
--model.

--json prints, instead of the report, what the file written holds: for
the linear model the object of uniperf export --json for the one device
({"devices": [{"label", "device", "model", "uniperf_version",
"property_set", "diagnostics"}], "properties": [{"property", "rate_unit",
"values": [{"weight_s", "rate", "note"}]}]}), for another model the
calibration file itself.`,
	Example: `  uniperf fit embedded:pocl-epyc-paper.arrow --out pocl.weights.arrow --coverage
  uniperf fit h100-cuda.arrow --free --out h100.paper.weights.arrow
  uniperf fit embedded:pocl-epyc-quick.arrow --model hongkim --out pocl.hongkim.json`,
	Args: cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return fitTables(cmd.OutOrStdout(), args, fitOpts)
	},
}

func init() {
	f := fitCmd.Flags()
	f.StringVar(&fitOpts.out, "out", "", "weight table to write (Arrow IPC file)")
	f.BoolVar(&fitOpts.free, "free", false, "seed 001's free fit, negative weights allowed, instead of the default fit")
	f.BoolVar(&fitOpts.balance, "balance", false, "weigh the rows so that every kernel class counts the same")
	f.BoolVar(&fitOpts.robust, "robust", false, "minimise absolute relative errors")
	f.BoolVar(&fitOpts.minNorm, "min-norm", false, "accept collinear properties with the minimum-norm solution")
	f.BoolVar(&fitOpts.noInteger, "no-integer", false, "leave integer operations out of the fit, as seed 001 does")
	f.BoolVar(&fitOpts.noFill, "no-grid-fill", false, "fit the counts as they are, without the grid-fill factor (the default fit before it)")
	f.BoolVar(&fitOpts.oneSaturation, "one-saturation", false, "one grid-fill saturation for every property, none apart for the latency-bound or the coalesced global ones")
	f.BoolVar(&fitOpts.noTies, "no-ties", false, "keep every weight apart: never tie filled strided accesses to stride-1 ones")
	f.BoolVar(&fitOpts.ownLdg, "own-ldg", false, "give strided readonly loads (global.ldg.T.stride=k/s) weights of their own instead of the plain loads' of their classes")
	f.BoolVar(&fitOpts.ldgFallback, "ldg-fallback", false, "price a strided readonly load by the plain load of its class only where no row counts it, by a weight of its own where one does")
	f.StringVar(&fitOpts.model, "model", "linear", "model to fit: "+strings.Join(models.Names(), ", "))
	f.StringVar(&fitOpts.hongkimTraffic, "hongkim-traffic", "", hongkimTrafficUsage)
	f.StringVar(&fitOpts.deviceFile, "device-file", "", "device parameter file (shipped name or JSON, see fit/gpus) for models other than linear")
	f.BoolVar(&fitOpts.coverage, "coverage", false, "report how well the measurement rows determine the test kernels' weights and predictions")
	f.BoolVar(&fitOpts.json, "json", false, "print the weights (or the calibration) as JSON instead of the report")
	f.StringSliceVar(&fitOpts.fillFrom, "fill-from", nil, fillFromUsage)
	rootCmd.AddCommand(fitCmd)
}

// linear returns the linear model's options: uniperf's default fit (non-negative,
// with the grid fill), or with --free seed 001's (neither), with the other
// flags applied.
func (o fitOptions) linear() linear.Options {
	lo := linear.DefaultOptions()
	if o.free {
		lo.Fit = fit.Options{}
	}
	lo.Fit.Balance = lo.Fit.Balance || o.balance
	lo.Fit.Robust = lo.Fit.Robust || o.robust
	lo.Fit.MinNorm = o.minNorm
	lo.NoInteger, lo.FillRows = o.noInteger, o.fillRows
	lo.ChooseTies = !o.free && !o.noTies
	lo.ReadOnlyTies = !o.ownLdg && !o.free && !o.noTies
	lo.ReadOnlyFallback = o.ldgFallback
	switch {
	case o.free || o.noFill:
		lo.Fill = nil
	case o.oneSaturation:
		lo.Fill.Latency = nil
	}
	return lo
}

// withFillRows returns o with the rows of the tables that the grid-fill
// classes of lt's fit may be read from (see fillRows).
func (o fitOptions) withFillRows(lt *loadedTables) (fitOptions, error) {
	var err error
	o.fillRows, err = fillRows(lt, o.fillFrom)
	return o, err
}

// setsFit reports whether o holds a flag that sets up how the linear
// model is fitted (--coverage, which reports on a fit, is not one).
func (o fitOptions) setsFit() bool {
	return o.free || o.balance || o.robust || o.minNorm || o.noInteger || o.noFill || o.oneSaturation || o.noTies || o.ownLdg || o.ldgFallback || len(o.fillFrom) > 0
}

// checkLinear refuses the linear model's fit options with another
// model, and --ldg-fallback with the flags that drop the tie it keeps.
func (o fitOptions) checkLinear(model string) error {
	if model != "linear" && (o.coverage || o.setsFit()) {
		return fmt.Errorf("--free, --balance, --robust, --min-norm, --no-integer, --coverage, --no-grid-fill, --one-saturation, --no-ties, --own-ldg, --ldg-fallback and --fill-from concern the linear model's fit, not the %s model's", model)
	}
	if o.ldgFallback && (o.ownLdg || o.noTies || o.free) {
		return fmt.Errorf("--ldg-fallback keeps the strided readonly loads' tie where no row counts them, and --own-ldg, --no-ties and --free drop that tie: give one or the other")
	}
	return nil
}

// hongkimTrafficUsage describes --hongkim-traffic.
const hongkimTrafficUsage = "what a global access costs the hongkim model: " + hongkim.TrafficHierarchy +
	" (the share of its bytes the hierarchy counts place in DRAM is DRAM traffic, the rest issues as instructions; the default on GPUs) or " +
	hongkim.TrafficPaper + " (seed 002: every access is DRAM traffic; the default on CPUs)"

// checkHongkimTraffic refuses a --hongkim-traffic that names no option, or
// that is given without the hongkim model among models.
func (o fitOptions) checkHongkimTraffic(models ...string) error {
	switch {
	case o.hongkimTraffic == "":
		return nil
	case o.hongkimTraffic != hongkim.TrafficHierarchy && o.hongkimTraffic != hongkim.TrafficPaper:
		return fmt.Errorf("--hongkim-traffic %q: give %s or %s", o.hongkimTraffic, hongkim.TrafficHierarchy, hongkim.TrafficPaper)
	case !slices.Contains(models, "hongkim"):
		return fmt.Errorf("--hongkim-traffic concerns the hongkim model, which is not among the models (%s): add it or leave the flag out", strings.Join(models, ", "))
	}
	return nil
}

// modelMaker makes models by name, the linear one with the fit options
// and the hongkim one with its traffic option.
func modelMaker(opts fitOptions) func(string) (models.Model, error) {
	return func(name string) (models.Model, error) {
		m, err := models.New(name)
		switch m := m.(type) {
		case *linear.Model:
			m.Options = opts.linear()
		case *hongkim.Model:
			m.Traffic = opts.hongkimTraffic
		}
		return m, err
	}
}

func fitTables(stdout io.Writer, args []string, opts fitOptions) error {
	if opts.out == "" {
		return fmt.Errorf("--out is required: the weight table (or calibration file) to write")
	}
	if _, err := models.New(opts.model); err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if err := opts.checkLinear(opts.model); err != nil {
		return err
	}
	if err := opts.checkHongkimTraffic(opts.model); err != nil {
		return err
	}
	if opts.coverage && opts.json {
		return fmt.Errorf("--coverage prints a report; it does not go with --json")
	}
	lt, err := loadTables(args)
	if err != nil {
		return err
	}
	if opts.model != "linear" {
		return calibrate(stdout, lt, opts)
	}
	if opts, err = opts.withFillRows(lt); err != nil {
		return err
	}
	if opts.deviceFile != "" {
		return fmt.Errorf("--device-file is for models other than linear, which needs no device parameters")
	}
	w, err := train(lt, opts)
	if err != nil {
		return err
	}
	for i, v := range w.Values {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("fitting %s: the weight of %s is %g: the tables' times or counts overflow 64-bit floats (check their time_s)", strings.Join(args, ", "), w.Properties[i], v)
		}
	}
	if err := weightsio.WriteWeights(opts.out, w); err != nil {
		return outputError(err)
	}
	if opts.json {
		c, err := report.CompareWeights([]*fit.Weights{w}, nil)
		if err != nil {
			return err
		}
		return c.WriteJSON(stdout)
	}
	if err := printFit(stdout, w); err != nil {
		return err
	}
	if opts.coverage {
		fmt.Fprintln(stdout)
		if err := printCoverage(stdout, w, lt, opts); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", opts.out)
	return nil
}

// printCoverage prints which measurement classes determine the weights of
// the test kernels' properties, how well, and where the test predictions
// extrapolate or lean on weakly determined weights.
func printCoverage(out io.Writer, w *fit.Weights, lt *loadedTables, opts fitOptions) error {
	c, err := linear.Coverage(models.NewCounterWith(tableKernels, models.WeightsBanks(w)), w, lt.tables, opts.linear())
	if err != nil {
		return err
	}
	return c.WriteText(out)
}

// tableCounter returns a Counter of the tables' kernels that counts bank
// conflicts with the layout of the device the tables were measured on
// (models.DeviceBanks): the layout a fit on them records.
func tableCounter(lt *loadedTables) (*models.Counter, error) {
	banks, err := models.TablesBanks(lt.tables)
	if err != nil {
		return nil, err
	}
	return models.NewCounterWith(tableKernels, banks), nil
}

// train fits the weights of the loaded tables and records their inputs.
func train(lt *loadedTables, opts fitOptions) (*fit.Weights, error) {
	counter, err := tableCounter(lt)
	if err != nil {
		return nil, err
	}
	w, err := linear.CalibrateTables(counter, lt.tables, opts.linear())
	var re *fit.RankError
	if errors.As(err, &re) {
		return nil, fmt.Errorf("%w\n(give --min-norm to accept a minimum-norm solution, or measure kernels that separate these properties)", err)
	}
	if err != nil {
		return nil, err
	}
	w.Inputs = lt.inputs
	return w, nil
}

// printFit prints a fit's diagnostics and its weights with derived rates.
func printFit(out io.Writer, w *fit.Weights) error {
	printDiagnostics(out, w)
	fmt.Fprintln(out)
	c, err := report.CompareWeights([]*fit.Weights{w}, nil)
	if err != nil {
		return err
	}
	return c.WriteMarkdown(out)
}

// printDiagnostics prints what a fit says about itself: its size and
// conditioning, the properties it dropped or could not separate, and the
// training error per kernel class.
func printDiagnostics(out io.Writer, w *fit.Weights) {
	d := w.Diagnostics
	fmt.Fprintf(out, "device %s: %d rows, %d properties, rank %d, condition number %.3g, residual %.4g\n",
		w.Device, d.Rows, d.Properties, d.Rank, d.Condition, d.Residual)
	if len(d.Dropped) > 0 {
		fmt.Fprintf(out, "dropped (zero in every row): %s\n", strings.Join(d.Dropped, ", "))
	}
	for _, c := range d.Collinear {
		fmt.Fprintf(out, "nearly collinear: %s\n", c)
	}
	if len(d.AtZero) > 0 {
		fmt.Fprintf(out, "held at zero by the non-negative fit: %s\n", strings.Join(d.AtZero, ", "))
	}
	if w.Banks != nil && *w.Banks != models.DefaultBanks {
		fmt.Fprintf(out, "local memory counted in %s, the device's layout\n", w.Banks)
	}
	if f := w.Fill; f != nil {
		fmt.Fprintf(out, "grid fill: %s (%s)\n", f, fillSource(f, d.FillRead))
	}
	printTies(out, w)
	fmt.Fprintf(out, "training error (geometric mean of |pred - meas| / meas) per kernel class:\n")
	for _, class := range slices.Sorted(maps.Keys(d.ClassError)) {
		fmt.Fprintf(out, "  %-28s %.3f\n", class, d.ClassError[class])
	}
	if !math.IsNaN(d.TrainingError) {
		fmt.Fprintf(out, "  %-28s %.3f\n", "all classes", d.TrainingError)
	}
}

// printTies says which properties the weights tie and why.
func printTies(out io.Writer, w *fit.Weights) {
	for _, p := range slices.Sorted(maps.Keys(w.Ties)) {
		fmt.Fprintf(out, "tied: %s priced by the weight of %s\n", p, w.Ties[p])
	}
	if c := w.Diagnostics.TieCheck; c != nil {
		verdict := "kept apart"
		if len(w.Ties) > 0 {
			verdict = "tied"
		}
		fmt.Fprintf(out, "filled strided accesses %s: leave-one-class-out error %.3f tied, %.3f apart (over the %d rows both predict)\n",
			verdict, c.Tied, c.Apart, c.Rows)
	}
}

// calibrate calibrates a model other than linear on the measurement rows
// of one device's tables and writes its calibration file.
func calibrate(stdout io.Writer, lt *loadedTables, opts fitOptions) error {
	groups, err := byDevice(lt)
	if err != nil {
		return err
	}
	if len(groups) != 1 {
		return fmt.Errorf("the tables come from %d devices (%s): calibrate one device at a time",
			len(groups), strings.Join(slices.Sorted(maps.Keys(groups)), ", "))
	}
	devices, notes, err := deviceRows(lt, nil, true, opts.deviceFile)
	if err != nil {
		return err
	}
	d := devices[0]
	var rows []models.Row
	for _, r := range d.Rows {
		if r.Role == datasets.RoleMeasurement {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return fmt.Errorf("the tables have no measurement rows to calibrate on")
	}
	m, _ := modelMaker(opts)(opts.model)
	if err := m.Calibrate(d.Env, rows); err != nil {
		return fmt.Errorf("%s model on %s: %w", opts.model, d.Device, err)
	}
	data, err := writeCalibration(opts.out, m, d.Device, d.Env.Device, lt.inputs)
	if err != nil {
		return err
	}
	if opts.json {
		// The notes are not part of the calibration: they go beside it.
		for _, n := range notes {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		_, err := stdout.Write(data)
		return err
	}
	for _, n := range notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	fmt.Fprintf(stdout, "device %s (parameters %s), %s model on %d measurement rows:\n%s\n", d.Device, d.Env.Device.File, m.Name(), len(rows), m.Summary())
	if c, ok := m.(*cycles.Model); ok {
		printAdjusting(stdout, c)
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", opts.out)
	return nil
}

// printAdjusting lists the cycle-weighted model's adjusting weights.
func printAdjusting(out io.Writer, c *cycles.Model) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\nkernel\tcalibrated at\tmeasured\testimated\tadjusting weight\n")
	for _, k := range c.Kernels {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.4g\n", k.Key, models.ParamString(k.Params), seconds(k.MeasuredS), seconds(k.EstimatedS), k.AdjustingWeight)
	}
	tw.Flush()
	for _, s := range c.Skipped {
		fmt.Fprintf(out, "not calibrated: %s\n", s)
	}
}

// fillSource says where a grid fill's saturations come from: read from
// the rows of a fill class (with the class's own fit's error), or, where
// no class placed them, chosen among the candidates by training error.
func fillSource(f *fit.GridFill, read []fit.SaturationReading) string {
	var parts []string
	placed := 0
	for _, r := range read {
		if r.Error != "" {
			parts = append(parts, fmt.Sprintf("%s not read from the %d rows of %s: %s", r.Of, r.Rows, r.Class, r.Error))
			if r.Of == fit.GlobalSaturation {
				parts = append(parts, "the coalesced global accesses share the shared saturation")
			}
			continue
		}
		placed++
		of := r.Class
		if r.Table != "" {
			of += " in " + r.Table + ", whose work-groups reach wider than these tables'"
		}
		parts = append(parts, fmt.Sprintf("%s %d read from the %d rows of %s, rms error %.3f", r.Of, r.Value, r.Rows, of, r.RMS))
	}
	set := 1
	if f.Latency != nil {
		set++
	}
	if f.Global != nil {
		set++
	}
	if placed < set {
		which := "the others"
		switch placed {
		case 0:
			which = "each"
		case set - 1:
			which = "the other"
		}
		parts = append(parts, fmt.Sprintf("%s of %s, the least training error", which, strings.Trim(fmt.Sprint(linear.SaturationCandidates), "[]")))
	}
	return strings.Join(parts, "; ")
}
