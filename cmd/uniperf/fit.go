package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/linear"
)

// fitOptions are the flags of `uniperf fit`.
type fitOptions struct {
	out         string
	nonNegative bool
	minNorm     bool
	integer     bool
}

var fitOpts fitOptions

var fitCmd = &cobra.Command{
	Use:   "fit TABLE.arrow... --out WEIGHTS.arrow",
	Short: "Fit one weight per property to a device's measurement tables",
	Long: `fit counts the kernel of every measurement row (role "measurement") at the
row's parameters and finds the weights α (seconds per operation) that
minimise the squared relative error of seed 001 §4.3,

  Σ_rows (1 − Σ_i α_i p_i / T)²,

by a column-scaled singular value decomposition. Test rows (role "test")
are left for uniperf validate. All tables must come from one device.
A table is a path or embedded:NAME for a table shipped in the binary.

Properties that are zero in every row are dropped and listed. Properties
that the measurement set cannot tell apart (collinear columns) make the fit
fail with their names and the condition number, because any split of the
time between them would be arbitrary; --min-norm accepts the minimum-norm
solution instead. --nonnegative constrains every weight to be >= 0
(Lawson–Hanson), since the paper's free fit produced negative weights.
Integer operations are counted but left out of the fit, as in seed 001,
unless --integer is given.

The weight table (Arrow IPC) records the device, the weights, the fit
diagnostics (rows, rank, residual, condition number, per-class training
error), the uniperf version and the SHA-256 of every input table.`,
	Example: `  uniperf fit embedded:pocl-cpu.arrow --out pocl.weights.arrow
  uniperf fit h100-cuda.arrow --nonnegative --out h100.weights.arrow`,
	Args: cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return fitTables(cmd.OutOrStdout(), args, fitOpts)
	},
}

func init() {
	f := fitCmd.Flags()
	f.StringVar(&fitOpts.out, "out", "", "weight table to write (Arrow IPC file)")
	f.BoolVar(&fitOpts.nonNegative, "nonnegative", false, "constrain every weight to be non-negative")
	f.BoolVar(&fitOpts.minNorm, "min-norm", false, "accept collinear properties with the minimum-norm solution")
	f.BoolVar(&fitOpts.integer, "integer", false, "fit integer operations too")
	rootCmd.AddCommand(fitCmd)
}

func (o fitOptions) linear() linear.Options {
	return linear.Options{Fit: fit.Options{NonNegative: o.nonNegative, MinNorm: o.minNorm}, Integer: o.integer}
}

func fitTables(stdout io.Writer, args []string, opts fitOptions) error {
	if opts.out == "" {
		return fmt.Errorf("--out is required: the weight table to write")
	}
	lt, err := loadTables(args)
	if err != nil {
		return err
	}
	w, err := train(lt, opts)
	if err != nil {
		return err
	}
	if err := fit.WriteWeights(opts.out, w); err != nil {
		return systemFailure(err)
	}
	if err := printFit(stdout, w); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", opts.out)
	return nil
}

// train fits the weights of the loaded tables and records their inputs.
func train(lt *loadedTables, opts fitOptions) (*fit.Weights, error) {
	w, err := linear.NewCounter(nil).Train(lt.tables, opts.linear())
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
	c, err := fit.Compare([]*fit.Weights{w}, nil)
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
	fmt.Fprintf(out, "training error (geometric mean of |pred - meas| / meas) per kernel class:\n")
	for _, class := range slices.Sorted(maps.Keys(d.ClassError)) {
		fmt.Fprintf(out, "  %-28s %.3f\n", class, d.ClassError[class])
	}
	if !math.IsNaN(d.TrainingError) {
		fmt.Fprintf(out, "  %-28s %.3f\n", "all classes", d.TrainingError)
	}
}
