package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/measurekernels"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// measureOptions are the flags of `uniperf measure`.
type measureOptions struct {
	device    string
	suite     string
	out       string
	budget    time.Duration
	runs      int
	discard   int
	sizeClass string
	kernels   []string
	quiet     bool
	// The flags of uniperf measure KERNEL.
	kernel kernelMeasureOptions
}

var measureOpts measureOptions

var measureCmd = &cobra.Command{
	Use:   "measure [KERNEL] --device SELECTOR (--out FILE.arrow | --param NAME=VALUE...)",
	Short: "Time the kernel library, or one kernel of your own, on a device",
	Long: `measure has two forms.

uniperf measure KERNEL --device SELECTOR --param NAME=VALUE... times one
kernel, a .knl file of your own or a library kernel, at the parameter sets
that --param (NAME=V1,V2,... lists values) and --sweep give (every
combination; names tied in one flag, --param nx=ny=V1,V2, vary together;
a kernel whose sizes are all consts takes none and runs at its one size),
with --const NAME=VALUE bindings, and prints each set's launch grid and
measured time (the minimum of the kept runs) with the runs' median and
maximum; it warns, with the host's load, where the median lies more than
5% above the minimum, and marks a prediction whose error is smaller than
that spread as within the noise. --json gives median_s and max_s too.
--repeat-until-stable keeps timing, in further batches of --runs runs,
until the median of the kept runs lies within --tolerance (default 0.02,
2%) of their minimum, or gives up at --max-runs runs in all (default
1000, at most 10000) and says so; the table holds every run, and --json
gives stable: true or false.
The kernel is checked against the reference interpreter first (at each size,
or once at the size --check-param names: the interpreter is far slower than
the device, and a check that would interpret more than 1e8 operations is
refused with a request for a smaller --check-param). --out appends a row per
set to a measurement table (class --class, role test, variant the parameters
and a digest of the kernel's text; a rerun skips the sets already in it, and
refuses a table whose rows were measured before the file was edited).
--compare-with WEIGHTS.arrow predicts each set with the weights of uniperf
fit and prints predicted against measured, with the signed relative error
(predicted - measured) / measured. --json prints the results as a list of
objects: {"kernel", "device", "consts", "params", "local_size",
"global_size", "measured_s", "median_s", "max_s", "raw_times_s" (every
run, the discarded first), "resumed", "stable", "predicted_s",
"relative_error"}.

uniperf measure --device SELECTOR --out FILE.arrow runs a suite of the
kernel library on one OpenCL or CUDA device and appends one row per (kernel,
configuration, size, work-group size) to an Arrow measurement table,
following seed 001 §4.2:

  1. each kernel is generated as OpenCL C or CUDA C from its .knl
     description and checked against the reference interpreter on random
     inputs with poisoned outputs; a kernel that fails to compile or
     computes a wrong result is reported and never timed;
  2. the empty kernel is timed first: its time is the launch overhead;
  3. each kernel's smallest size is raised until its run time is at least
     twice that overhead; sizes that would need more than 80% of the
     device's memory, and work-group sizes beyond a kernel's limit on the
     device (256 work-items in NVIDIA's OpenCL, where --size-class small
     fits), are skipped and listed;
  4. every case runs --runs times back to back with device event timers;
     the first --discard runs are left out and the minimum of the rest is
     the row's time. Every raw time is kept in the table.

Cases are measured smallest size first across all kernels, so a --budget
that runs out leaves every kernel measured at its small sizes.

The table is rewritten atomically after every row: an interrupted run
loses at most the row in flight, and running the same command again
resumes where it stopped (rows already present are skipped). An existing
table measured on another device, suite or protocol is refused rather than
mixed; one whose rows were measured with the device at a clock more than 2%
away from the one it reports now is resumed with a warning.

Suites: "quick" (every kernel, two sizes, two work-group sizes; minutes on a
CPU), "paper" (the classes, shapes, sizes and work-group size sets of
seed 001 §4.1 and §5) and "hierarchy" (the opt-in memory-hierarchy
classes, docs/datasets.md). The work-group size class (small, med or
large, the seed's 1-D and 2-D sets) is chosen from the device's largest
work-group unless --size-class is given.

Exit status: 0 when every kernel was measured, 1 when a kernel failed its
check or the device failed (rows measured before stay in the table), 2 for
bad input (an unknown device or suite, an unwritable or corrupt table).`,
	Example: `  uniperf measure ./mykernel.knl --device pocl --param n=4096,8192 --const LX=128
  uniperf measure matmul_tiled --device cuda:0 --param n=2048 --param m=2048 --param ell=2048 --compare-with h100.weights.arrow
  uniperf measure ./stencil.knl --device opencl --sweep n=2^10..2^13 --check-param n=100 --out stencil.arrow
  uniperf measure ./stencil.knl --device opencl --param n=4096 --repeat-until-stable --tolerance 0.01
  uniperf measure --device pocl --suite quick --out mycpu.arrow
  uniperf measure --device cuda:0 --suite paper --out h100.arrow --budget 25m
  uniperf measure --device opencl --kernels global_copy,empty --runs 10 --discard 2 --out small.arrow`,
	Args: cobra.MaximumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			if f := changedFlag(cmd, kernelOnlyFlags); f != "" {
				return fmt.Errorf("--%s is for uniperf measure KERNEL: name the kernel to time", f)
			}
			return measure(cmd.OutOrStdout(), cmd.ErrOrStderr(), measureOpts)
		}
		if f := changedFlag(cmd, suiteOnlyFlags); f != "" {
			return fmt.Errorf("--%s is for measuring a suite, not one KERNEL", f)
		}
		if f := changedFlag(cmd, []string{"tolerance", "max-runs"}); f != "" && !measureOpts.kernel.untilStable {
			return fmt.Errorf("--%s is for --repeat-until-stable", f)
		}
		k := measureOpts.kernel
		k.device, k.out, k.runs, k.discard = measureOpts.device, measureOpts.out, measureOpts.runs, measureOpts.discard
		return measureKernel(cmd.OutOrStdout(), args[0], k)
	},
}

