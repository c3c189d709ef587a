package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/report/plots"
)

// compareOptions are the flags of `uniperf compare`.
type compareOptions struct {
	models     string
	cv         bool
	plot       string
	deviceFile string
	out        string
	fit        fitOptions // the linear model's
	json       bool
}

var compareOpts compareOptions

var compareCmd = &cobra.Command{
	Use:   "compare TABLE.arrow... [--models linear,hongkim,cycles] [--cv]",
	Short: "Compare performance models on the same measurements",
	Long: `compare calibrates every selected model on the same measurement rows (role
"measurement") of each device's tables and predicts the same test rows
(role "test"), then prints in Markdown the geometric-mean relative error
|predicted − measured| / measured of each model over all test rows, per
kernel class and per device. A table is a path or embedded:NAME.

The models (uniperf compare --models with a list; by default the first three):

  linear   seed 001's unified model: one weight per property, fitted by
           relative-error least squares (uniperf's default fit; --free,
           --min-norm and --no-integer set it up as in uniperf fit)
  hongkim  Hong and Kim's MWP–CWP model (seed 002) on per-thread counts;
           its three memory parameters are fitted to the measurement rows;
           on a GPU by default only the share of the global bytes that
           the hierarchy counts place in DRAM is DRAM traffic, the rest
           issues as instructions (uniperf's extension, which cross-
           validation on the measurement rows prefers there; on a CPU it
           prefers the paper's); --hongkim-traffic paper prices every
           access as DRAM traffic, as the paper does
  cycles   the cycle-weighted model (seed 004): cycle weights per
           instruction class and one adjusting weight per kernel from one
           measured size; kernels without rows of their own get the
           median of the others' weights (those with gathers, scatters
           or atomics left out), each at its smallest or largest size,
           whichever leave-one-class-out cross-validation on the
           measurement rows prefers (the summary gives both errors); on
           a GPU only the share of the global bytes that the hierarchy
           counts place in DRAM is priced at the DRAM weight
  resios   per-instruction latency and throughput with ILP from the
           expression DAG and a warp-level simulation (seed 000)
  xu       occupancy and the execution-time model of seed 003
  hierarchy
           seed 001's fitted weights on counts with reused loads left
           out and DRAM and L2 traffic terms (docs/model.md)

The analytical models need the device's parameters (clock, SM count,
limits, bandwidth, Hong–Kim's issue cycles, cycle weights). They come from
the device file shipped for the tables' device name (see the fit/gpus
package), or from --device-file for tables of one device. A model that
cannot run on a device (its file lacks a parameter the model needs) is
listed under "Not compared" with the parameter and the file, while the
other models are compared; when no model can run, that is an error.

--cv adds leave-one-kernel-class-out errors: each class of the measurement
rows is predicted by models calibrated on the other classes. When
"cycles" is among the models, the report also shows how its error on a
kernel's sizes moves with the size its adjusting weight is calibrated on.
Rows a model cannot predict (a property the linear fit never saw, a kernel
without instructions) are listed with the reason and left out of that
model's errors; a column "on the rows every model predicted" compares the
models on the same rows.

--plot FILE.svg draws predicted against measured time per model (and the
cross-validation in a second panel). --out FILE.md writes the report to a
file.

--json prints one object instead of the report: {"models", "calibrated":
[{"model", "device", "summary"}], "not_compared", "test": [cases],
"cv": [cases], "cv_skipped", "notes"}, each case as in uniperf validate
--json (with its "model", and the runs' spread where the tables hold it),
times at full precision.`,
	Example: `  uniperf compare embedded:pocl-epyc-quick.arrow
  uniperf compare h100.arrow --models linear,hongkim --cv --plot models.svg
  uniperf compare mygpu.arrow --device-file mygpu.json`,
	Args: cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return compareModels(cmd.OutOrStdout(), args, compareOpts)
	},
}

