package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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
}

var measureOpts measureOptions

var measureCmd = &cobra.Command{
	Use:   "measure --device SELECTOR --out FILE.arrow",
	Short: "Time the kernel library on a device into a measurement table",
	Long: `measure runs a suite of the kernel library on one OpenCL or CUDA device and
appends one row per (kernel, configuration, size, work-group size) to an
Arrow measurement table, following seed 001 §4.2:

  1. each kernel is generated as OpenCL C or CUDA C from its .knl
     description and checked against the reference interpreter on random
     inputs with poisoned outputs; a kernel that fails to compile or
     computes a wrong result is reported and never timed;
  2. the empty kernel is timed first: its time is the launch overhead;
  3. each kernel's smallest size is raised until its run time is at least
     twice that overhead, and sizes that would need more than 80% of the
     device's memory are skipped;
  4. every case runs --runs times back to back with device event timers;
     the first --discard runs are left out and the minimum of the rest is
     the row's time. Every raw time is kept in the table.

Cases are measured smallest size first across all kernels, so a --budget
that runs out leaves every kernel measured at its small sizes.

The table is rewritten atomically after every row: an interrupted run
loses at most the row in flight, and running the same command again
resumes where it stopped (rows already present are skipped). An existing
table measured on another device, suite or protocol is refused rather than
mixed.

Suites: "quick" (every kernel, two sizes, two work-group sizes; minutes on a
CPU) and "paper" (the classes, shapes, sizes and work-group size sets of
seed 001 §4.1 and §5). The work-group size class (small, med or large, the
seed's 1-D and 2-D sets) is chosen from the device's largest work-group
unless --size-class is given.

Exit status: 0 when every kernel was measured, 1 when a kernel failed its
check or the device failed (rows measured before stay in the table), 2 for
bad input (an unknown device or suite, an unwritable or corrupt table).`,
	Example: `  uniperf measure --device pocl --suite quick --out datasets/pocl-cpu.arrow
  uniperf measure --device cuda:0 --suite paper --out h100.arrow --budget 25m
  uniperf measure --device opencl --kernels global_copy,empty --runs 10 --discard 2 --out small.arrow`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		return measure(cmd.OutOrStdout(), cmd.ErrOrStderr(), measureOpts)
	},
}

func init() {
	f := measureCmd.Flags()
	f.StringVar(&measureOpts.device, "device", "", `device selector: an ID from "uniperf devices" (opencl:0, cuda:0), a backend name, or a unique part of the device name`)
	f.StringVar(&measureOpts.suite, "suite", "quick", "suite to run: quick or paper")
	f.StringVar(&measureOpts.out, "out", "", "measurement table to create or resume (Arrow IPC file)")
	f.DurationVar(&measureOpts.budget, "budget", 0, "stop starting new cases after this much wall time, e.g. 10m (0: no limit)")
	f.IntVar(&measureOpts.runs, "runs", measurekernels.DefaultRuns, "timed runs per case")
	f.IntVar(&measureOpts.discard, "discard", measurekernels.DefaultDiscard, "leading runs left out of the minimum")
	f.StringVar(&measureOpts.sizeClass, "size-class", "", "work-group size class: small, med or large (default: from the device)")
	f.StringSliceVar(&measureOpts.kernels, "kernels", nil, "measure only these library kernels (comma-separated)")
	f.BoolVar(&measureOpts.quiet, "quiet", false, "no progress lines")
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
	w, err := datasets.OpenWriter(opts.out, measurekernels.Meta(dev.Info(), mopts))
	if err != nil {
		return tableError(err)
	}
	defer w.Close()
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

// tableError classifies an error opening a table: a corrupt or mismatched
// table and a path that cannot be created are bad input; other file-system
// failures are the system's.
func tableError(err error) error {
	var te *datasets.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &te):
		return err
	case errors.As(err, &pe) && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, os.ErrExist)):
		return err
	}
	return systemFailure(err)
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
		fmt.Fprintf(w, "skipped %d cases:\n", len(rep.Skipped))
		for _, s := range rep.Skipped {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "FAILED: %s\n", strings.ReplaceAll(f.Error(), "\n", "\n  "))
	}
}