// The flags that only one form of measure takes.
var (
	suiteOnlyFlags  = []string{"suite", "budget", "size-class", "kernels", "quiet"}
	kernelOnlyFlags = []string{"param", "sweep", "const", "check-param", "compare-with", "class", "json", "repeat-until-stable", "tolerance", "max-runs"}
)

func init() {
	f := measureCmd.Flags()
	f.StringVar(&measureOpts.device, "device", "", `device selector: an ID from "uniperf devices" (opencl:0, cuda:0), a backend name, or a unique part of the device name`)
	f.StringVar(&measureOpts.suite, "suite", "quick", "suite to run: quick, paper or hierarchy (the memory-hierarchy classes, opt-in)")
	f.StringVar(&measureOpts.out, "out", "", "measurement table to create or resume (Arrow IPC file)")
	f.DurationVar(&measureOpts.budget, "budget", 0, "stop starting new cases after this much wall time, e.g. 10m (0: no limit)")
	f.IntVar(&measureOpts.runs, "runs", measurekernels.DefaultRuns, "timed runs per case")
	f.IntVar(&measureOpts.discard, "discard", measurekernels.DefaultDiscard, "leading runs left out of the minimum")
	f.StringVar(&measureOpts.sizeClass, "size-class", "", "work-group size class: small, med or large (default: from the device)")
	f.StringSliceVar(&measureOpts.kernels, "kernels", nil, "measure only these library kernels (comma-separated)")
	f.BoolVar(&measureOpts.quiet, "quiet", false, "no progress lines")
	k := &measureOpts.kernel
	f.StringArrayVar(&k.params, "param", nil, "with KERNEL: parameter values NAME=V or NAME=V1,V2,...; NAME1=NAME2=V1,... ties names (repeatable)")
	f.StringArrayVar(&k.sweeps, "sweep", nil, "with KERNEL: parameter range NAME=2^A..2^B, NAME=A..B or NAME=A..B:STEP; NAME1=NAME2=... ties names (repeatable)")
	f.StringArrayVar(&k.consts, "const", nil, "with KERNEL: const binding NAME=VALUE (repeatable)")
	f.StringArrayVar(&k.checkParams, "check-param", nil, "with KERNEL: check against the interpreter once, at these parameters NAME=VALUE (repeatable), instead of at every timed size")
	f.StringVar(&k.compareWith, "compare-with", "", "with KERNEL: weight table of uniperf fit; print predicted against measured")
	f.BoolVar(&k.strict, "strict", false, "with --compare-with: fail on a property the weights have no weight for, rather than price it at zero with a warning")
	f.StringVar(&k.class, "class", "", "with KERNEL and --out: the class column of the rows, by which validate and compare group them (default: the kernel's name)")
	f.BoolVar(&k.json, "json", false, "with KERNEL: print JSON")
	f.BoolVar(&k.untilStable, "repeat-until-stable", false, "with KERNEL: time further batches of --runs runs until the kept runs' median is within --tolerance of their minimum")
	f.Float64Var(&k.stable.tolerance, "tolerance", 0.02, "with --repeat-until-stable: the median's largest excess over the minimum, a fraction")
	f.IntVar(&k.stable.maxRuns, "max-runs", defaultMaxRuns, "with --repeat-until-stable: the most runs per parameter set, the discarded included")
	rootCmd.AddCommand(measureCmd)
}