func init() {
	f := compareCmd.Flags()
	f.StringVar(&compareOpts.models, "models", "linear,hongkim,cycles", "comma-separated models to compare")
	f.BoolVar(&compareOpts.cv, "cv", false, "add leave-one-kernel-class-out errors")
	f.StringVar(&compareOpts.plot, "plot", "", "draw predicted against measured time to this SVG file")
	f.StringVar(&compareOpts.deviceFile, "device-file", "", "device parameter file (shipped name or JSON, see fit/gpus) for tables of one device")
	f.StringVar(&compareOpts.out, "out", "", "write the report to this file instead of standard output")
	f.BoolVar(&compareOpts.json, "json", false, "print every model's predictions as JSON instead of the report")
	f.BoolVar(&compareOpts.fit.free, "free", false, "fit the linear model freely, as seed 001 does, instead of by uniperf's default fit")
	f.BoolVar(&compareOpts.fit.minNorm, "min-norm", false, "accept collinear properties in the linear fit")
	f.BoolVar(&compareOpts.fit.noInteger, "no-integer", false, "leave integer operations out of the linear model's fit")
	f.BoolVar(&compareOpts.fit.noFill, "no-grid-fill", false, "fit the linear model without the grid-fill factor")
	f.BoolVar(&compareOpts.fit.oneSaturation, "one-saturation", false, "one grid-fill saturation for every property, none apart for the latency-bound or the coalesced global ones")
	f.BoolVar(&compareOpts.fit.noTies, "no-ties", false, "fit the linear model with every weight apart, no filled strided accesses tied to stride-1 ones")
	f.StringSliceVar(&compareOpts.fit.fillFrom, "fill-from", nil, "the linear model's fit: "+fillFromUsage)
	f.StringVar(&compareOpts.fit.hongkimTraffic, "hongkim-traffic", "", hongkimTrafficUsage)
	rootCmd.AddCommand(compareCmd)
}

func compareModels(stdout io.Writer, args []string, opts compareOptions) error {
	if err := distinctOutputs("out", opts.out, "plot", opts.plot); err != nil {
		return err
	}
	names, err := modelList(opts.models)
	if err != nil {
		return err
	}
	if err := opts.fit.checkHongkimTraffic(names...); err != nil {
		return err
	}
	lt, err := loadTables(args)
	if err != nil {
		return err
	}
	needDevice := false
	for _, n := range names {
		needDevice = needDevice || n != "linear"
	}
	devices, notes, err := deviceRows(lt, nil, needDevice, opts.deviceFile)
	if err != nil {
		return err
	}
	if opts.fit, err = opts.fit.withFillRows(lt); err != nil {
		return err
	}
	c, err := models.Compare(devices, models.CompareOptions{Models: names, CV: opts.cv, New: modelMaker(opts.fit)})
	if err != nil {
		return err
	}
	var report bytes.Buffer
	if opts.json {
		withSpread(c.Test, lt)
		withSpread(c.CV, lt)
		calibrated := make([]calibratedJSON, len(c.Calibrated))
		for i, cal := range c.Calibrated {
			calibrated[i] = calibratedJSON{cal.Model.Name(), cal.Device, cal.Model.Summary()}
		}
		err = writeJSON(&report, comparisonJSON{Models: names, Calibrated: calibrated, NotCompared: nonNil(c.NotCompared),
			Test: casesJSON(c.Test), CV: casesJSON(c.CV), CVSkipped: nonNil(c.CVSkipped), Notes: nonNil(notes)})
	} else {
		for _, n := range notes {
			fmt.Fprintf(&report, "> note: %s\n\n", n)
		}
		err = c.WriteMarkdown(&report)
	}
	if err != nil {
		return systemFailure(err)
	}
	if err := writeOutput(stdout, opts.out, report.Bytes()); err != nil {
		return err
	}
	if opts.plot != "" {
		var svg bytes.Buffer
		if err := plots.Comparison(&svg, c.Models, c.Test, c.CV); err != nil {
			return err
		}
		return writeOutput(nil, opts.plot, svg.Bytes())
	}
	return nil
}

// modelList parses --models: registered names, each once.
func modelList(list string) ([]string, error) {
	var names []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if _, err := models.New(n); err != nil {
			return nil, fmt.Errorf("--models: %w", err)
		}
		if slices.Contains(names, n) {
			return nil, fmt.Errorf("--models: %s is given twice", n)
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--models is empty: give some of %s", strings.Join(models.Names(), ", "))
	}
	return names, nil
}
