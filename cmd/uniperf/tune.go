package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets/arrowfile"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/tune"
)

// tuneOptions are the flags of `uniperf tune`.
type tuneOptions struct {
	space    string
	weights  string
	params   []string
	consts   []string
	maps     []string
	top      int
	out      string
	json     bool
	strict   bool
	unpriced bool
	evaluate string
	// --measure SEL times the --top K (every configuration with
	// --brute-force), with --runs and --discard as measure's.
	measure       string
	bruteForce    bool
	runs, discard int
	// resume reuses the times --out holds from an interrupted run.
	resume bool
	// checkParams, with --measure, are the sizes each kernel is checked
	// against the interpreter at, in place of --param's.
	checkParams []string
	// importFlags are uniperf import's flags for a C source KERNEL,
	// whose tunables are macros.
	importFlags string
	// model predicts with a calibrated model other than linear, whose
	// device parameters deviceFile gives where the calibration's device
	// has no shipped file.
	model, deviceFile string
}

var tuneOpts tuneOptions

var tuneCmd = &cobra.Command{
	Use:   "tune KERNEL --space SPACE.json --weights W [--param N=V]... [--map CONST=EXPR]... [--top K] [--out R.json|R.csv|R.arrow]",
	Short: "Rank every configuration of a Kernel Tuner tuning space by predicted time",
	Long: `tune predicts every valid configuration of a tuning space for KERNEL (a
.knl file, a library kernel, or a CUDA or OpenCL source) and ranks them,
fastest first.

--space reads Kernel Tuner's formats: a T1 input file
(ConfigurationSpace.TuningParameters, whose Values are Python lists such
as "[1, 2, 4]", "list(range(1, 9))" or "[16*i for i in range(1, 9)]",
and ConfigurationSpace.Conditions' Expressions as restrictions), or
{"tune_params": {NAME: [values]}, "restrictions": [...]} as tune_kernel
takes them and Kernel Tuner's cache files record them. Restrictions are
Python expressions of the tunables: comparisons (chained as in Python),
and, or, not, in, not in, + - * / // % **, min, max, abs and
x if c else y; anything else is refused with its line:col. A T1 file's
LocalSize, GridDivX/Y/Z and ProblemSize give Kernel Tuner's launch of
each configuration, which tune compares with the kernel's (its work-group
size and number of groups at --param): a difference is a warning, since
the prediction is then of another launch than Kernel Tuner's.

The tunables become the kernel's consts: a const named as a tunable takes
its value; --map CONST=EXPR computes a const from the tunables (--map
BX=block_size_x, --map TW=block_size_x*tile_size_x, or a constant,
--map FH=17). --const NAME=V1,V2 adds a tunable of those values (tied
names, --const BX=BY=16,32, bind several consts to it). Consts bound by
neither keep the kernel's values; tunables that no const reads are
named in a warning, since they do not change the prediction.
--param gives the kernel's sizes, one value each.

A CUDA (.cu) or OpenCL (.cl) source is tuned as Kernel Tuner compiles
it: each configuration's tunables (and the names --map computes) are
macros, -D NAME=VALUE, and the source is imported with them (see
uniperf import), with the flags --import-flags gives in the syntax of a
// uniperf: comment (--kernel, --local, --groups, --array, -D of the
fixed macros) or the source's own // uniperf: comments. Imports that
differ only in the values of their consts are one kernel, counted once;
where an #if reads a tunable, each outcome is a kernel of its own, which
one import of the .knl could not vary. A configuration the importer
refuses is skipped as invalid. --measure takes .knl kernels only.

Configurations that bind the same consts are one kernel: it is counted
and predicted once, on every CPU, at the --param sizes only, which gives
the values predict's symbolic count gives there in a fraction of the
time (a quarter with the linear model, under a hundredth with
hierarchy). Each prediction is predict's for that binding
(uniperf predict --const ... --param ...). --model NAME
predicts with another model (hierarchy, the memory-hierarchy model, or
those of uniperf compare): --weights is then the calibration uniperf
fit --model NAME wrote, and --device-file the device's parameters where
its device has no shipped file.

Configurations predicted alike tie: the table gives their rank as the
range they share ("1-6"), --json as "tied_ranks"; they are listed in the
space's order, which is no prediction.

--measure SEL times the --top K configurations predicted fastest on an
OpenCL or CUDA device (uniperf devices lists them), each kernel checked
against the reference interpreter first as uniperf measure does (at
the --param sizes, or at --check-param's where given: the interpreter
is far slower than the device), and prints
each one's measured time beside its predicted rank, the best found and
its predicted rank, what the prediction alone picked (the predicted
best's measured time, over the best found) and the time spent.
--brute-force times every configuration and prints the evaluation of
--evaluate as well. Configurations that bind the same consts are timed
once. A configuration the device cannot launch (a work-group or local
arrays beyond its limits) is skipped, and counted, rather than timed;
so, when ranking, is one the kernel refuses (its subscripts out of
bounds at --param, an empty grid). With --out the measured times are
written too (T4: a "time" measurement in ms; CSV and Arrow: a time
column), so that tune --evaluate reads them back; --out is rewritten
after each kernel timed, and --resume reuses the times it holds, so that
an interrupted run goes on where it stopped (an Arrow --out records the
device that timed it, and --resume refuses another device's; CSV and T4
JSON record none, and resuming them warns). A ranking fitted on another
device than the one timing it is timed with a warning. --json prints {"timed": [{"rank", "configuration", "consts",
"predicted_s", "measured_s"}], "best", "predicted_pick", "elapsed_s",
"evaluation"}.

It prints the --top K (default 10) configurations and a summary. --out
writes the whole ranking: FILE.json in Kernel Tuner's T4 results schema
(schema_version 1.0.0; each result's configuration, "invalidity":
"correct", "correctness": 1, an empty "times", and the measurement
{"name": "predicted_time", "value": ms, "unit": "ms"}), FILE.csv (rank,
the tunables, predicted_time in ms) or FILE.arrow (the same columns).
--json prints the top K as [{"rank", "configuration", "consts",
"predicted_s"}] instead of the table.

--evaluate TABLE compares the ranking with measured times: a T4 results
file (measurement "time"), a Kernel Tuner cache file ("cache" entries'
"time", ms), a CSV with a column per tunable and "time" in ms, or an
Arrow file of the same columns (as --measure --out R.arrow writes it). Where
every row of TABLE carries its own predicted_time (as tune's T4 and CSV
outputs do, with "time" added), KERNEL, --space and --weights may be left
out. It prints Kendall's τ-b between predicted and measured times, the
optimum, and the best measured time among the predicted best, the
predicted top 1% and the predicted top 10, each beside the exact expected
best of as many random picks (without replacement). Where the k-th
prediction ties with configurations beyond the k, the best among the k
is the exact expectation over which of the tied ones they hold. docs/tuning.md has
the details.`,
	Example: `  uniperf tune examples/matmul_kernel.knl --space examples/matmul_kernel.space.json --weights h100.weights.arrow \
      --param n=4096 --map BX=block_size_x --map BY=block_size_y --map TX=tile_size_x --map TY=tile_size_y --top 5
  uniperf tune convolution.cu --space convolution.json --weights h100.weights.arrow --import-flags \
      '--kernel convolution_kernel --local block_size_x,block_size_y --groups 4096/(block_size_x*tile_size_x),4096/(block_size_y*tile_size_y) --array output=4096*4096 --array input=4112*4112 --array filter=289'
  uniperf tune examples/stencil_kernel.knl --space examples/stencil_kernel.space.json --weights w.arrow \
      --param w=4096 --param h=2048 --map BX=block_size_x --map BY=block_size_y --out ranking.json
  uniperf tune --evaluate measured.json`,
	Args: cobra.RangeArgs(0, 1),
	RunE: func(cmd *cobra.Command, args []string) error {
		kernel := ""
		if len(args) == 1 {
			kernel = args[0]
		}
		return runTune(cmd.OutOrStdout(), kernel, tuneOpts)
	},
}

