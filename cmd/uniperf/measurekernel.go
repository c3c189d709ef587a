package main

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/measurekernels/launch"
)

// kernelMeasureOptions are the flags of uniperf measure KERNEL.
type kernelMeasureOptions struct {
	device      string
	params      []string
	sweeps      []string
	consts      []string
	checkParams []string
	out         string
	compareWith string
	strict      bool
	class       string
	runs        int
	discard     int
	json        bool
	// --repeat-until-stable and its --tolerance and --max-runs.
	untilStable bool
	stable      stableRule
}

// maxCheckOps bounds the operations the reference interpreter may be asked
// to perform for one correctness check: about 40 ns each, so a few
// seconds. Beyond it the user names a smaller size to check at.
const maxCheckOps = 1e8

// kernelTime is one measured parameter set of uniperf measure KERNEL.
type kernelTime struct {
	Kernel   string           `json:"kernel"`
	Device   string           `json:"device"`
	Consts   map[string]int64 `json:"consts,omitempty"`
	Params   map[string]int64 `json:"params"`
	Local    []int64          `json:"local_size"`
	Global   []int64          `json:"global_size"`
	Measured float64          `json:"measured_s"`
	// Median and Max of the kept runs show their spread beside the
	// minimum, Measured.
	Median  float64   `json:"median_s"`
	Max     float64   `json:"max_s"`
	Raw     []float64 `json:"raw_times_s"`
	Resumed bool      `json:"resumed,omitempty"`
	// Stable says, under --repeat-until-stable, whether the kept runs met
	// the rule or measure gave up at --max-runs.
	Stable    *bool    `json:"stable,omitempty"`
	Predicted *float64 `json:"predicted_s,omitempty"`
	RelErr    *float64 `json:"relative_error,omitempty"`
}

