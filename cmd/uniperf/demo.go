package main

import (
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

var demoCmd = &cobra.Command{
	Use:   "demo",
	Short: "Run the whole pipeline on the measurement tables shipped in the binary",
	Long: `demo needs no device and no arguments. For every device with a measurement
table embedded in the binary (see the datasets/ directory of the source) it

  1. counts every measured kernel symbolically and evaluates the counts at
     each row's parameters,
  2. fits one weight per property to the measurement rows (seed 001 §4.3)
     and prints the weights with the rates they imply,
  3. predicts the test kernels (finite differences, skinny matrix
     multiplication, n-body, convolution) and prints measured against
     predicted times with geometric-mean relative errors, in the layout of
     seed 001's Table 1.

The same steps are uniperf fit, uniperf validate and uniperf export on
embedded:NAME tables.`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		return demo(cmd.OutOrStdout())
	},
}

func init() {
	rootCmd.AddCommand(demoCmd)
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
	byDevice := map[string][]string{}
	for name, t := range lt.tables {
		byDevice[t.Meta.DeviceName] = append(byDevice[t.Meta.DeviceName], name)
	}
	counter := linear.NewCounter(nil)
	var all []fit.Case
	var weights []*fit.Weights
	for _, device := range slices.Sorted(maps.Keys(byDevice)) {
		tables := map[string]*datasets.Table{}
		for _, name := range byDevice[device] {
			tables[name] = lt.tables[name]
		}
		fmt.Fprintf(out, "== %s (%s)\n\n", device, strings.Join(slices.Sorted(slices.Values(byDevice[device])), ", "))
		w, err := counter.Train(tables, linear.Options{})
		if err != nil {
			return fmt.Errorf("fitting %s: %w", device, err)
		}
		if err := printFit(out, w); err != nil {
			return err
		}
		weights = append(weights, w)
		cases, err := counter.Validate(w, linear.Rows(tables, datasets.RoleTest))
		if err != nil {
			return fmt.Errorf("validating %s: %w", device, err)
		}
		all = append(all, cases...)
	}
	fmt.Fprintf(out, "\n== test kernels: measured against predicted (seed 001 Table 1)\n\n")
	if err := printReport(out, all); err != nil {
		return err
	}
	if len(weights) > 1 {
		fmt.Fprintf(out, "\n== weights side by side\n\n")
		c, err := fit.Compare(weights, nil)
		if err != nil {
			return err
		}
		return c.WriteMarkdown(out)
	}
	return nil
}