func init() {
	f := tuneCmd.Flags()
	o := &tuneOpts
	f.StringVar(&o.space, "space", "", "tuning space: a Kernel Tuner T1 input file, or JSON with tune_params and restrictions")
	f.StringVar(&o.weights, "weights", "", "weight table written by uniperf fit")
	f.StringArrayVar(&o.params, "param", nil, "kernel parameter NAME=VALUE (repeatable, one value each)")
	f.StringArrayVar(&o.consts, "const", nil, "an extra tunable: kernel const values NAME=V1,V2,...; NAME1=NAME2=... ties consts (repeatable)")
	f.StringArrayVar(&o.maps, "map", nil, "CONST=EXPR: compute a kernel const from the tunables (repeatable)")
	f.IntVar(&o.top, "top", 10, "print the K configurations predicted fastest")
	f.StringVar(&o.out, "out", "", "write the whole ranking to FILE.json (T4 results), FILE.csv or FILE.arrow")
	f.BoolVar(&o.json, "json", false, "print JSON")
	f.BoolVar(&o.strict, "strict", false, "fail on a property the weights have no weight for, rather than price it at zero")
	f.BoolVar(&o.unpriced, "allow-unpriced", false, "rank even where properties the weights do not price are most of a configuration's counts (as predict --allow-unpriced)")
	f.StringVar(&o.evaluate, "evaluate", "", "compare the ranking with a table of measured times (T4 results, Kernel Tuner cache, CSV or Arrow)")
	f.StringVar(&o.measure, "measure", "", "time the --top K predicted best on this OpenCL or CUDA device (see uniperf devices), each checked against the interpreter first")
	f.BoolVar(&o.bruteForce, "brute-force", false, "with --measure: time every configuration, for evaluation")
	f.IntVar(&o.runs, "runs", 10, "with --measure: timed runs per configuration")
	f.IntVar(&o.discard, "discard", 2, "with --measure: leading runs left out of the minimum")
	f.StringArrayVar(&o.checkParams, "check-param", nil, "with --measure: check each kernel against the interpreter at these parameters NAME=VALUE (repeatable) instead of at --param's")
	f.StringVar(&o.model, "model", "linear", "model to predict with: "+strings.Join(models.Names(), ", ")+"; other than linear, --weights is the calibration uniperf fit --model wrote")
	f.StringVar(&o.deviceFile, "device-file", "", "with --model other than linear: the device parameter file (shipped name or JSON, see fit/gpus)")
	f.StringVar(&o.importFlags, "import-flags", "", "with a .cu or .cl KERNEL: uniperf import's flags, as in a // uniperf: comment (--kernel, --local, --groups, --array, -D ...); each configuration's tunables are -D macros")
	f.BoolVar(&o.resume, "resume", false, "with --measure and --out: reuse the times --out already holds (an interrupted run's) and time only the rest")
	rootCmd.AddCommand(tuneCmd)
}

