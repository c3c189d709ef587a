package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
)

// predictOptions are the flags of `uniperf predict`.
type predictOptions struct {
	weights     string
	params      []string
	consts      []string
	configs     string
	stdin       io.Reader
	sweeps      []string
	json        bool
	model       string
	deviceFiles []string
	strict      bool
	unpriced    bool
	plot        string
	measured    []string
	warnShare   float64
	banks       int
	bankBytes   int
	oneRun      string
	program     programFlags
}

// programFlags are the flags of predict that only --program takes.
type programFlags struct {
	file               string
	tables             []string
	batch              int64
	exchange           string
	bandwidth, latency float64
	measure            string
	runs, discard      int
}

var predictOpts predictOptions

var predictCmd = &cobra.Command{
	Use:   "predict (--weights WEIGHTS.arrow KERNEL --param NAME=VALUE... | --program FILE --device-file D)",
	Short: "Predict a kernel's run time from its counts and a device's weights",
	Long: `predict counts KERNEL (a .knl file, or the name of a library kernel; see
uniperf kernels list) symbolically, evaluates its property counts at the
given parameters, and prints the predicted run time on the device the
weights were fitted for: the dot product Σ weight × count of seed 001.

For one parameter set it prints the breakdown: each property's count,
weight (s/op), seconds and share of the total, largest first, so the
operations that dominate are at the top. A property the kernel has but the
weights do not price (no measurement kernel exercised it) is priced at
zero with a warning that names it and its share of the kernel's counts;
--strict makes it an error. Where more than half of the kernel's counts
have no weight, the prediction would be mostly launch overhead, and
predict refuses it (exit 2) unless --allow-unpriced is given. A warning
also says where more than
--warn-share (default 0.25) of a prediction rests on weights that the
non-negative fit held at zero (measured as their share of the counts,
since they add no time) or that the measurement rows determine weakly
(a relative standard error above 25%, or none; measured as their share
of the predicted time); uniperf fit --coverage says why they are.

Local accesses are classed by bank conflicts (local.<t>.conflict=D) with
the bank layout the weights were fitted with, which uniperf fit takes from
the device file of the tables' device (16 banks of 4 bytes on compute
capability 1.x, 32 of 4 on later NVIDIA GPUs) and records in the weights;
weights that record none, and devices without a layout, use 32 banks of 4
bytes. --banks and --bank-bytes state the layout you expect: one that
differs from the weights' is an error, since the weights price the counts
of their own layout.

Several parameter sets give a table, one row per set: --param NAME=V1,V2,...
lists values, and --sweep NAME=2^10..2^14 (powers of two), NAME=A..B or
NAME=A..B:STEP ranges; the sets are every combination. Names tied in one
flag vary together: --param nx=ny=1024,2048 gives the square sizes only,
and --sweep nx=ny=2^10..2^12 likewise. --const NAME=VALUE binds a kernel
const such as a work-group size (LX, LY); --const NAME=V1,V2 and tied
names (--const LX=LY=8,16) give several bindings, each predicted with
every parameter set. A name the kernel does not declare, as a parameter
for --param and --sweep or as a const for --const, is an error that
lists the names it does declare.

--configs FILE (or - for stdin) lists configurations to predict, each
with every --const and --param set: a JSON array of objects
[{"LX": 16, "n": 1024}, ...], one such object a line, or CSV whose
header names the columns (LX,n then 16,1024). A name the kernel
declares as a const binds the const; any other is a size parameter. A
name that a configuration and --const or --param both bind is an
error. uniperf tune ranks a whole Kernel Tuner space instead.

--json prints one object per parameter set (a list for several):
{"kernel", "device", "params", "predicted_s", "terms": [{"property",
"count", "weight_s", "seconds", "share", "unweighted"}]}; with --model,
"model" and "explain": [{"name", "value", "unit", "note"}] instead of
terms.

--plot FILE.svg draws the predicted time across the parameter sets: along
the parameter with the most values (with the names tied to it), a line per
combination of the other parameters that vary. --measured TABLE.arrow
(repeatable) adds, as open markers, the times of the table's rows that
time the same kernel (a .knl file by the path uniperf measure recorded)
at those parameters with the consts predicted with; a table with no such
row is refused.

--model NAME predicts with another model (hongkim, cycles; see uniperf
compare): --weights is then the calibration file that uniperf fit --model
NAME wrote, and the device parameters come from the shipped device file of
the calibration's device or from --device-file. A single parameter set
prints the model's intermediate quantities (Hong–Kim's per-thread inputs,
MWP, CWP, cycles; the cycle model's cycles per thread, occupancy and
adjusting weight) instead of terms. With --model cycles, --one-run
PARAMS:SECONDS takes the adjusting factor as seed 004 does, from one
measured run of the kernel itself (n=1048576:3.1e-4), instead of from the
calibration; the output says so. uniperf compare never does this.

--program FILE predicts a program: a list of kernel launches grouped into
layers (the format is documented in package fit/program; embedded:cnn is
a small CNN forward pass). It prints each launch's predicted
time under every --model given (comma-separated), and the per-layer and
whole-program sums of Xu's layer-sum model (seed 003 equations 6-4 to
6-8). The models are calibrated on --tables (default: the measurement
table shipped for the device, its paper-suite table where there are
several). --device-file names the device file
(shipped name or .json); several device files split the batch data-
parallel, and the exchange of parameters between them is priced from
--bandwidth (bytes/s), --latency (s per message) and --exchange (ring or
ps). --measure SELECTOR also times every launch on a real device (after
checking each against the reference interpreter), so that the sum of the
predictions can be compared with the measured program. With --json it
prints {"program", "file", "batch", "device", "models", "launches":
[{"line", "layer", "phase", "kernel", "params", "consts", "predicted_s"
(by model), "measured_s"}], "totals" (by model: {"total_s", "loading_s",
"forward_s", "backward_s", "update_s", "layers_s"}), "measured": {"device",
"total_s", "layers_s"}, "splits"}.`,
	Example: `  uniperf predict --weights pocl.weights.arrow matmul_tiled --param n=1024 --param m=1024 --param ell=1024
  uniperf predict --weights pocl.weights.arrow global_copy --sweep n=2^16..2^24
  uniperf predict --weights w.arrow ./mykernel.knl --param n=4096 --const LX=256 --json
  uniperf predict --model hongkim --weights pocl.hongkim.json matmul_tiled --param n=512 --param m=512 --param ell=512
  uniperf predict --program embedded:cnn --device-file pocl-cpu --model linear,xu,resios --measure pocl`,
	Args: cobra.RangeArgs(0, 1),
	RunE: func(cmd *cobra.Command, args []string) error {
		if predictOpts.program.file != "" {
			if len(args) > 0 {
				return fmt.Errorf("--program takes no KERNEL")
			}
			if f := changedFlag(cmd, []string{"plot", "measured"}); f != "" {
				return fmt.Errorf("--%s draws one KERNEL across sizes, not a --program", f)
			}
			if cmd.Flags().Changed("one-run") {
				return fmt.Errorf("--one-run is one measured run of one KERNEL, not of a --program")
			}
			return predictProgram(cmd.OutOrStdout(), predictOpts.program.file, predictOpts.programOptions())
		}
		if len(args) != 1 {
			return fmt.Errorf("give a KERNEL (a .knl file or a library kernel), or --program FILE")
		}
		predictOpts.stdin = cmd.InOrStdin()
		return predict(cmd.OutOrStdout(), args[0], predictOpts)
	},
}