// measure runs the measurement that opts describe, printing progress to
// progress and the summary to stdout.
func measure(stdout, progress io.Writer, opts measureOptions) error {
	if opts.device == "" {
		return fmt.Errorf("--device is required: see uniperf devices for the devices present")
	}
	if opts.out == "" {
		return fmt.Errorf("--out is required: the table to create or resume")
	}
	if err := checkRuns(opts.runs, opts.discard); err != nil {
		return err
	}
	s, err := suite.Load(opts.suite)
	if err != nil {
		return fmt.Errorf("--suite %s: %w", opts.suite, err)
	}
	switch opts.sizeClass {
	case "", "small", "med", "large":
	default:
		return fmt.Errorf("--size-class %q: want small, med or large", opts.sizeClass)
	}
	dev, err := devices.Open(opts.device)
	if err != nil {
		var sel *devices.SelectError
		if errors.As(err, &sel) {
			return fmt.Errorf("--device %s: %w", opts.device, err)
		}
		return systemFailure(fmt.Errorf("--device %s: %w", opts.device, err))
	}
	defer dev.Close()

	mopts := measurekernels.Options{
		Suite: s, Generate: codegen.Generate, Runs: opts.runs, Discard: opts.discard,
		Budget: opts.budget, SizeClass: opts.sizeClass, Kernels: opts.kernels,
	}
	if !opts.quiet {
		mopts.Progress = progress
	}
	if err := mopts.Validate(); err != nil {
		return err
	}
	meta := measurekernels.Meta(dev.Info(), mopts)
	w, err := datasets.OpenWriter(opts.out, meta)
	if err != nil {
		return tableError(err)
	}
	defer w.Close()
	warnClock(w, meta)
	rep, err := measurekernels.Measure(dev, w, mopts)
	if rep != nil {
		printMeasureReport(stdout, w, rep)
	}
	if err != nil {
		return systemFailure(fmt.Errorf("%w (the %d rows measured so far are in %s; run the same command again to resume)", err, w.Len(), w.Path()))
	}
	if len(rep.Failures) > 0 {
		return systemFailure(fmt.Errorf("%d kernels failed and were not timed (see above)", len(rep.Failures)))
	}
	return nil
}

// printMeasureReport summarizes a run: rows, skips, failures, wall time
// and harness efficiency.
func printMeasureReport(w io.Writer, tw *datasets.Writer, rep *measurekernels.Report) {
	fmt.Fprintf(w, "%s: %d rows measured in this run, %d already present, %d in the table\n", tw.Path(), rep.Rows, rep.Resumed, tw.Len())
	if rep.Overhead > 0 {
		fmt.Fprintf(w, "launch overhead (empty kernel): %.1f µs\n", rep.Overhead*1e6)
	}
	fmt.Fprintf(w, "wall time %s, %.1f%% of it inside timed kernels\n", rep.Wall.Round(time.Millisecond), 100*rep.Efficiency())
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(w, "not measured (%d):\n", len(rep.Skipped))
		for _, s := range rep.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "FAILED: %s\n", strings.ReplaceAll(f.Error(), "\n", "\n  "))
	}
}