// tuneEntry is one configuration of tune --json.
type tuneEntry struct {
	Rank          int              `json:"rank"`
	Tied          [2]int           `json:"tied_ranks"`
	Configuration map[string]any   `json:"configuration"`
	Consts        map[string]int64 `json:"consts"`
	Predicted     float64          `json:"predicted_s"`
}

func runTune(out io.Writer, kernel string, opts tuneOptions) error {
	if opts.top < 1 {
		return fmt.Errorf("--top %d: give a positive number of configurations", opts.top)
	}
	if opts.out != "" {
		if ext := strings.ToLower(filepath.Ext(opts.out)); ext != ".json" && ext != ".csv" && ext != ".arrow" {
			return fmt.Errorf("--out %s: name a .json (T4 results), .csv or .arrow file", opts.out)
		}
	}
	if opts.evaluate != "" && kernel == "" && opts.space == "" {
		return evaluateTable(out, opts, nil, nil)
	}
	switch {
	case kernel == "":
		return fmt.Errorf("give a KERNEL (a .knl file or a library kernel) to tune")
	case opts.space == "":
		return fmt.Errorf("--space is required: a Kernel Tuner T1 input file, or JSON with tune_params and restrictions")
	case opts.weights == "":
		return fmt.Errorf("--weights is required: a weight table written by uniperf fit")
	}
	if opts.resume && opts.measure == "" {
		return fmt.Errorf("--resume goes on with an interrupted --measure: give the device with --measure SEL and the table with --out")
	}
	if len(opts.checkParams) > 0 && opts.measure == "" {
		return fmt.Errorf("--check-param sets the size a timed kernel is checked at: give the device with --measure SEL")
	}
	if opts.bruteForce && opts.measure == "" {
		return fmt.Errorf("--brute-force times every configuration: give the device with --measure SEL")
	}
	if opts.measure != "" && isCSource(kernel) {
		return fmt.Errorf("--measure times .knl kernels: import %s with uniperf import (its tunables that #if reads as -D) and tune the .knl, or time the source with Kernel Tuner", kernel)
	}
	if opts.importFlags != "" && !isCSource(kernel) {
		return fmt.Errorf("--import-flags is for a CUDA or OpenCL source (.cu, .cl); %s is not one", kernel)
	}
	if opts.measure != "" && opts.evaluate != "" {
		return fmt.Errorf("--measure and --evaluate: time the configurations, or evaluate measured ones, not both")
	}
	if opts.measure != "" {
		if err := checkRuns(opts.runs, opts.discard); err != nil {
			return err
		}
	}
	r, err := rankSpace(kernel, opts)
	if err != nil {
		return err
	}
	if opts.measure != "" {
		return measureRanking(out, kernel, r, opts)
	}
	if opts.out != "" {
		if err := writeRanking(out, opts.out, r.space, r.results, ""); err != nil {
			return err
		}
	}
	if opts.evaluate != "" {
		return evaluateTable(out, opts, r.space, r.results)
	}
	top := r.results[:min(opts.top, len(r.results))]
	if opts.json {
		entries := make([]tuneEntry, len(top))
		for i, res := range top {
			entries[i] = entryOf(r.space, res)
		}
		return writeJSON(out, entries)
	}
	skipped := ""
	if r.skipped > 0 {
		skipped = fmt.Sprintf(" (%d more skipped as invalid)", r.skipped)
	}
	imported := ""
	if r.kernels > 0 {
		imported = fmt.Sprintf(" (imported as %d distinct kernels)", r.kernels)
		if r.kernels == 1 {
			imported = " (imported as 1 distinct kernel)"
		}
	}
	fmt.Fprintf(out, "%s on %s: %d valid configurations%s, %d distinct const bindings%s counted and predicted in %s\n\n",
		kernel, r.device, len(r.results), skipped, r.bindings, imported, r.elapsed.Round(time.Millisecond))
	return printTuneRanking(out, r.space, top)
}