func init() {
	f := predictCmd.Flags()
	f.StringVar(&predictOpts.weights, "weights", "", "weight table written by uniperf fit, or weights in the CSV of uniperf export (FILE.csv, or FILE.csv#DEVICE for one of several devices)")
	f.StringArrayVar(&predictOpts.params, "param", nil, "parameter values NAME=V or NAME=V1,V2,...; NAME1=NAME2=V1,... ties names (repeatable)")
	f.StringArrayVar(&predictOpts.consts, "const", nil, "kernel const values NAME=V or NAME=V1,V2,...; NAME1=NAME2=V1,... ties names (repeatable)")
	f.StringVar(&predictOpts.configs, "configs", "", "configurations to predict, from a file or - for stdin: a JSON array of {\"NAME\": integer} objects, one object a line, or CSV with a header; a kernel const's name binds the const, any other a parameter")
	f.StringArrayVar(&predictOpts.sweeps, "sweep", nil, "parameter range NAME=2^A..2^B, NAME=A..B or NAME=A..B:STEP; NAME1=NAME2=... ties names (repeatable)")
	f.BoolVar(&predictOpts.json, "json", false, "print JSON")
	f.StringVar(&predictOpts.plot, "plot", "", "draw the predicted time across the parameter sets to this SVG file")
	f.StringArrayVar(&predictOpts.measured, "measured", nil, "with --plot: measurement tables whose rows of the kernel are drawn beside the predictions (repeatable)")
	f.BoolVar(&predictOpts.strict, "strict", false, "fail on a property the weights have no weight for, rather than price it at zero with a warning")
	f.BoolVar(&predictOpts.unpriced, "allow-unpriced", false, "predict even where more than half of the kernel's counts have no weight (priced at zero), rather than refuse")
	f.Float64Var(&predictOpts.warnShare, "warn-share", defaultWarnShare, warnShareUsage)
	f.IntVar(&predictOpts.banks, "banks", 0, "local-memory banks you expect the weights to count with (an error where they differ; default: the weights' layout)")
	f.IntVar(&predictOpts.bankBytes, "bank-bytes", 0, "bytes per local-memory bank you expect the weights to count with (an error where they differ; default: the weights' layout)")
	f.StringVar(&predictOpts.model, "model", "linear", "model to predict with: "+strings.Join(models.Names(), ", "))
	f.StringVar(&predictOpts.oneRun, "one-run", "", oneRunUsage)
	f.StringArrayVar(&predictOpts.deviceFiles, "device-file", nil, "device parameter file (shipped name or JSON, see fit/gpus) for models other than linear; with --program, repeatable to split the batch")
	pf := &predictOpts.program
	f.StringVar(&pf.file, "program", "", "predict a program file (see package fit/program), or embedded:cnn")
	f.StringArrayVar(&pf.tables, "tables", nil, "with --program: measurement tables to calibrate on (default: the device's shipped paper-suite table)")
	f.Int64Var(&pf.batch, "batch", 0, "with --program: override the program's batch")
	f.StringVar(&pf.exchange, "exchange", "ring", "with --program and several devices: ring or ps (parameter server)")
	f.Float64Var(&pf.bandwidth, "bandwidth", 0, "with --program and several devices: exchange bandwidth, bytes/s")
	f.Float64Var(&pf.latency, "latency", 0, "with --program and several devices: seconds per exchanged message")
	f.StringVar(&pf.measure, "measure", "", "with --program: also time every launch on this OpenCL or CUDA device")
	f.IntVar(&pf.runs, "runs", 10, "with --measure: timed runs per launch")
	f.IntVar(&pf.discard, "discard", 2, "with --measure: leading runs left out of the minimum")
	rootCmd.AddCommand(predictCmd)
}