// measureKernel times one kernel (a .knl file or a library kernel) at
// every parameter set of the flags, checks each against the reference
// interpreter first, and writes the times, a table row per set with
// --out, and predictions with --compare-with.
func measureKernel(stdout io.Writer, kernel string, opts kernelMeasureOptions) error {
	if opts.device == "" {
		return fmt.Errorf("--device is required: see uniperf devices for the devices present")
	}
	if len(opts.params) == 0 && len(opts.sweeps) == 0 && hasParams(kernel, opts.consts) {
		return fmt.Errorf("give the kernel's parameters with --param NAME=VALUE (or --sweep)")
	}
	if opts.untilStable {
		if err := checkStable(&opts.stable, opts.runs); err != nil {
			return err
		}
	}
	consts, err := parseConsts(opts.consts)
	if err != nil {
		return err
	}
	sets, err := paramSets(opts.params, opts.sweeps)
	if err != nil {
		return err
	}
	checkAt, err := parseBindings("--check-param", opts.checkParams)
	if err != nil {
		return err
	}
	// One file is one kernel in the table however its path is spelled.
	if c := filepath.Clean(kernel); strings.HasSuffix(c, ".knl") || strings.ContainsRune(c, '/') {
		kernel = c
	}
	src := kernelSource(kernel)
	file, text, err := src(kernel)
	if err != nil {
		return fmt.Errorf("KERNEL %s: %w", kernel, err)
	}
	ir, err := counts.ParseKernel(file, text, consts)
	if err != nil {
		return err
	}
	if err := checkSizes(ir, sets, checkAt); err != nil {
		return err
	}
	var w *fit.Weights
	if opts.compareWith != "" {
		if w, err = loadWeights(opts.compareWith); err != nil {
			return err
		}
		if err := models.CheckWeights(w); err != nil {
			return fmt.Errorf("%s: %w", opts.compareWith, err)
		}
		w.ZeroMissing = !opts.strict
	}
	timer, err := openTimer("--device", opts.device, opts.runs, opts.discard)
	if err != nil {
		return err
	}
	defer timer.close()
	if opts.untilStable {
		timer.stable = &opts.stable
	}
	var table *datasets.Writer
	if opts.out != "" {
		meta := kernelMeta(timer, opts)
		if table, err = datasets.OpenWriter(opts.out, meta); err != nil {
			return tableError(err)
		}
		defer table.Close()
		warnClock(table, meta)
	}
	k, err := timer.build(ir)
	if err != nil {
		return err
	}
	defer k.Close()
	if len(checkAt) > 0 {
		if err := timer.check(k, checkAt); err != nil {
			return err
		}
	}
	var results []kernelTime
	for _, p := range sets {
		r, err := measureSet(timer, k, table, kernel, text, consts, p, len(checkAt) == 0, cmp.Or(opts.class, ir.Name))
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	if w != nil {
		if err := comparePredictions(stdout, w, src, kernel, consts, results); err != nil {
			return err
		}
	}
	if opts.json {
		return writeJSON(stdout, results)
	}
	return printKernelTimes(stdout, results, table)
}

// checkSizes refuses a correctness check that would keep the reference
// interpreter busy for minutes: at the --check-param size if given, else
// at every timed size.
func checkSizes(ir *counts.Kernel, sets []map[string]int64, checkAt map[string]int64) error {
	c, err := counts.Count(ir)
	if err != nil {
		// Timing does not need the counts; only this estimate does.
		fmt.Fprintf(stderr, "warning: the interpreter's work for the check cannot be estimated (%v); at large sizes give a small --check-param\n", err)
		return nil
	}
	for _, p := range sets {
		if err := c.CheckBounds(p); err != nil {
			return err
		}
	}
	at := sets
	if len(checkAt) > 0 {
		at = []map[string]int64{checkAt}
	}
	for _, p := range at {
		v, err := c.Eval(p)
		if err != nil {
			if len(p) == 0 {
				return fmt.Errorf("at its one size: %w", err)
			}
			return fmt.Errorf("parameters %s: %w", launch.ParamString(p), err)
		}
		ops := 0.0
		for name, n := range v {
			if !strings.HasPrefix(name, "launch.") && !strings.HasPrefix(name, "global.minldst.") {
				ops += float64(n)
			}
		}
		if ops > maxCheckOps {
			flag := "give a smaller size to check the kernel at with --check-param NAME=VALUE"
			if len(checkAt) > 0 {
				flag = "choose a smaller --check-param"
			}
			if len(p) == 0 {
				flag = "its sizes are consts, so no --check-param can make it smaller: make a size a parameter (domain [n] -> { ... }) and measure with --check-param n=SMALL --param n=BIG"
			}
			return fmt.Errorf("checking %s against the reference interpreter at %s would interpret %.3g operations (the limit is %.0g, a few seconds); %s",
				ir.Name, sizeName(p), ops, float64(maxCheckOps), flag)
		}
	}
	return nil
}

// measureSet checks (unless a --check-param check replaced it) and times
// k at params, or takes the time from the table when a row of the same
// case, measured from the same source text, is there already, and appends
// a new row to the table.
func measureSet(timer *kernelTimer, k *launch.Kernel, table *datasets.Writer, kernel string, text []byte, consts, params map[string]int64, check bool, class string) (kernelTime, error) {
	global, local, err := k.Grid(params)
	if err != nil {
		return kernelTime{}, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	r := kernelTime{Kernel: kernel, Device: timer.name(), Consts: consts, Params: params, Local: local, Global: global}
	variant := sourceVariant(params, text)
	if table != nil {
		if row, ok := findRow(table, datasets.MakeKey(kernel, consts, params, local)); ok {
			if row.Variant != variant {
				return kernelTime{}, fmt.Errorf("%s: the row of %s at %s was measured from another text of the kernel (variant %q, now %q): "+
					"the file changed since; measure into another --out table", table.Path(), kernel, sizeName(params), row.Variant, variant)
			}
			r.Measured, r.Raw, r.Resumed = row.TimeS, row.RawTimesS, true
			s := datasets.SpreadOf(row.RawTimesS, int(row.RunsDiscarded))
			r.Median, r.Max = s.Median, s.Max
			if timer.stable != nil {
				stable := timer.stable.holds(row.RawTimesS, int(row.RunsDiscarded))
				r.Stable = &stable
			}
			return r, nil
		}
	}
	if check {
		if err := timer.check(k, params); err != nil {
			return kernelTime{}, err
		}
	}
	raw, stable, err := timer.measure(k, params)
	if err != nil {
		return kernelTime{}, err
	}
	s := datasets.SpreadOf(raw, timer.discard)
	r.Raw, r.Measured, r.Median, r.Max = raw, s.Min, s.Median, s.Max
	if timer.stable != nil {
		r.Stable = &stable
	}
	if table == nil {
		return r, nil
	}
	info := timer.dev.Info()
	row := datasets.Row{
		Device: info.Name, Backend: string(info.Backend), Kernel: kernel, Class: class, Role: datasets.RoleTest,
		Variant: variant, Consts: orEmptyMap(consts), Params: params,
		LocalSize: local, GlobalSize: global, TimeS: r.Measured, RawTimesS: raw,
		RunsKept: int32(len(raw) - timer.discard), RunsDiscarded: int32(timer.discard),
		Timestamp: time.Now().UTC(), Version: datasets.Version,
	}
	if err := table.Append(row); err != nil {
		return kernelTime{}, tableError(err)
	}
	return r, nil
}

// sourceVariant is the variant column of a row: the parameters and a
// digest of the kernel's source text, so that a rerun after the file was
// edited does not take the old kernel's times for the new one's.
func sourceVariant(params map[string]int64, text []byte) string {
	sum := sha256.Sum256(text)
	return strings.TrimSpace(fmt.Sprintf("%s source=%x", launch.ParamString(params), sum[:6]))
}

// findRow returns the table's row with key k.
func findRow(table *datasets.Writer, k datasets.Key) (datasets.Row, bool) {
	if !table.Has(k) {
		return datasets.Row{}, false
	}
	for _, r := range table.Table().Rows {
		if r.Key() == k {
			return r, true
		}
	}
	return datasets.Row{}, false
}

func orEmptyMap(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return maps.Clone(m)
}

// kernelMeta is the metadata of a table of uniperf measure KERNEL: the
// device and the protocol, so that a rerun with other settings is refused
// rather than mixed into the table.
func kernelMeta(timer *kernelTimer, opts kernelMeasureOptions) datasets.Meta {
	info := timer.dev.Info()
	host, _ := os.Hostname()
	check := "at each timed size"
	if len(opts.checkParams) > 0 {
		check = "once, at " + strings.Join(opts.checkParams, ",")
	}
	repeat := ""
	if opts.untilStable {
		// A rerun with another rule would mix rows measured to other
		// standards; the method text makes the table refuse it.
		repeat = fmt.Sprintf("Repeated until stable: further batches of %d runs until the median of the kept runs is within %g of their minimum, "+
			"at most %d runs per row. ", opts.runs, opts.stable.tolerance, opts.stable.maxRuns)
	}
	method := fmt.Sprintf("uniperf %s measure KERNEL: the kernel is generated as %s C from its .knl description and checked against "+
		"the counts reference interpreter on random inputs with poisoned outputs %s before it is timed. "+
		"Timing: device event timers, %d runs per row back to back, the first %d discarded, time_s = minimum of the rest; "+
		"inputs random in [0.5, 1.5). %sHost %s (%s/%s, %d CPUs).",
		datasets.Version, info.Backend, check, opts.runs, opts.discard, repeat, host, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	return datasets.Meta{
		DeviceName: info.Name, DeviceVendor: info.Vendor, DeviceDriver: info.Driver,
		ComputeUnits: info.ComputeUnits, ClockMHz: info.ClockMHz,
		GlobalMemBytes: info.GlobalMemBytes, LocalMemBytes: info.LocalMemBytes,
		Backend: string(info.Backend), Suite: "kernel", Method: method,
	}
}

// comparePredictions fills in the prediction of every result from the
// weights w, and warns on stderr when they were fitted on another device.
func comparePredictions(stdout io.Writer, w *fit.Weights, src models.Source, kernel string, consts map[string]int64, results []kernelTime) error {
	counter := models.NewCounterWith(src, models.WeightsBanks(w))
	for i := range results {
		t, terms, err := linear.Predict(counter, w, kernel, consts, results[i].Params)
		if err == nil {
			err = finite(kernel, results[i].Params, t, terms...)
		}
		if err != nil {
			return err
		}
		warnUnweighted(kernel, results[i].Params, terms)
		rel := (t - results[i].Measured) / results[i].Measured
		results[i].Predicted, results[i].RelErr = &t, &rel
	}
	if len(results) > 0 {
		warnOtherDevice("the weights were fitted on", w.Device, results[0].Device)
	}
	return nil
}

// printKernelTimes writes one line per parameter set: the launch, the
// measured time and, with weights, the prediction and its signed relative
// error.
func printKernelTimes(w io.Writer, results []kernelTime, table *datasets.Writer) error {
	if len(results) == 0 {
		return nil
	}
	fmt.Fprintf(w, "%s on %s\n", results[0].Kernel, results[0].Device)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	head := "params\tlocal\tglobal\tmeasured\tmedian\tmax\t"
	repeated := results[0].Stable != nil
	if repeated {
		head += "runs\t"
	}
	if results[0].Predicted != nil {
		head += "predicted\trel.err\t"
	}
	fmt.Fprintln(tw, head)
	var noisy, unstable []string
	for _, r := range results {
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t", launch.ParamString(r.Params), launch.SizeString(r.Local), launch.SizeString(r.Global),
			seconds(r.Measured), seconds(r.Median), seconds(r.Max))
		noise := datasets.Spread{Min: r.Measured, Median: r.Median}.Noise()
		if repeated {
			line += fmt.Sprintf("%d\t", len(r.Raw))
			if !*r.Stable {
				unstable = append(unstable, fmt.Sprintf("%s (median %.1f%% above the minimum after %d runs)", sizeName(r.Params), 100*noise, len(r.Raw)))
			}
		}
		if r.Predicted != nil {
			line += fmt.Sprintf("%s\t%+.3f\t", seconds(*r.Predicted), *r.RelErr)
			if math.Abs(*r.RelErr) < noise {
				line += "  (within the noise)"
			}
		}
		if noise > noisyRuns {
			noisy = append(noisy, fmt.Sprintf("%s (median %.0f%% above the minimum)", sizeName(r.Params), 100*noise))
		}
		if r.Resumed {
			line += "  (from the table)"
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if table != nil {
		fmt.Fprintf(w, "%s: %d rows\n", table.Path(), table.Len())
	}
	if len(unstable) > 0 {
		fmt.Fprintf(w, "gave up repeating at %s: the runs did not settle within --tolerance before --max-runs\n", strings.Join(unstable, ", "))
	}
	if len(noisy) > 0 {
		fmt.Fprintf(w, "warning: the runs scatter at %s: the host may be busy%s; the minimum is the figure to trust, and more --runs or a quiet host tighten it\n",
			strings.Join(noisy, ", "), loadNote())
	}
	return nil
}

// noisyRuns is the median's excess over the minimum past which measure
// warns that the runs scatter.
const noisyRuns = 0.05

// loadNote gives the host's one-minute load average against its CPUs,
// where Linux tells it.
func loadNote() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return ""
	}
	return fmt.Sprintf(" (load average %s on %d CPUs)", f[0], runtime.NumCPU())
}
