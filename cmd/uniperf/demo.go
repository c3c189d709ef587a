package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/report"
)

var demoCmd = &cobra.Command{
	Use:   "demo",
	Short: "Run the whole pipeline on the measurement tables shipped in the binary",
	Long: `demo needs no device and no arguments. For every measurement table
embedded in the binary (see the datasets/ directory of the source), on its
own, it

  1. counts every measured kernel symbolically and evaluates the counts at
     each row's parameters,
  2. fits one weight per property to the measurement rows twice: freely, as
     seed 001 §4.3 does, and with uniperf's default fit (every weight
     non-negative; see go doc ./fit), and prints both sets of weights with
     the rates they imply,
  3. predicts the test kernels (finite differences, skinny matrix
     multiplication, n-body, convolution) with both fits and prints measured
     against predicted times with geometric-mean relative errors, in the
     layout of seed 001's Table 1, with the coverage of the default fit
     (uniperf fit --coverage),
  4. cross-validates both fits, leaving out one kernel class of the
     measurement rows at a time (uniperf validate --cv),
  5. compares the seeds' other models (Hong–Kim, cycle-weighted, Resios,
     Xu) with the default linear fit on the same rows, as uniperf compare
     does.

The free fit reproduces the paper's method, negative weights included; a
negative weight can make a prediction negative, which the default fit
cannot. The same steps are uniperf fit (with and without --free), uniperf
validate and uniperf export on embedded:NAME tables.`,
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
	opts  fitOptions
}{
	{"free fit", fitOptions{free: true}},
	{"default fit", fitOptions{}},
}

// demo runs the pipeline on each shipped table alone: tables measured on
// different hosts may name the same device.
func demo(out io.Writer) error {
	names := shippedTables()
	if len(names) == 0 {
		return fmt.Errorf("this binary embeds no measurement tables")
	}
	counter := models.NewCounter(nil)
	for _, name := range names {
		lt, err := loadTables([]string{name})
		if err != nil {
			return err
		}
		if err := demoTable(out, name, lt, counter); err != nil {
			return err
		}
	}
	return nil
}

// demoTable fits, validates, cross-validates and compares one table.
func demoTable(out io.Writer, name string, lt *loadedTables, counter *models.Counter) error {
	t := lt.tables[name]
	fmt.Fprintf(out, "== %s: %s, suite %s, %d rows\n\n", name, t.Meta.DeviceName, t.Meta.Suite, len(t.Rows))
	var weights []*fit.Weights
	var labels []string
	cases := make([][]report.Case, len(demoFits))
	test := models.Rows(lt.tables, datasets.RoleTest)
	for i, f := range demoFits {
		w, err := counter.CalibrateTables(lt.tables, f.opts.linear())
		if err != nil {
			return fmt.Errorf("fitting %s (%s): %w", name, f.label, err)
		}
		fmt.Fprintf(out, "%s: ", f.label)
		printDiagnostics(out, w)
		fmt.Fprintln(out)
		if cases[i], err = counter.Validate(w, test); err != nil {
			return fmt.Errorf("validating %s: %w", name, err)
		}
		weights, labels = append(weights, w), append(labels, f.label)
	}
	c, err := report.CompareWeights(weights, labels)
	if err != nil {
		return err
	}
	if err := c.WriteMarkdown(out); err != nil {
		return err
	}
	fmt.Fprintln(out)
	for i, f := range demoFits {
		fmt.Fprintf(out, "== %s, test kernels, %s: measured against predicted (seed 001 Table 1)\n\n", name, f.label)
		if err := printReport(out, cases[i]); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "== %s, coverage of the default fit\n\n", name)
	cov, err := counter.Coverage(weights[len(weights)-1], lt.tables, demoFits[len(demoFits)-1].opts.linear())
	if err != nil {
		return err
	}
	if err := cov.WriteText(out); err != nil {
		return err
	}
	fmt.Fprintf(out, "\n== %s, leave-one-class-out cross-validation (uniperf validate --cv)\n\n", name)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "fit\trows predicted\tcross-kernel geomean relative error")
	measured := len(models.Rows(lt.tables, datasets.RoleMeasurement))
	for _, f := range demoFits {
		cv, _, err := counter.CrossValidate(lt.tables, f.opts.linear())
		if err != nil {
			return err
		}
		r, err := report.NewReport(cv)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%.3f\n", f.label, len(cv), measured, r.CrossKernel(t.Meta.DeviceName))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	return demoCompare(out, lt, counter)
}

// demoCompare prints every model's geometric-mean error on the test rows
// when each is calibrated on the same measurement rows. A model whose
// device file lacks its parameters (no paper measured the H100's Hong–Kim
// constants, say) is listed with the reason instead of ending the demo.
func demoCompare(out io.Writer, lt *loadedTables, counter *models.Counter) error {
	devices, _, err := deviceRows(lt, counter, true, "")
	if err != nil {
		// A table of a device without a parameter file still fits and
		// validates above; only the analytical models need the file.
		fmt.Fprintf(out, "(the other models are not compared: %v)\n\n", err)
		return nil
	}
	fmt.Fprintf(out, "== every model on the same rows (uniperf compare; linear is the default fit)\n\n")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\tdevice\ttest rows predicted\tgeomean relative error")
	var missing []string
	for _, m := range models.Names() {
		c, err := models.Compare(devices, models.CompareOptions{Models: []string{m}, New: modelMaker(fitOptions{})})
		var missingParam *gpus.MissingError
		if errors.As(err, &missingParam) {
			missing = append(missing, fmt.Sprintf("%s: %v", m, err))
			continue
		}
		if err != nil {
			return err
		}
		for _, d := range devices {
			var errs []float64
			rows := 0
			for _, o := range c.Test {
				if o.Device == d.Device {
					rows++
					if o.Err == "" {
						errs = append(errs, o.RelErr())
					}
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%.3f\n", m, d.Device, len(errs), rows, fit.GeoMean(errs))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range missing {
		fmt.Fprintf(out, "not compared: %s\n", m)
	}
	fmt.Fprintln(out)
	return nil
}