// entryOf is a result as tune --json prints it.
func entryOf(space *tune.Space, r tune.Result) tuneEntry {
	conf := make(map[string]any, len(space.Params))
	for j, p := range space.Params {
		conf[p.Name] = space.Value(r.Config, j).JSON()
	}
	return tuneEntry{Rank: r.Rank, Tied: r.Tied, Configuration: conf, Consts: r.Consts, Predicted: r.Predicted}
}

// configCells renders a configuration's values as tab-separated cells.
func configCells(space *tune.Space, c tune.Config) string {
	cells := make([]string, len(c))
	for i := range c {
		cells[i] = space.Value(c, i).Text()
	}
	return strings.Join(cells, "\t")
}

// ranking is tune's ranking of a space.
type ranking struct {
	space    *tune.Space
	results  []tune.Result
	bindings int
	// kernels counts the distinct kernels the imports of a C source gave
	// (zero for a .knl).
	kernels int
	// skipped counts the configurations left out as invalid.
	skipped int
	device  string
	params  map[string]int64
	elapsed time.Duration
}

// rankSpace reads the space and the weights and ranks the space.
func rankSpace(kernel string, opts tuneOptions) (*ranking, error) {
	start := time.Now()
	// Ranking allocates much per binding and keeps little (the counter
	// forgets each binding once predicted): collecting at 4 times the
	// live heap rather than twice takes 15% less CPU for a space of
	// 8,360 bindings, at 136 MB rather than 82 MB.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	data, err := inputfile.ReadText(opts.space)
	if err != nil {
		return nil, fmt.Errorf("--space: %w", err)
	}
	space, err := tune.ReadSpace(data, opts.space)
	if err != nil {
		return nil, err
	}
	exprs, err := tuneMaps(space, opts)
	if err != nil {
		return nil, err
	}
	params, err := parseParams(opts.params)
	if err != nil {
		return nil, err
	}
	src, ik, err := tuneSource(kernel, opts.importFlags)
	if err != nil {
		return nil, err
	}
	var declared, kparams []string
	if ik != nil {
		// Every tunable, and every name --map computes, is a macro.
		declared = slices.Concat(space.Names(), slices.Collect(maps.Keys(exprs)))
	} else if declared, kparams, err = kernelDecls(kernel); err != nil {
		return nil, err
	}
	mapping, unused, err := tune.NewMapping(space, declared, exprs)
	if err != nil {
		return nil, err
	}
	configs, err := space.Configs()
	if err != nil {
		return nil, err
	}
	if len(configs) == 0 {
		return nil, fmt.Errorf("%s: no configuration meets the restrictions", opts.space)
	}
	if ik != nil {
		kparams = ik.params(space, mapping, configs)
	}
	// Said once here, since every binding would otherwise be skipped as
	// invalid for the same missing or unknown size. A --const the kernel
	// does not declare is a tunable of the space that a --map may read
	// (it is warned of below where none does), so it is not refused.
	if err := cmp.Or(checkNames("--param", opts.params, kernel, "parameter", kparams), checkTuneParams(kernel, kparams, params)); err != nil {
		return nil, err
	}
	if len(unused) > 0 {
		fmt.Fprintf(stderr, "warning: %s: no const of %s reads %s, so configurations that differ only there are predicted alike (--map CONST=EXPR maps tunables onto consts)\n",
			opts.space, kernel, strings.Join(unused, ", "))
	}
	pr, err := newTunePredictor(src, params, predictorOptions{model: opts.model, weights: opts.weights, deviceFile: opts.deviceFile,
		strict: opts.strict, unpriced: opts.unpriced})
	if err != nil {
		return nil, err
	}
	var launches sync.Map // models.ParamString(consts) -> its launch at params
	predict := func(consts map[string]int64) (float64, error) {
		name, bound, err := tuneKernel(kernel, ik, consts)
		if err != nil {
			return 0, fmt.Errorf("%w: %w", tune.ErrInvalid, err)
		}
		// The ranking keeps a binding's prediction, not its counts:
		// memory stays that of a few bindings however large the space.
		defer pr.counter.Forget(name, bound)
		if ik != nil {
			defer ik.done(name)
			defer pr.counter.ForgetSource(name)
		}
		l, err := bindable(pr.counter, name, bound, params)
		if err != nil {
			return 0, fmt.Errorf("%w: %w", tune.ErrInvalid, err)
		}
		launches.Store(models.ParamString(consts), l)
		return pr.predict(name, bound, l)
	}
	rk, err := tune.Rank(space, mapping, configs, predict, 0)
	if err != nil {
		return nil, err
	}
	if len(rk.Results) == 0 {
		return nil, fmt.Errorf("%s: every one of the %d configurations is invalid for %s, e.g. %s: %w", opts.space, len(configs), kernel,
			space.Label(rk.Skipped[0].Config), rk.Skipped[0].Reason)
	}
	warnSkipped("predicting", space, rk.Skipped, len(configs))
	if space.Launch != nil {
		checkTuneLaunch(&launches, params, space, rk.Results)
	}
	if pr.weights != nil {
		if name, bound, err := tuneKernel(kernel, ik, rk.Results[0].Consts); err == nil {
			if ik != nil {
				defer ik.done(name)
			}
			_, terms, _, _ := linear.PredictLaunch(pr.counter, pr.weights, name, bound, params)
			warnUnweighted(kernel, params, terms)
			warnDoubt(kernel, params, pr.weights, terms, defaultWarnShare)
		}
	}
	r := &ranking{space: space, results: rk.Results, bindings: rk.Bindings, skipped: len(rk.Skipped), device: pr.device, params: params, elapsed: time.Since(start)}
	if ik != nil {
		r.kernels = ik.kernels()
	}
	return r, nil
}