// predictBanks returns the bank layout the weights were fitted with,
// which predict counts with, and refuses --banks or --bank-bytes where
// they ask for another.
func predictBanks(w *fit.Weights, opts predictOptions) (fit.BankLayout, error) {
	banks := models.WeightsBanks(w)
	if opts.banks < 0 || opts.bankBytes < 0 {
		return banks, fmt.Errorf("--banks %d, --bank-bytes %d: give positive numbers (or leave them out for the weights' layout)", opts.banks, opts.bankBytes)
	}
	if opts.banks > 0 && opts.banks != banks.Banks || opts.bankBytes > 0 && opts.bankBytes != banks.BankBytes {
		asked := banks
		if opts.banks > 0 {
			asked.Banks = opts.banks
		}
		if opts.bankBytes > 0 {
			asked.BankBytes = opts.bankBytes
		}
		return banks, fmt.Errorf("--banks/--bank-bytes ask for %s, but the weights for %s were fitted on counts of %s: predict counts with the weights' layout (refit on tables of a device with %s, or leave the flags out)",
			asked, w.Device, banks, asked)
	}
	return banks, nil
}

// programOptions turns predict's flags into the options of predictProgram.
func (o predictOptions) programOptions() programOptions {
	return programOptions{
		models: strings.Split(o.model, ","), devices: o.deviceFiles, tables: o.program.tables,
		weights: o.weights, batch: o.program.batch, exchange: o.program.exchange,
		bandwidth: o.program.bandwidth, latency: o.program.latency, measure: o.program.measure,
		runs: o.program.runs, discard: o.program.discard, json: o.json,
	}
}

