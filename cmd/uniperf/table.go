package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
)

// tableOptions are the flags of `uniperf table`.
type tableOptions struct {
	format string
	out    string
}

var tableOpts tableOptions

var tableCmd = &cobra.Command{
	Use:   "table TABLE.arrow",
	Short: "Describe a measurement table, or export it as CSV or Parquet",
	Long: `table reads a measurement table (a path, or embedded:NAME for a table shipped
in the binary), validates it, and prints a summary: the device and how it
was measured (the table's metadata), and the rows per kernel class, kernel
and role.

--format csv writes every row as CSV (maps and lists as JSON in their
cells, floats in the shortest form that reads back exactly); --format
parquet writes a Parquet file with the same columns and the Arrow schema,
metadata included (needs --out).`,
	Example: `  uniperf table embedded:pocl-epyc-quick.arrow
  uniperf table mygpu.arrow --format csv --out mygpu.csv
  uniperf table mygpu.arrow --format parquet --out mygpu.parquet`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return describeTable(cmd.OutOrStdout(), args[0], tableOpts)
	},
}

func init() {
	tableCmd.Flags().StringVar(&tableOpts.format, "format", "summary", "summary, csv or parquet")
	tableCmd.Flags().StringVar(&tableOpts.out, "out", "", "write to this file instead of standard output")
	rootCmd.AddCommand(tableCmd)
}

func describeTable(stdout io.Writer, arg string, opts tableOptions) error {
	write := map[string]func(*datasets.Table, io.Writer) error{
		"summary": writeSummary,
		"csv":     (*datasets.Table).WriteCSV,
		"parquet": (*datasets.Table).WriteParquet,
	}[opts.format]
	if write == nil {
		return fmt.Errorf("--format %q: want summary, csv or parquet", opts.format)
	}
	if opts.format == "parquet" && opts.out == "" {
		return fmt.Errorf("--format parquet writes a binary file: give --out FILE.parquet")
	}
	lt, err := loadTables([]string{arg})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := write(lt.tables[arg], &buf); err != nil {
		return systemFailure(err)
	}
	return writeOutput(stdout, opts.out, buf.Bytes())
}

// writeSummary prints a table's metadata and its rows per class, kernel
// and role.
func writeSummary(t *datasets.Table, w io.Writer) error {
	m := t.Meta
	fmt.Fprintf(w, "device   %s (%s), driver %s, %d compute units at %d MHz, %.1f GiB global memory, %d KiB local\n",
		m.DeviceName, m.DeviceVendor, m.DeviceDriver, m.ComputeUnits, m.ClockMHz, float64(m.GlobalMemBytes)/(1<<30), m.LocalMemBytes/1024)
	fmt.Fprintf(w, "backend  %s, suite %s, %d rows\n", m.Backend, m.Suite, len(t.Rows))
	fmt.Fprintf(w, "method   %s\n\n", m.Method)
	type key struct{ class, kernel, role string }
	rows := map[key]int{}
	for _, r := range t.Rows {
		rows[key{r.Class, r.Kernel, r.Role}]++
	}
	keys := slices.SortedFunc(maps.Keys(rows), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.role, b.role), cmp.Compare(a.class, b.class), cmp.Compare(a.kernel, b.kernel))
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "role\tclass\tkernel\trows")
	for _, k := range keys {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", k.role, k.class, k.kernel, rows[k])
	}
	return tw.Flush()
}
