package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

// TestTable checks the summary of the shipped table against the quick
// suite that measured it: every arithmetic kernel at 2 sizes, 2 values of
// k and 2 work-group sizes (8 rows), every test kernel at 2 sizes and 2
// work-group sizes (4 rows).
func TestTable(t *testing.T) {
	table := embeddedPrefix + shippedTable
	code, out, stderr := runCommand(t, tableCmd, "table", table)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		`(?m)^measurement\s+arith\s+arith_pow_f64\s+8$`,
		`(?m)^test\s+nbody\s+nbody\s+4$`,
		`(?m)^backend\s+opencl, suite quick, 172 rows$`,
		`(?m)^method\s+.*30 runs per row`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("summary lacks %s:\n%s", want, out)
		}
	}

	code, short, stderr := runCommand(t, tableCmd, "table", strings.TrimSuffix(table, ".arrow"))
	if code != 0 || short != out {
		t.Errorf("the table named without .arrow: exit %d: %s", code, stderr)
	}

	code, out, stderr = runCommand(t, tableCmd, "table", table, "--format", "csv")
	if code != 0 || strings.Count(out, "\n") != 173 || !strings.HasPrefix(out, "device,backend,kernel,class,role") {
		t.Errorf("csv: exit %d, %d lines: %s", code, strings.Count(out, "\n"), stderr)
	}

	path := filepath.Join(t.TempDir(), "t.parquet")
	code, _, stderr = runCommand(t, tableCmd, "table", table, "--format", "parquet", "--out", path)
	if data, err := os.ReadFile(path); code != 0 || err != nil || !bytes.HasPrefix(data, []byte("PAR1")) || !bytes.HasSuffix(data, []byte("PAR1")) {
		t.Errorf("parquet: exit %d: %s, %v", code, stderr, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("parquet file mode: %v, %v", fi, err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"table", table, "--format", "xml"}, "want summary, json, csv or parquet"},
		{[]string{"table", table, "--format", "parquet"}, "give --out"},
		{[]string{"table", "embedded:none.arrow"}, "no such embedded table"},
	} {
		code, _, stderr := runCommand(t, tableCmd, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// The summary of a table with one 20 MB class string shows the class cut
// to maxCellRunes with its length, so its size does not grow with the
// string times the rows (tabwriter padded every row to the widest cell,
// out of memory); a tab in a kernel name does not break the columns.
func TestTableSummaryLongCell(t *testing.T) {
	long := strings.Repeat("é", 10<<20) // 20 MB
	tab := datasets.Table{}
	for i := range 1000 {
		tab.Rows = append(tab.Rows, datasets.Row{Role: "measurement", Class: "c", Kernel: fmt.Sprintf("k%d\tx", i)})
	}
	tab.Rows = append(tab.Rows, datasets.Row{Role: "measurement", Class: long, Kernel: "k"})
	var out bytes.Buffer
	if err := writeSummary(&tab, &out); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 200_000 {
		t.Fatalf("summary of %d bytes", out.Len())
	}
	want := strings.Repeat("é", maxCellRunes) + fmt.Sprintf("… (%d bytes)", len(long))
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "k7 x") {
		t.Fatalf("summary lacks the cut class or the kernel with its tab as a space:\n%s", out.String()[:2000])
	}
}