// prediction is one predicted parameter set, as printed with --json.
type prediction struct {
	Kernel    string           `json:"kernel"`
	Device    string           `json:"device"`
	Consts    map[string]int64 `json:"consts,omitempty"`
	Params    map[string]int64 `json:"params"`
	Predicted float64          `json:"predicted_s"`
	Terms     []fit.Term       `json:"terms"`
	// Fill is the launch and the grid-fill factors of the weights, where
	// they have a grid fill: every count but launch.* is scaled by one,
	// the latency-bound counts by latency_factor and the coalesced global
	// accesses by global_factor where these are set.
	Fill *linear.Launch `json:"grid_fill,omitempty"`
	fill *fit.GridFill
}

func predict(out io.Writer, kernel string, opts predictOptions) error {
	if opts.weights == "" {
		return fmt.Errorf("--weights is required: a weight table written by uniperf fit")
	}
	if len(opts.params) == 0 && len(opts.sweeps) == 0 && opts.configs == "" && hasParams(kernel, opts.consts) {
		return fmt.Errorf("give the kernel's parameters with --param NAME=VALUE (or --sweep, or --configs)")
	}
	if _, err := models.New(opts.model); err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if len(opts.measured) > 0 && opts.plot == "" {
		return fmt.Errorf("--measured draws measurements beside predictions: give --plot FILE.svg")
	}
	if opts.model != "linear" {
		return predictModel(out, kernel, opts)
	}
	if _, err := parseOneRun(opts.oneRun, opts.model); err != nil {
		return err
	}
	if len(opts.deviceFiles) > 0 {
		return fmt.Errorf("--device-file is for models other than linear, which needs no device parameters")
	}
	if err := checkWarnShare(opts.warnShare); err != nil {
		return err
	}
	w, err := loadWeights(opts.weights)
	if err != nil {
		return err
	}
	if err := models.CheckWeights(w); err != nil {
		return fmt.Errorf("%s: %w", opts.weights, err)
	}
	w.ZeroMissing = !opts.strict
	banks, err := predictBanks(w, opts)
	if err != nil {
		return err
	}
	counter := models.NewCounterWith(kernelSource(kernel), banks)
	preds, err := predictSets(opts, kernel, func(consts, p map[string]int64) (prediction, error) {
		// An empty launch grid is the parameters' fault, said as tune
		// says it; the grid fill would divide by its zero work-group.
		kl, err := bindable(counter, kernel, consts, p)
		if err != nil {
			return prediction{}, err
		}
		t, terms, l, err := linear.PredictAt(counter, w, kernel, consts, p, kl.global, kl.local)
		warnUnweighted(kernel, p, terms)
		if err == nil && !opts.unpriced {
			err = mostlyUnpriced(kernel, p, terms)
		}
		warnDoubt(kernel, p, w, terms, opts.warnShare)
		if err == nil {
			err = cmp.Or(finite(kernel, p, t, terms...), priced(kernel, p, t, terms))
		}
		pr := prediction{Kernel: kernel, Device: w.Device, Consts: consts, Params: p, Predicted: t, Terms: terms, fill: w.Fill}
		if w.Fill != nil {
			pr.Fill = &l
		}
		return pr, err
	})
	if err != nil {
		return err
	}
	if opts.plot != "" {
		points := make([]sweepPoint, len(preds))
		for i, p := range preds {
			points[i] = sweepPoint{p.Params, p.Predicted}
		}
		if err := predictPlot(opts, kernel, fmt.Sprintf("%s on %s", kernel, w.Device), points); err != nil {
			return err
		}
	}
	return writePredictions(out, opts.json, preds, printBreakdown, printPredictions)
}

// predictPlot draws predict --plot with the consts of --const.
func predictPlot(opts predictOptions, kernel, title string, points []sweepPoint) error {
	consts, err := parseConsts(opts.consts)
	if err != nil {
		return err
	}
	return plotSweep(opts.plot, kernel, title, consts, points, opts.measured)
}

// predictSets predicts every case that --configs, --const, --param and
// --sweep give (see predictCases).
func predictSets[P any](opts predictOptions, kernel string, predict func(consts, params map[string]int64) (P, error)) ([]P, error) {
	cases, err := predictCases(caseFlags{opts.consts, opts.params, opts.sweeps, opts.configs, opts.stdin}, kernel)
	if err != nil {
		return nil, err
	}
	if opts.plot != "" && (opts.configs != "" || len(cases) > 0 && !constsFixed(cases)) {
		return nil, fmt.Errorf("--plot draws one binding of the consts across parameter sets: give one value per --const and no --configs")
	}
	preds := make([]P, len(cases))
	for i, c := range cases {
		if preds[i], err = predict(c.consts, c.params); err != nil {
			return nil, err
		}
	}
	return preds, nil
}