// checkTuneParams asks for every size parameter of the kernel in
// --param: a size is not a tunable.
func checkTuneParams(kernel string, kparams []string, params map[string]int64) error {
	if p, ok := firstMissing(kparams, params); ok {
		return fmt.Errorf("%s: missing parameter %s: give --param %s=VALUE (its parameters: %s)", kernel, p, p, paramList(kparams))
	}
	return nil
}

// warnSkipped names, on stderr, how many of n configurations were
// skipped as invalid while doing what, with the first reasons.
func warnSkipped(doing string, space *tune.Space, skipped []tune.Skipped, n int) {
	if len(skipped) == 0 {
		return
	}
	fmt.Fprintf(stderr, "warning: %d of %d configurations skipped as invalid while %s:\n", len(skipped), n, doing)
	seen := map[string]bool{}
	for _, s := range skipped {
		reason := s.Reason.Error()
		if seen[reason] {
			continue
		}
		seen[reason] = true
		if len(seen) <= 3 {
			fmt.Fprintf(stderr, "  %s: %s\n", space.Label(s.Config), reason)
		}
	}
	if len(seen) > 3 {
		fmt.Fprintf(stderr, "  and %d other reasons\n", len(seen)-3)
	}
}

// tuneMaps gathers --map and --const into the mapping's expressions,
// adding --const's tunables to the space.
func tuneMaps(space *tune.Space, opts tuneOptions) (map[string]string, error) {
	exprs := map[string]string{}
	for _, m := range opts.maps {
		name, expr, ok := strings.Cut(m, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.TrimSpace(expr) == "" {
			return nil, fmt.Errorf("--map %q: want CONST=EXPR, an expression of the tunables", m)
		}
		if _, dup := exprs[name]; dup {
			return nil, fmt.Errorf("--map %q: %s mapped twice", m, name)
		}
		exprs[name] = expr
	}
	for _, c := range opts.consts {
		names, list, err := tiedNames(c)
		if err != nil {
			return nil, fmt.Errorf("--const %q: %w (want NAME=V1,V2,... or NAME1=NAME2=V1,...)", c, err)
		}
		var values []tune.Value
		for _, s := range strings.Split(list, ",") {
			v, err := parseInt(s)
			if err != nil {
				return nil, fmt.Errorf("--const %q: %w", c, err)
			}
			values = append(values, tune.IntValue(v))
		}
		if slices.Contains(space.Names(), names[0]) {
			return nil, fmt.Errorf("--const %q: %s is a tunable of the space already", c, names[0])
		}
		space.Params = append(space.Params, tune.Param{Name: names[0], Values: values})
		for _, n := range names[1:] {
			if _, dup := exprs[n]; dup {
				return nil, fmt.Errorf("--const %q: %s is mapped by --map too", c, n)
			}
			exprs[n] = names[0]
		}
	}
	return exprs, nil
}

// checkTuneLaunch warns where the kernel's launch at a binding
// (launches, by setString of the consts) differs from Kernel Tuner's
// launch of a configuration that binds it.
func checkTuneLaunch(launches *sync.Map, params map[string]int64, space *tune.Space, results []tune.Result) {
	seen := map[string]bool{}
	differ, first := 0, ""
	for _, r := range results {
		key := models.ParamString(r.Consts)
		if seen[key] {
			continue
		}
		seen[key] = true
		groups, local, err := space.Launch.Shape(space.Env(r.Config))
		if err != nil {
			fmt.Fprintf(stderr, "warning: Kernel Tuner's launch of %s: %v; launches not compared\n", space.Label(r.Config), err)
			return
		}
		v, ok := launches.Load(key)
		if !ok {
			return
		}
		global, kl := v.(kernelLaunch).global, v.(kernelLaunch).local
		var kg [3]int64
		for a := range 3 {
			kg[a] = global[a] / max(kl[a], 1)
		}
		if kg != groups || kl != local {
			differ++
			if first == "" {
				first = fmt.Sprintf("%s: Kernel Tuner launches %v groups of %v, the kernel at %s %v groups of %v",
					space.Label(r.Config), groups, local, models.ParamString(params), kg, kl)
			}
		}
	}
	if differ > 0 {
		fmt.Fprintf(stderr, "warning: %d of %d const bindings launch otherwise than the T1 file says (%s): check --param and --map\n", differ, len(seen), first)
	}
}

// writeRanking writes the ranking to path in the format its extension
// names; an Arrow file records timedOn, the device that timed it, where
// one did.
func writeRanking(stdout io.Writer, path string, space *tune.Space, results []tune.Result, timedOn string) error {
	var data []byte
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		data, err = tune.WriteT4(space, results, time.Now())
	case ".csv":
		data, err = tune.WriteCSV(space, results)
	default:
		data, err = tune.WriteArrow(space, results, timedOn)
	}
	if err != nil {
		return err
	}
	return writeOutput(stdout, path, data)
}

