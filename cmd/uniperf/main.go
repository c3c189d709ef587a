// Command uniperf predicts GPU kernel run times from symbolic operation
// counts and per-device fitted weights (Stevens and Klöckner's unified,
// hardware-fitted model), and compares that model with the analytical
// models it grew out of.
//
// Each subcommand lives in a file of its own; see `uniperf --help`.
package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/inputfile"
)

var rootCmd = &cobra.Command{
	Use:   "uniperf",
	Short: "Predict GPU kernel run times from symbolic counts and fitted weights",
	Long: `uniperf predicts how long a GPU kernel runs, before it runs.

It counts a kernel's operations symbolically (global and local memory
accesses by size and stride class, flops by kind and type, barriers,
work-groups), measures a library of kernels on a real OpenCL or CUDA device,
fits one weight per operation kind and device, and predicts new sizes as a
dot product of weights and counts.

Exit status: 0 on success, 2 for bad input (syntax errors, unbounded sets,
missing parameters, corrupt tables), 1 for failures of the device or system.`,
	SilenceUsage:  true,
	SilenceErrors: true,
	PersistentPreRunE: func(*cobra.Command, []string) error {
		if maxInputMiB <= 0 || maxInputMiB > math.MaxInt64>>20 {
			return fmt.Errorf("--max-input %d: want a positive number of MiB", maxInputMiB)
		}
		inputfile.MaxBytes = maxInputMiB << 20
		return nil
	},
}

// maxInputMiB is --max-input, the cap on every file read.
var maxInputMiB int64

func init() {
	rootCmd.PersistentFlags().Int64Var(&maxInputMiB, "max-input", inputfile.DefaultMaxBytes>>20,
		"most MiB of any input file (tables, kernels, weights, programs)")
}

func main() {
	os.Exit(run(os.Args[1:]))
}

// stderr receives the error message of a failed command; tests replace it.
var stderr io.Writer = os.Stderr

// run executes the command line and returns the process exit status.
func run(args []string) int {
	rootCmd.SetArgs(args)
	err := rootCmd.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "uniperf: %v\n", err)
	var fail *failure
	if errors.As(err, &fail) {
		return 1
	}
	return 2
}

// failure marks an error that is not the user's input: a device, driver or
// file-system fault. Such errors exit with status 1; everything else,
// including cobra's own flag errors, is bad input and exits with status 2.
type failure struct{ err error }

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// systemFailure wraps err so that the command exits with status 1.
func systemFailure(err error) error {
	if err == nil {
		return nil
	}
	return &failure{err}
}
