package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/linear"
)

// validateOptions are the flags of `uniperf validate`.
type validateOptions struct {
	weights string
	cv      bool
	role    string
	plot    string
	fit     fitOptions // for --cv
}

var validateOpts validateOptions

var validateCmd = &cobra.Command{
	Use:   "validate --weights WEIGHTS.arrow TABLE.arrow...",
	Short: "Compare predicted with measured run times (seed 001 Table 1)",
	Long: `validate predicts every test row (role "test") of the measurement tables with
the weights and prints seed 001's Table 1 for the device: measured and
predicted time per test kernel and size, the geometric mean of the
relative error |predicted − measured| / measured per kernel, and its
geometric mean across kernels. --role measurement or --role all validates
other rows. A table is a path or embedded:NAME.

Relative errors below 0.001 enter the geometric means as 0.001 (rounded
timings can give an error of exactly zero, which would make any geometric
mean zero); such cases are marked with an asterisk.

--cv needs no weights: it leaves out one kernel class of the measurement
rows at a time, fits on the other classes, and predicts the class left out,
which shows how well the measurement set prices kernels it has not seen.
--nonnegative, --min-norm and --integer set up those fits as in uniperf fit.

--plot FILE.svg draws predicted against measured time, log-log, with the
diagonal.`,
	Example: `  uniperf validate --weights pocl.weights.arrow embedded:pocl-cpu.arrow
  uniperf validate --cv embedded:pocl-cpu.arrow --plot cv.svg`,
	Args: cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return validate(cmd.OutOrStdout(), args, validateOpts)
	},
}

func init() {
	f := validateCmd.Flags()
	f.StringVar(&validateOpts.weights, "weights", "", "weight table written by uniperf fit")
	f.BoolVar(&validateOpts.cv, "cv", false, "leave-one-kernel-class-out cross-validation on the measurement rows")
	f.StringVar(&validateOpts.role, "role", datasets.RoleTest, "rows to validate: test, measurement or all")
	f.StringVar(&validateOpts.plot, "plot", "", "draw predicted against measured time to this SVG file")
	f.BoolVar(&validateOpts.fit.nonNegative, "nonnegative", false, "with --cv: non-negative fits")
	f.BoolVar(&validateOpts.fit.minNorm, "min-norm", false, "with --cv: accept collinear properties")
	f.BoolVar(&validateOpts.fit.integer, "integer", false, "with --cv: fit integer operations too")
	rootCmd.AddCommand(validateCmd)
}

func validate(out io.Writer, args []string, opts validateOptions) error {
	if opts.cv == (opts.weights != "") {
		return fmt.Errorf("give either --weights (validate a fit) or --cv (cross-validate the measurement rows)")
	}
	role := opts.role
	switch role {
	case "all":
		role = ""
	case datasets.RoleTest, datasets.RoleMeasurement:
	default:
		return fmt.Errorf("--role %q: want test, measurement or all", opts.role)
	}
	lt, err := loadTables(args)
	if err != nil {
		return err
	}
	var cases []fit.Case
	title := ""
	if opts.cv {
		var skipped []string
		cases, skipped, err = cvCases(lt, opts.fit)
		if err != nil {
			return err
		}
		for _, s := range skipped {
			fmt.Fprintf(out, "not cross-validated: %s\n", s)
		}
		title = "leave-one-class-out cross-validation"
	} else {
		if cases, err = validationCases(lt, opts.weights, role); err != nil {
			return err
		}
		title = "validation with " + opts.weights
	}
	if err := printReport(out, cases); err != nil {
		return err
	}
	if opts.plot != "" {
		var svg bytes.Buffer
		if err := fit.PlotValidation(&svg, cases, title); err != nil {
			return err
		}
		return writeOutput(nil, opts.plot, svg.Bytes())
	}
	return nil
}

// validationCases predicts the rows of role with the weights at path.
func validationCases(lt *loadedTables, path, role string) ([]fit.Case, error) {
	w, err := loadWeights(path)
	if err != nil {
		return nil, err
	}
	if err := linear.CheckWeights(w); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, name := range slices.Sorted(maps.Keys(lt.tables)) {
		if d := lt.tables[name].Meta.DeviceName; d != w.Device {
			return nil, fmt.Errorf("%s was measured on %q but %s holds weights for %q: validate a device with its own weights", name, d, path, w.Device)
		}
	}
	rows := linear.Rows(lt.tables, role)
	if len(rows) == 0 {
		return nil, fmt.Errorf("the tables have no rows of role %q to validate", role)
	}
	return linear.NewCounter(nil).Validate(w, rows)
}

func cvCases(lt *loadedTables, opts fitOptions) ([]fit.Case, []string, error) {
	cases, skipped, err := linear.NewCounter(nil).CrossValidate(lt.tables, opts.linear())
	if err != nil {
		return nil, nil, err
	}
	if len(cases) == 0 {
		return nil, nil, fmt.Errorf("no kernel class could be cross-validated:\n  %s", strings.Join(skipped, "\n  "))
	}
	return cases, skipped, nil
}

func printReport(out io.Writer, cases []fit.Case) error {
	r, err := fit.NewReport(cases)
	if err != nil {
		return err
	}
	return r.WriteText(out)
}
