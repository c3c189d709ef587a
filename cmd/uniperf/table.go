package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
)

// tableOptions are the flags of `uniperf table`.
type tableOptions struct {
	format string
	out    string
	json   bool
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
metadata included (needs --out).

--json (or --format json) prints the summary as one JSON object:
{"device": {"name", "vendor", "driver", "compute_units", "clock_mhz",
"global_mem_bytes", "local_mem_bytes"}, "backend", "suite", "method",
"rows", "groups": [{"role", "class", "kernel", "rows"}, ...]}, the groups
in the summary's order.`,
	Example: `  uniperf table embedded:pocl-epyc-quick.arrow
  uniperf table mygpu.arrow --format csv --out mygpu.csv
  uniperf table mygpu.arrow --format parquet --out mygpu.parquet`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return describeTable(cmd.OutOrStdout(), args[0], tableOpts)
	},
}

func init() {
	tableCmd.Flags().StringVar(&tableOpts.format, "format", "summary", "summary, json, csv or parquet")
	tableCmd.Flags().BoolVar(&tableOpts.json, "json", false, "print the summary as JSON (--format json)")
	tableCmd.Flags().StringVar(&tableOpts.out, "out", "", "write to this file instead of standard output")
	rootCmd.AddCommand(tableCmd)
}

func describeTable(stdout io.Writer, arg string, opts tableOptions) error {
	if opts.json {
		if opts.format != "summary" && opts.format != "json" {
			return fmt.Errorf("--json prints the summary as JSON; it does not go with --format %s", opts.format)
		}
		opts.format = "json"
	}
	write := map[string]func(*datasets.Table, io.Writer) error{
		"summary": writeSummary,
		"json":    writeSummaryJSON,
		"csv":     (*datasets.Table).WriteCSV,
		"parquet": (*datasets.Table).WriteParquet,
	}[opts.format]
	if write == nil {
		return fmt.Errorf("--format %q: want summary, json, csv or parquet", opts.format)
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

// rowGroup counts a table's rows of one role, class and kernel.
type rowGroup struct {
	Role   string `json:"role"`
	Class  string `json:"class"`
	Kernel string `json:"kernel"`
	Rows   int    `json:"rows"`
}

// rowGroups counts a table's rows per role, class and kernel, in that
// order.
func rowGroups(t *datasets.Table) []rowGroup {
	type key struct{ role, class, kernel string }
	rows := map[key]int{}
	for _, r := range t.Rows {
		rows[key{r.Role, r.Class, r.Kernel}]++
	}
	keys := slices.SortedFunc(maps.Keys(rows), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.role, b.role), cmp.Compare(a.class, b.class), cmp.Compare(a.kernel, b.kernel))
	})
	groups := make([]rowGroup, len(keys))
	for i, k := range keys {
		groups[i] = rowGroup{k.role, k.class, k.kernel, rows[k]}
	}
	return groups
}

// writeSummary prints a table's metadata and its rows per class, kernel
// and role.
func writeSummary(t *datasets.Table, w io.Writer) error {
	m := t.Meta
	fmt.Fprintf(w, "device   %s (%s), driver %s, %d compute units at %d MHz, %.1f GiB global memory, %d KiB local\n",
		m.DeviceName, m.DeviceVendor, m.DeviceDriver, m.ComputeUnits, m.ClockMHz, float64(m.GlobalMemBytes)/(1<<30), m.LocalMemBytes/1024)
	fmt.Fprintf(w, "backend  %s, suite %s, %d rows\n", m.Backend, m.Suite, len(t.Rows))
	fmt.Fprintf(w, "method   %s\n\n", m.Method)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "role\tclass\tkernel\trows")
	for _, g := range rowGroups(t) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", displayCell(g.Role), displayCell(g.Class), displayCell(g.Kernel), g.Rows)
	}
	return tw.Flush()
}

// maxCellRunes bounds a cell of the summary: tabwriter pads every row to
// the widest cell, so one 20 MB class string made the summary of a 21 MB
// table run out of memory. The CSV, Parquet and JSON outputs keep every
// string whole.
const maxCellRunes = 60

// displayCell shortens s past maxCellRunes with an ellipsis and its
// length, and shows tabs and line breaks, which would break the columns,
// as spaces.
func displayCell(s string) string {
	runes := 0
	for i := range s {
		if runes == maxCellRunes {
			s = fmt.Sprintf("%s… (%d bytes)", s[:i], len(s))
			break
		}
		runes++
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// writeSummaryJSON prints the summary of writeSummary as one JSON object.
func writeSummaryJSON(t *datasets.Table, w io.Writer) error {
	m := t.Meta
	type device struct {
		Name           string `json:"name"`
		Vendor         string `json:"vendor"`
		Driver         string `json:"driver"`
		ComputeUnits   int    `json:"compute_units"`
		ClockMHz       int    `json:"clock_mhz"`
		GlobalMemBytes int64  `json:"global_mem_bytes"`
		LocalMemBytes  int64  `json:"local_mem_bytes"`
	}
	return writeJSON(w, struct {
		Device  device     `json:"device"`
		Backend string     `json:"backend"`
		Suite   string     `json:"suite"`
		Method  string     `json:"method"`
		Rows    int        `json:"rows"`
		Groups  []rowGroup `json:"groups"`
	}{device{m.DeviceName, m.DeviceVendor, m.DeviceDriver, m.ComputeUnits, m.ClockMHz, m.GlobalMemBytes, m.LocalMemBytes},
		m.Backend, m.Suite, m.Method, len(t.Rows), rowGroups(t)})
}