// printRanking prints ranked configurations as a table.
func printTuneRanking(out io.Writer, space *tune.Space, results []tune.Result) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "rank\t%s\tpredicted\n", strings.Join(space.Names(), "\t"))
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", rankText(r.Rank, r.Tied), configCells(space, r.Config), seconds(r.Predicted))
	}
	return tw.Flush()
}

// evaluateTable compares predictions with the measured times of
// --evaluate: those of results where tune ranked a space, else the
// table's own predicted_time.
func evaluateTable(out io.Writer, opts tuneOptions, space *tune.Space, results []tune.Result) error {
	data, err := inputfile.ReadChecked(opts.evaluate, checkMeasured)
	if err != nil {
		return fmt.Errorf("--evaluate: %w", readError(err))
	}
	rows, err := tune.ReadMeasured(data, opts.evaluate)
	if err != nil {
		return err
	}
	var pred, meas []float64
	unmatched := 0
	if space == nil {
		for i, r := range rows {
			if math.IsNaN(r.Predicted) {
				return fmt.Errorf("%s: row %d has no predicted_time: give KERNEL, --space and --weights to predict the configurations", opts.evaluate, i+1)
			}
			if math.IsNaN(r.Time) {
				unmatched++
				continue
			}
			pred, meas = append(pred, r.Predicted), append(meas, r.Time)
		}
	} else {
		byKey := make(map[string]float64, len(results))
		for _, r := range results {
			key, _ := tune.Key(space.Names(), space.Env(r.Config))
			byKey[key] = r.Predicted
		}
		for i, r := range rows {
			key, err := tune.Key(space.Names(), func(n string) (tune.Value, bool) { v, ok := r.Config[n]; return v, ok })
			if err != nil {
				return fmt.Errorf("%s: row %d: %w", opts.evaluate, i+1, err)
			}
			p, ok := byKey[key]
			if !ok || math.IsNaN(r.Time) {
				unmatched++
				continue
			}
			pred, meas = append(pred, p), append(meas, r.Time)
		}
	}
	ev, err := tune.Evaluate(pred, meas)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.evaluate, err)
	}
	if opts.json {
		return writeJSON(out, ev)
	}
	fmt.Fprintf(out, "%s: %d measured configurations", opts.evaluate, ev.N)
	if unmatched > 0 {
		fmt.Fprintf(out, " (%d rows not in the space or without a time left out)", unmatched)
	}
	tau := fmt.Sprintf("%.3f", ev.Tau)
	if math.IsNaN(ev.Tau) {
		tau = "undefined (every predicted, or every measured, time is the same)"
	}
	fmt.Fprintf(out, "\nKendall τ-b, predicted against measured: %s\noptimum: %s\n\n", tau, seconds(ev.Optimum))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "pick\tk\tbest measured\t× optimum\tties at the k-th\trandom picks (expected)\t× optimum")
	ties := false
	for i, p := range ev.Picks {
		label := [...]string{"predicted best", "predicted top 1%", "predicted top 10"}[i]
		tie := "none"
		if p.Tied > 1 {
			tie, ties = fmt.Sprintf("%d of %d", p.Drawn, p.Tied), true
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.3f\t%s\t%s\t%.3f\n", label, p.K, seconds(p.Best), p.BestRatio, tie, seconds(p.Random), p.RandomRatio)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if ties {
		fmt.Fprintln(out, "\nwhere the k-th predicted time ties with configurations beyond the k (\"d of t\": the k take d of t tied), which ones the k take is a draw: best measured is then its exact expectation")
	}
	return nil
}

