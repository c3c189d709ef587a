package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/report"
	"github.com/uniperf/uniperf/fit/report/plots"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// exportOptions are the flags of `uniperf export`.
type exportOptions struct {
	format string
	out    string
	plot   string
	json   bool
}

var exportOpts exportOptions

var exportCmd = &cobra.Command{
	Use:   "export WEIGHTS.arrow...",
	Short: "Compare the weight tables of several devices side by side",
	Long: `export reads fitted weight tables (written by uniperf fit) and prints their
weights side by side, one row per property and a weight and a rate column
per device, in the manner of seed 001's Table 2 for many devices.

Next to each weight (seconds per operation) it prints the figure the weight
implies: sustained GB/s for global and local loads and stores (bytes per
access of the property's data type / weight), GFLOP/s for flop.* and GOP/s
for int.* properties, and ns per barrier or work-group and µs per launch for
the overheads. A weight that is negative or zero implies no rate, and the
rate column says so; global.minldst.* is a correction term without a rate.

Formats: markdown (default), csv (wide: weight, rate and note per device),
json (also --json: {"devices": [{"label", "device", "model",
"uniperf_version", "property_set", "diagnostics"}], "properties":
[{"property", "rate_unit", "values": [{"weight_s", "rate", "note"} or null
per device]}]}), and arrow (an Arrow IPC file in long form, one row per device and
property; needs --out). Tables may hold different properties (PoCL's
prices integer operations, which the GPU tables' suites did not measure):
a property a table has no weight for is an empty cell, or null; a
property a table ties to another (uniperf fit --help: ties) has that
one's weight, with the note "tied to ...". The CSV holds weights only:
the grid fill and bank layout a weight table records are not in it, so
that predict and validate with --weights FILE.csv leave the grid fill
out (predict from the .arrow table to keep it). Weights
of different models are refused. Columns are labelled by device; a device that appears twice is
labelled with its file name as well.

--plot FILE.svg also draws the rates per device as grouped bars.`,
	Example: `  uniperf export titanx.arrow k40.arrow fury.arrow
  uniperf export *.arrow --format csv --out weights.csv
  uniperf export a.arrow b.arrow --format arrow --out both.arrow --plot rates.svg`,
	Args: cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return exportWeights(cmd.OutOrStdout(), args, exportOpts)
	},
}

func init() {
	exportCmd.Flags().StringVar(&exportOpts.format, "format", "markdown", "output format: markdown, csv, json or arrow")
	exportCmd.Flags().BoolVar(&exportOpts.json, "json", false, "print JSON (--format json)")
	exportCmd.Flags().StringVar(&exportOpts.out, "out", "", "write to this file instead of standard output")
	exportCmd.Flags().StringVar(&exportOpts.plot, "plot", "", "also draw the rates per device to this SVG file")
	rootCmd.AddCommand(exportCmd)
}

// exportWeights writes the comparison of the weight tables at paths.
func exportWeights(stdout io.Writer, paths []string, opts exportOptions) error {
	if err := distinctOutputs("out", opts.out, "plot", opts.plot); err != nil {
		return err
	}
	if opts.json {
		if opts.format != "markdown" && opts.format != "json" {
			return fmt.Errorf("--json is --format json; it does not go with --format %s", opts.format)
		}
		opts.format = "json"
	}
	write := map[string]func(*report.WeightComparison, io.Writer) error{
		"markdown": (*report.WeightComparison).WriteMarkdown,
		"csv":      (*report.WeightComparison).WriteCSV,
		"json":     (*report.WeightComparison).WriteJSON,
		"arrow":    (*report.WeightComparison).WriteArrow,
	}[opts.format]
	if write == nil {
		return fmt.Errorf("--format %q: want markdown, csv, json or arrow", opts.format)
	}
	if opts.format == "arrow" && opts.out == "" {
		return fmt.Errorf("--format arrow writes a binary file: give --out FILE.arrow")
	}
	tables := make([]*fit.Weights, len(paths))
	for i, p := range paths {
		w, err := loadWeights(p)
		if err != nil {
			return err
		}
		tables[i] = w
	}
	c, err := report.CompareWeights(tables, exportLabels(tables, paths))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := write(c, &buf); err != nil {
		return systemFailure(err)
	}
	if err := writeOutput(stdout, opts.out, buf.Bytes()); err != nil {
		return err
	}
	if opts.plot != "" {
		var svg bytes.Buffer
		if err := plots.Rates(&svg, c); err != nil {
			return err
		}
		if err := writeOutput(nil, opts.plot, svg.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// exportLabels labels each table by its device, adding the file name where
// a device occurs more than once.
func exportLabels(tables []*fit.Weights, paths []string) []string {
	count := make(map[string]int)
	for _, t := range tables {
		count[t.Device]++
	}
	labels := make([]string, len(tables))
	for i, t := range tables {
		labels[i] = t.Device
		if count[t.Device] > 1 {
			labels[i] = fmt.Sprintf("%s (%s)", t.Device, filepath.Base(paths[i]))
		}
	}
	return labels
}

// loadWeights reads a weight table. A missing or malformed file is bad
// input (exit 2); any other read failure is the system's (exit 1). A weight
// table without a checksum is read with a note, as a table is.
func loadWeights(path string) (*fit.Weights, error) {
	// embedded: names a measurement table, never weights: say what to
	// run rather than "stat embedded:...: no such file".
	if strings.HasPrefix(path, embeddedPrefix) {
		return nil, fmt.Errorf("%s is a measurement table, not weights: fit it first (uniperf fit %s --out W.arrow) and give W.arrow", path, path)
	}
	w, unchecked, err := weightsio.ReadWeightsFile(path)
	if unchecked {
		noteUnchecked(path)
	}
	return w, readError(err)
}