// constsFixed reports whether every case binds the same consts.
func constsFixed(cases []predictCase) bool {
	for _, c := range cases[1:] {
		if !maps.Equal(c.consts, cases[0].consts) {
			return false
		}
	}
	return true
}

// writePredictions prints predictions as JSON (an object for one, a list
// for several), with one's breakdown, or as a table of several.
func writePredictions[P any](out io.Writer, asJSON bool, preds []P, one func(io.Writer, P) error, many func(io.Writer, []P) error) error {
	switch {
	case asJSON && len(preds) == 1:
		return writeJSON(out, preds[0])
	case asJSON:
		return writeJSON(out, preds)
	case len(preds) == 1:
		return one(out, preds[0])
	}
	return many(out, preds)
}

func printBreakdown(out io.Writer, p prediction) error {
	fmt.Fprintf(out, "%s%s on %s: predicted %s\n", p.Kernel, atParams(p.Params), p.Device, seconds(p.Predicted))
	if p.Predicted <= 0 {
		fmt.Fprintf(out, "the prediction is not positive: negative weights dominate it (refit without --free)\n")
	}
	if p.Fill != nil {
		fmt.Fprintf(out, "grid fill: %d groups of %d work-items on %s: every count but launch.* × %.4g",
			p.Fill.Groups, p.Fill.GroupSize, p.fill, p.Fill.Factor)
		if p.fill.Latency != nil {
			fmt.Fprintf(out, ", the latency-bound ones × %.4g", p.Fill.LatencyFactor)
		}
		if p.fill.Global != nil {
			fmt.Fprintf(out, ", the coalesced global accesses × %.4g", p.Fill.GlobalFactor)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "property\tcount\tweight (s/op)\tseconds\tshare\t")
	names := make([]string, len(p.Terms))
	for i, t := range p.Terms {
		fmt.Fprintf(tw, "%s\t%.0f\t%.3g\t%.3g\t%.1f%%\t\n", t.Property, t.Count, t.Weight, t.Seconds, 100*t.Share)
		names[i] = t.Property
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeLegend(out, names)
}

func printPredictions(out io.Writer, preds []prediction) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	withConsts := slices.ContainsFunc(preds, func(p prediction) bool { return len(p.Consts) > 0 })
	fmt.Fprintf(tw, "%s\tpredicted\tlargest term\n", caseHeader(withConsts))
	for _, p := range preds {
		top := ""
		if len(p.Terms) > 0 {
			top = fmt.Sprintf("%s (%.0f%%)", p.Terms[0].Property, 100*p.Terms[0].Share)
		}
		mark := ""
		if p.Predicted <= 0 {
			mark = " (not positive: refit without --free)"
		}
		fmt.Fprintf(tw, "%s\t%s%s\t%s\n", caseString(withConsts, p.Consts, p.Params), seconds(p.Predicted), mark, top)
	}
	return tw.Flush()
}

// caseHeader heads the column of the cases of a table of predictions.
func caseHeader(withConsts bool) string {
	if withConsts {
		return "consts; parameters"
	}
	return "parameters"
}

// caseString renders a case of a table of predictions.
func caseString(withConsts bool, consts, params map[string]int64) string {
	if withConsts {
		return models.ParamString(consts) + "; " + models.ParamString(params)
	}
	return models.ParamString(params)
}

// modelPrediction is one parameter set predicted by a model other than
// linear, as printed with --json.
type modelPrediction struct {
	Kernel    string            `json:"kernel"`
	Device    string            `json:"device"`
	Model     string            `json:"model"`
	Consts    map[string]int64  `json:"consts,omitempty"`
	Params    map[string]int64  `json:"params"`
	Predicted float64           `json:"predicted_s"`
	Explain   []models.Quantity `json:"explain"`
}

// predictModel predicts with a calibrated model other than linear.
func predictModel(out io.Writer, kernel string, opts predictOptions) error {
	cal, m, err := readCalibration(opts.weights, opts.model)
	if err != nil {
		return err
	}
	run, err := parseOneRun(opts.oneRun, opts.model)
	if err != nil {
		return err
	}
	if len(opts.deviceFiles) > 1 {
		return fmt.Errorf("--device-file given %d times: one kernel is predicted on one device", len(opts.deviceFiles))
	}
	deviceFile := ""
	if len(opts.deviceFiles) == 1 {
		deviceFile = opts.deviceFiles[0]
	}
	d, err := deviceParams(cal.Device, deviceFile)
	if err != nil {
		return err
	}
	warnDeviceFile(d, cal.Device)
	env := &models.Env{Counter: models.NewCounter(kernelSource(kernel)), Device: d}
	preds, err := predictSets(opts, kernel, func(consts, p map[string]int64) (modelPrediction, error) {
		if err := run.apply(m, env, kernel, consts); err != nil {
			return modelPrediction{}, err
		}
		pr, err := m.Predict(env, models.Case{Kernel: kernel, Consts: consts, Params: p})
		if err == nil {
			err = finite(kernel, p, pr.Seconds)
		}
		return modelPrediction{Kernel: kernel, Device: cal.Device, Model: m.Name(), Consts: consts, Params: p, Predicted: pr.Seconds, Explain: pr.Explain}, err
	})
	if err != nil {
		return err
	}
	if opts.plot != "" {
		points := make([]sweepPoint, len(preds))
		for i, p := range preds {
			points[i] = sweepPoint{p.Params, p.Predicted}
		}
		if err := predictPlot(opts, kernel, fmt.Sprintf("%s on %s (%s model)", kernel, cal.Device, m.Name()), points); err != nil {
			return err
		}
	}
	if err := writePredictions(out, opts.json, preds, printExplain, printModelPredictions); err != nil || opts.json {
		return err
	}
	run.note(out, kernel)
	return nil
}

// printModelPredictions prints a table of a model's predictions.
func printModelPredictions(out io.Writer, preds []modelPrediction) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	withConsts := slices.ContainsFunc(preds, func(p modelPrediction) bool { return len(p.Consts) > 0 })
	fmt.Fprintf(tw, "%s\tpredicted (%s)\n", caseHeader(withConsts), preds[0].Model)
	for _, p := range preds {
		fmt.Fprintf(tw, "%s\t%s\n", caseString(withConsts, p.Consts, p.Params), seconds(p.Predicted))
	}
	return tw.Flush()
}

