package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/linear"
	"github.com/uniperf/uniperf/fit/models"
)

var demoCmd = &cobra.Command{
	Use:   "demo",
	Short: "Run the whole pipeline on the measurement tables shipped in the binary",
	Long: `demo needs no device and no arguments. For every device with a measurement
table embedded in the binary (see the datasets/ directory of the source) it

  1. counts every measured kernel symbolically and evaluates the counts at
     each row's parameters,
  2. fits one weight per property to the measurement rows twice: freely, as
     seed 001 §4.3 does, and with every weight constrained to be
     non-negative, and prints both sets of weights with the rates they imply,
  3. predicts the test kernels (finite differences, skinny matrix
     multiplication, n-body, convolution) with both fits and prints measured
     against predicted times with geometric-mean relative errors, in the
     layout of seed 001's Table 1,
  4. compares the seeds' other models (Hong–Kim, cycle-weighted, Resios,
     Xu) with the non-negative linear fit on the same rows, as uniperf
     compare does.

The free fit reproduces the paper's method, negative weights included; a
negative weight can make a prediction negative, which the non-negative fit
cannot. The same steps are uniperf fit (with and without --nonnegative),
uniperf validate and uniperf export on embedded:NAME tables.`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		return demo(cmd.OutOrStdout())
	},
}

func init() {
	rootCmd.AddCommand(demoCmd)
}

// demoFits are the fits the demo compares, by the label of its columns.
var demoFits = []struct {
	label string
	opts  linear.Options
}{
	{"free fit", linear.Options{}},
	{"non-negative", linear.Options{Fit: fit.Options{NonNegative: true}}},
}

func demo(out io.Writer) error {
	names := shippedTables()
	if len(names) == 0 {
		return fmt.Errorf("this binary embeds no measurement tables")
	}
	lt, err := loadTables(names)
	if err != nil {
		return err
	}
	groups := byDevice(lt)
	counter := linear.NewCounter(nil)
	all := make([][]fit.Case, len(demoFits))
	for _, device := range slices.Sorted(maps.Keys(groups)) {
		tables := tablesOf(lt, groups[device])
		fmt.Fprintf(out, "== %s (%s)\n\n", device, strings.Join(groups[device], ", "))
		var weights []*fit.Weights
		var labels []string
		for i, f := range demoFits {
			w, err := counter.Train(tables, f.opts)
			if err != nil {
				return fmt.Errorf("fitting %s (%s): %w", device, f.label, err)
			}
			fmt.Fprintf(out, "%s: ", f.label)
			printDiagnostics(out, w)
			fmt.Fprintln(out)
			cases, err := counter.Validate(w, linear.Rows(tables, datasets.RoleTest))
			if err != nil {
				return fmt.Errorf("validating %s: %w", device, err)
			}
			all[i] = append(all[i], cases...)
			weights, labels = append(weights, w), append(labels, f.label)
		}
		c, err := fit.Compare(weights, labels)
		if err != nil {
			return err
		}
		if err := c.WriteMarkdown(out); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	for i, f := range demoFits {
		fmt.Fprintf(out, "== test kernels, %s: measured against predicted (seed 001 Table 1)\n\n", f.label)
		if err := printReport(out, all[i]); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	return demoCompare(out, lt, counter)
}

// demoCompare prints every model's geometric-mean error on the test rows
// when each is calibrated on the same measurement rows.
func demoCompare(out io.Writer, lt *loadedTables, counter *linear.Counter) error {
	names := models.Names()
	devices, _, err := deviceRows(lt, counter, true, "")
	if err != nil {
		// A table of a device without a parameter file still fits and
		// validates above; only the analytical models need the file.
		fmt.Fprintf(out, "(the other models are not compared: %v)\n", err)
		return nil
	}
	c, err := models.Compare(devices, models.CompareOptions{Models: names, New: modelMaker(fitOptions{nonNegative: true})})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "== every model on the same rows (uniperf compare; linear is the non-negative fit)\n\n")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tdevice\ttest rows predicted\tgeomean relative error")
	for _, d := range devices {
		for _, m := range names {
			var errs []float64
			rows := 0
			for _, o := range c.Test {
				if o.Model == m && o.Device == d.Device {
					rows++
					if o.Err == "" {
						errs = append(errs, o.RelErr())
					}
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%.3f\n", m, d.Device, len(errs), rows, fit.GeoMean(errs))
		}
	}
	return tw.Flush()
}
