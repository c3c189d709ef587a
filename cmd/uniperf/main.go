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
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets/inputfile"
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

Exit status:
  0    success
  2    bad input or usage: syntax errors (with file:line:col, or
       SET:line:col), unbounded sets, missing parameters, a launch grid
       empty at the parameters a time is predicted at, corrupt tables (a
       checksum that does not match, a string that is not UTF-8), results
       that are not finite numbers (weights near 1e308 times counts, a fit
       of times near MaxFloat64, every weight zero), paths that name no
       file (missing, a file where a directory should be, a name too
       long), inputs that are not regular files or exceed --max-input,
       flags out of range, unknown commands or help topics; an output
       (--out, --plot) that is one of the command's inputs (the same file,
       through any link) or another of its outputs, a symbolic link
       (/dev/stdout among them: leave --out out to write to standard
       output), not a regular file, or in a directory that does not exist:
       outputs replace their path, so none is written through a link or
       over a device
  1    a fault of the device, its driver or the system (a failed build or
       launch, a wrong result from the device, a full disk, an I/O error)
  130  interrupted (SIGINT; 143 for SIGTERM): a measurement keeps every row
       written and the same command resumes it
  141  standard output closed early (uniperf table T --format csv | head):
       uniperf stops writing, quietly; files it writes are complete`,
	SilenceUsage:  true,
	SilenceErrors: true,
	PersistentPreRunE: func(*cobra.Command, []string) error {
		n, err := parseInputSize(maxInput)
		if err != nil {
			return err
		}
		inputfile.MaxBytes = n
		return nil
	},
}

// maxInput is --max-input, the cap on every file read.
var maxInput string

func init() {
	rootCmd.PersistentFlags().StringVar(&maxInput, "max-input", fmt.Sprint(inputfile.DefaultMaxBytes>>20),
		"most MiB of any input file (tables, kernels, weights, programs, standard input), or a size with its unit: 4096B, 512KiB, 2GiB")
}

func main() {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	// Asked for, SIGPIPE no longer kills the process on a write to a closed
	// standard output: the write fails with EPIPE, and run exits with
	// exitClosedPipe and no message.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	go func() {
		s := <-signals
		fmt.Fprintf(os.Stderr, "uniperf: interrupted (%v)\n", s)
		// Tables are complete files after every row, so exiting here loses
		// at most the row in flight, as a kill would.
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
	stop := startProfile(os.Getenv("UNIPERF_CPUPROFILE"))
	code := run(os.Args[1:])
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole run to path, where set
// (the environment variable UNIPERF_CPUPROFILE, for uniperf's developers:
// where a measurement on a lent GPU spends the time outside its kernels);
// the returned function ends it.
func startProfile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "uniperf: UNIPERF_CPUPROFILE: %v (no profile is written)\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// stderr receives the error message of a failed command; tests replace it.
var stderr io.Writer = os.Stderr

// run executes the command line and returns the process exit status.
func run(args []string) int {
	strictCommands(args)
	// No output of the command may replace one of its inputs.
	defer inputfile.Guard()()
	rootCmd.SetArgs(args)
	// Commands print with fmt and do not all look at write errors; a full
	// disk or a closed pipe must not exit 0 with the output lost.
	out := &checkedWriter{w: rootCmd.OutOrStdout()}
	rootCmd.SetOut(out)
	defer rootCmd.SetOut(out.w)
	err := rootCmd.Execute()
	if errors.Is(out.err, syscall.EPIPE) {
		return exitClosedPipe
	}
	if err == nil && out.err != nil {
		err = systemFailure(fmt.Errorf("writing the output: %w", out.err))
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "uniperf: %v\n", err)
	var fail *failure
	if errors.As(err, &fail) || systemErrno(err) {
		return 1
	}
	return 2
}

// exitClosedPipe is the status when standard output was closed early,
// 128 + SIGPIPE: what a shell reports for a program the signal killed.
const exitClosedPipe = 141

// checkedWriter keeps the first error of the writes to w.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// systemErrno reports errors of the system, whatever command met them: a
// full disk or quota, an I/O error, a read-only file system, a closed pipe.
func systemErrno(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EIO, syscall.EROFS, syscall.EPIPE} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// strictCommands makes every way of asking for something that does not
// exist bad input: cobra answers "uniperf help nosuch", "uniperf kernels
// nosuch" and "uniperf completion nosh" with help and status 0.
func strictCommands(args []string) {
	rootCmd.SetHelpCommand(helpCmd)
	rootCmd.InitDefaultCompletionCmd(args...)
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.HasSubCommands() && !sub.Runnable() {
				sub.Args = cobra.NoArgs
				sub.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
			}
			walk(sub)
		}
	}
	walk(rootCmd)
}

var helpCmd = &cobra.Command{
	Use:   "help [command]",
	Short: "Help about any command",
	RunE: func(c *cobra.Command, args []string) error {
		cmd, rest, err := c.Root().Find(args)
		if err != nil || len(rest) > 0 {
			return fmt.Errorf("unknown help topic %q: see uniperf --help", strings.Join(args, " "))
		}
		return cmd.Help()
	},
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