// tuneTimed is one timed configuration of tune --measure --json.
type tuneTimed struct {
	tuneEntry
	Measured float64 `json:"measured_s"`
}

// tuneMeasured is what tune --measure --json prints.
type tuneMeasured struct {
	Timed         []tuneTimed      `json:"timed"`
	Best          tuneTimed        `json:"best"`
	PredictedPick tuneTimed        `json:"predicted_pick"`
	Skipped       int              `json:"skipped"`
	Resumed       int              `json:"resumed"`
	Elapsed       float64          `json:"elapsed_s"`
	Evaluation    *tune.Evaluation `json:"evaluation,omitempty"`
}

// measureRanking times the --top K configurations of the ranking (all
// with --brute-force) on the --measure device, once per binding of the
// consts, and reports the best found against the prediction's pick.
func measureRanking(out io.Writer, kernel string, r *ranking, opts tuneOptions) error {
	k := min(opts.top, len(r.results))
	if opts.bruteForce {
		k = len(r.results)
	}
	checkAt, err := parseBindings("--check-param", opts.checkParams)
	if err != nil {
		return err
	}
	timer, err := openTimer("--measure", opts.measure, opts.runs, opts.discard)
	if err != nil {
		return err
	}
	defer timer.close()
	done, record, err := resumedTimes(opts.resume, opts.out, r.space, timer.name())
	if err != nil {
		return err
	}
	warnOtherDevice("the ranking's model was fitted on", r.device, timer.name())
	start := time.Now()
	src := kernelSource(kernel)
	byBinding := map[string]float64{}
	invalid := map[string]error{}
	var skipped []tune.Skipped
	var timedIdx []int
	resumed := 0
	for i := range r.results[:k] {
		res := &r.results[i]
		key := models.ParamString(res.Consts)
		if t, ok := done[configKey(r.space, res.Config)]; ok {
			res.Measured, byBinding[key] = t, t
			timedIdx = append(timedIdx, i)
			resumed++
			continue
		}
		if err, ok := invalid[key]; ok {
			skipped = append(skipped, tune.Skipped{Config: res.Config, Consts: res.Consts, Reason: err})
			continue
		}
		t, ok := byBinding[key]
		if !ok {
			if t, err = timer.timeConfig(src, kernel, res.Consts, r.params, checkAt); err != nil {
				if !errors.Is(err, tune.ErrInvalid) {
					return fmt.Errorf("%s: %w", r.space.Label(res.Config), err)
				}
				invalid[key] = err
				skipped = append(skipped, tune.Skipped{Config: res.Config, Consts: res.Consts, Reason: err})
				continue
			}
			byBinding[key] = t
			if opts.out != "" {
				// Each time is written as it comes, so that an
				// interrupted run loses at most the kernel being timed.
				res.Measured = t
				if err := writeRanking(out, opts.out, r.space, r.results, record); err != nil {
					return err
				}
			}
		}
		res.Measured = t
		timedIdx = append(timedIdx, i)
	}
	elapsed := time.Since(start)
	warnSkipped("timing", r.space, skipped, k)
	if len(timedIdx) == 0 {
		return fmt.Errorf("none of the %d configurations could be timed on %s, e.g. %s: %w", k, timer.name(),
			r.space.Label(skipped[0].Config), skipped[0].Reason)
	}
	timed := make([]tuneTimed, len(timedIdx))
	best := 0
	for j, i := range timedIdx {
		res := r.results[i]
		timed[j] = tuneTimed{entryOf(r.space, res), res.Measured}
		if res.Measured < timed[best].Measured {
			best = j
		}
	}
	report := tuneMeasured{Timed: timed, Best: timed[best], PredictedPick: timed[0], Skipped: len(skipped), Resumed: resumed, Elapsed: elapsed.Seconds()}
	if opts.bruteForce && len(timedIdx) > 1 {
		pred, meas := make([]float64, len(timedIdx)), make([]float64, len(timedIdx))
		for j, i := range timedIdx {
			pred[j], meas[j] = r.results[i].Predicted, r.results[i].Measured
		}
		ev, err := tune.Evaluate(pred, meas)
		if err != nil {
			return err
		}
		report.Evaluation = &ev
	}
	if opts.out != "" {
		if err := writeRanking(out, opts.out, r.space, r.results, record); err != nil {
			return err
		}
	}
	if opts.json {
		return writeJSON(out, report)
	}
	fmt.Fprintf(out, "%s on %s: %d valid configurations ranked; the %d predicted fastest (%d kernels) timed on %s in %s",
		kernel, r.device, len(r.results), k, len(byBinding), timer.name(), elapsed.Round(time.Millisecond))
	if len(skipped) > 0 {
		fmt.Fprintf(out, ", %d skipped as the device cannot launch them", len(skipped))
	}
	if resumed > 0 {
		fmt.Fprintf(out, " (%d times resumed from %s)", resumed, opts.out)
	}
	fmt.Fprint(out, "\n\n")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "rank\t%s\tpredicted\tmeasured\n", strings.Join(r.space.Names(), "\t"))
	for _, i := range timedIdx {
		res := r.results[i]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", rankText(res.Rank, res.Tied), configCells(r.space, res.Config), seconds(res.Predicted), seconds(res.Measured))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b, pick := timed[best], timed[0]
	fmt.Fprintf(out, "\nbest found: %s, %s, predicted rank %s; the prediction alone picked %s, %s (%.3f× the best found)\n",
		r.space.Label(r.results[timedIdx[best]].Config), seconds(b.Measured), rankText(b.Rank, b.Tied), r.space.Label(r.results[timedIdx[0]].Config),
		seconds(pick.Measured), pick.Measured/b.Measured)
	if ev := report.Evaluation; ev != nil {
		fmt.Fprintf(out, "Kendall τ-b over all %d: %.3f; predicted top 1%% (%d) best %.3f× the optimum (random %.3f×), top 10 %.3f× (random %.3f×)\n",
			ev.N, ev.Tau, ev.Picks[1].K, ev.Picks[1].BestRatio, ev.Picks[1].RandomRatio, ev.Picks[2].BestRatio, ev.Picks[2].RandomRatio)
	}
	return nil
}

// checkMeasured refuses, from its first 64 KiB, a file that --evaluate
// cannot read: an Arrow file whose footer is damaged, or a file with a NUL
// byte there, which is neither Arrow nor the text of JSON or CSV (a 2 GB
// sparse file took 17 GB and minutes in the CSV reader before).
func checkMeasured(r io.ReaderAt, size int64) error {
	head := make([]byte, min(size, 64<<10))
	if _, err := r.ReadAt(head, 0); err != nil {
		return err
	}
	if bytes.HasPrefix(head, []byte("ARROW1")) {
		return arrowfile.Check(r, size)
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Errorf("byte %d is NUL: neither an Arrow file nor the text of JSON or CSV", i)
	}
	return nil
}

// rankText is a rank, or the range of ranks it ties with, "3-7".
func rankText(rank int, tied [2]int) string {
	if tied[0] == tied[1] {
		return strconv.Itoa(rank)
	}
	return fmt.Sprintf("%d-%d", tied[0], tied[1])
}