// printExplain prints a model's prediction with its intermediate
// quantities.
func printExplain(out io.Writer, p modelPrediction) error {
	fmt.Fprintf(out, "%s%s on %s (%s model): predicted %s\n\n", p.Kernel, atParams(p.Params), p.Device, p.Model, seconds(p.Predicted))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "quantity\tvalue\tunit\tfrom")
	for _, q := range p.Explain {
		fmt.Fprintf(tw, "%s\t%.6g\t%s\t%s\n", q.Name, q.Value, q.Unit, q.Note)
	}
	return tw.Flush()
}

// mostlyUnpriced refuses a prediction where more than half of the
// kernel's counts have no weight: priced at zero, they leave a number
// that is mostly launch overhead.
func mostlyUnpriced(kernel string, params map[string]int64, terms []fit.Term) error {
	total, unpriced := 0.0, 0.0
	var names []string
	for _, t := range terms {
		total += t.Count
		if t.Unweighted {
			unpriced += t.Count
			names = append(names, t.Property)
		}
	}
	if unpriced <= total/2 {
		return nil
	}
	return fmt.Errorf("%s%s: %.3g%% of the kernel's counts have no weight (%s), so the prediction would be mostly launch overhead; fit weights from tables with measurement kernels that exercise them, or pass --allow-unpriced to price them at zero anyway",
		kernel, atParams(params), 100*unpriced/total, strings.Join(names, ", "))
}

// warnUnweighted warns on stderr of each property of a prediction that the
// weights have no weight for, priced at zero, with its share of the
// kernel's counts.
func warnUnweighted(kernel string, params map[string]int64, terms []fit.Term) {
	total := 0.0
	for _, t := range terms {
		total += t.Count
	}
	for _, t := range terms {
		if t.Unweighted {
			fmt.Fprintf(stderr, "warning: %s%s: the weights have no weight for %s (count %g, %.2g%% of the kernel's counts); priced at zero (--strict refuses)\n",
				kernel, atParams(params), t.Property, t.Count, 100*t.Count/total)
		}
	}
}
