package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/weightsio"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// TestEveryCommandJSON runs each command that prints results with --json
// and parses what it prints; each check compares one field with a figure
// found without the command (the table's rows, a hand count). Under
// -short blocksize ranks by xu alone, calibrated on the PoCL table as
// resios would be: resios' calibration took 13 of the test's 15 s, and
// TestDemoSummaryCache calibrates resios on a PoCL table under -short.
func TestEveryCommandJSON(t *testing.T) {
	table := embeddedPrefix + shippedTable
	blocksizeModels := "xu,resios"
	if testing.Short() {
		blocksizeModels = "xu"
	}
	dir := t.TempDir()
	weights := filepath.Join(dir, "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", table, "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	shipped, err := datasets.OpenShipped(shippedTable)
	if err != nil {
		t.Fatal(err)
	}
	// The test rows by key, without the work-group size.
	tests := map[datasets.Key]datasets.Row{}
	for _, r := range shipped.Rows {
		if r.Role == datasets.RoleTest {
			tests[datasets.MakeKey(r.Kernel, r.Consts, r.Params, nil)] = r
		}
	}
	for _, c := range []struct {
		name  string
		cmd   *cobra.Command
		args  []string
		check func(t *testing.T, v any)
	}{
		// 0 <= i < 10 and 0 <= j <= i: 55 points.
		{"card", cardCmd, []string{"card", "{ [i, j] : 0 <= i < 10 and 0 <= j <= i }", "--json"}, func(t *testing.T, v any) {
			if n := field(t, v, "value"); n != float64(55) {
				t.Errorf("value %v, want 55", n)
			}
		}},
		{"count", countCmd, []string{"count", "global_copy", "--param", "n=1000", "--json"}, nil},
		// The tests run on PoCL (make test installs it): one OpenCL runtime.
		{"devices", devicesCmd, []string{"devices", "--json"}, func(t *testing.T, v any) {
			runtimes, _ := v.([]any)
			found := false
			for _, r := range runtimes {
				d, _ := field(t, r, "devices").([]any)
				found = found || field(t, r, "backend") == "opencl" && len(d) > 0 && field(t, d[0], "id") == "opencl:0"
			}
			if !found {
				t.Errorf("no opencl:0 among %v", runtimes)
			}
		}},
		{"kernels list", kernelsListCmd, []string{"kernels", "list", "--json"}, func(t *testing.T, v any) {
			if k, _ := v.([]any); len(k) != len(library.Names()) {
				t.Errorf("%d kernels, the library has %d", len(k), len(library.Names()))
			}
		}},
		{"fit", fitCmd, []string{"fit", table, "--out", filepath.Join(dir, "w2.arrow"), "--json"}, func(t *testing.T, v any) {
			w, err := weightsio.ReadWeights(filepath.Join(dir, "w2.arrow"))
			if err != nil {
				t.Fatal(err)
			}
			// The printed properties are the file's own weights and its
			// tied properties, each at its target's weight.
			props, _ := field(t, v, "properties").([]any)
			if len(props) != len(w.Properties)+len(w.Ties) {
				t.Fatalf("%d properties, the file written has %d and %d tied", len(props), len(w.Properties), len(w.Ties))
			}
			for _, p := range props {
				name := field(t, p, "property").(string)
				weight, ok := w.Weight(name)
				values, _ := field(t, p, "values").([]any)
				if !ok || len(values) != 1 || field(t, values[0], "weight_s") != weight {
					t.Errorf("property %v: the file written holds %v (ties %v)", p, w.Values, w.Ties)
				}
			}
		}},
		{"fit --model hongkim", fitCmd, []string{"fit", table, "--model", "hongkim", "--out", filepath.Join(dir, "hk.json"), "--json"}, func(t *testing.T, v any) {
			data, err := os.ReadFile(filepath.Join(dir, "hk.json"))
			var file any
			if err != nil || json.Unmarshal(data, &file) != nil || !reflect.DeepEqual(v, file) {
				t.Errorf("the calibration printed is not the file written: %v", err)
			}
		}},
		{"demo", demoCmd, []string{"demo", "--json"}, func(t *testing.T, v any) {
			tables, _ := field(t, v, "tables").([]any)
			if len(tables) != len(datasets.Shipped()) {
				t.Fatalf("%d tables, %d shipped", len(tables), len(datasets.Shipped()))
			}
			for _, tab := range tables {
				name := strings.TrimPrefix(field(t, tab, "table").(string), embeddedPrefix)
				s, err := datasets.OpenShipped(name)
				if err != nil || field(t, tab, "rows") != float64(len(s.Rows)) || field(t, tab, "device") != s.Meta.DeviceName {
					t.Errorf("table %s: rows %v device %v; the table: %v", name, field(t, tab, "rows"), field(t, tab, "device"), err)
				}
			}
		}},
		{"measure KERNEL", measureCmd, []string{"measure", "global_copy", "--device", "opencl", "--param", "n=4096", "--runs", "3", "--discard", "1", "--json"}, func(t *testing.T, v any) {
			rows, _ := v.([]any)
			if len(rows) != 1 {
				t.Fatalf("%d rows, want 1", len(rows))
			}
			if raw, _ := field(t, rows[0], "raw_times_s").([]any); len(raw) != 3 || field(t, rows[0], "measured_s") != min(raw[1].(float64), raw[2].(float64)) {
				t.Errorf("raw %v, measured %v: want 3 runs, the minimum of the last 2", raw, field(t, rows[0], "measured_s"))
			}
		}},
		{"predict --program", predictCmd, []string{"predict", "--program", "embedded:cnn", "--device-file", "pocl-cpu", "--json"}, func(t *testing.T, v any) {
			if l, _ := field(t, v, "launches").([]any); len(l) == 0 {
				t.Errorf("no launches")
			}
		}},
		{"predict", predictCmd, []string{"predict", "--weights", weights, "matmul_tiled", "--param", "n=m=ell=64,128", "--json"}, func(t *testing.T, v any) {
			sets, _ := v.([]any)
			if len(sets) != 2 {
				t.Fatalf("%d parameter sets, want 2 (the tied n, m and ell)", len(sets))
			}
			for i, want := range []float64{64, 128} {
				p := field(t, sets[i], "params")
				if field(t, p, "n") != want || field(t, p, "m") != want || field(t, p, "ell") != want {
					t.Errorf("set %d: params %v, want n = m = ell = %v", i, p, want)
				}
			}
		}},
		{"blocksize", blocksizeCmd, []string{"blocksize", "global_copy", "--device-file", "pocl-cpu", "--param", "n=65536", "--sizes", "64,256", "--model", blocksizeModels, "--json"}, func(t *testing.T, v any) {
			if c, _ := field(t, v, "candidates").([]any); len(c) != 2 || field(t, c[0], "predictions") == nil {
				t.Errorf("candidates %v, want the 2 of --sizes with predictions", c)
			}
		}},
		{"table", tableCmd, []string{"table", table, "--json"}, func(t *testing.T, v any) {
			if n := field(t, v, "rows"); n != float64(len(shipped.Rows)) {
				t.Errorf("rows %v, the table has %d", n, len(shipped.Rows))
			}
			groups, _ := field(t, v, "groups").([]any)
			sum := 0.0
			for _, g := range groups {
				sum += field(t, g, "rows").(float64)
			}
			if sum != float64(len(shipped.Rows)) {
				t.Errorf("the groups hold %v rows, the table %d", sum, len(shipped.Rows))
			}
		}},
		{"validate", validateCmd, []string{"validate", "--weights", weights, table, "--json"}, func(t *testing.T, v any) {
			cases, _ := field(t, v, "cases").([]any)
			if len(cases) != len(tests) {
				t.Fatalf("%d cases, the table has %d test rows", len(cases), len(tests))
			}
			for _, c := range cases {
				key := datasets.MakeKey(field(t, c, "kernel").(string), ints(t, field(t, c, "consts")), ints(t, field(t, c, "params")), nil)
				r, ok := tests[key]
				if !ok || field(t, c, "measured_s") != r.TimeS || field(t, c, "predicted_s") == nil {
					t.Errorf("case %v: the table's row %+v", c, r)
				}
			}
		}},
		{"compare", compareCmd, []string{"compare", table, "--models", "linear,cycles", "--json"}, func(t *testing.T, v any) {
			cases, _ := field(t, v, "test").([]any)
			if len(cases) != 2*len(tests) {
				t.Errorf("%d cases, want 2 models × %d test rows", len(cases), len(tests))
			}
			for _, c := range cases {
				r := tests[datasets.MakeKey(field(t, c, "kernel").(string), ints(t, field(t, c, "consts")), ints(t, field(t, c, "params")), nil)]
				if field(t, c, "median_s") != keptMedian(r) {
					t.Errorf("case %v: median_s, the row's raw times %v", c, r.RawTimesS)
				}
			}
		}},
		{"export", exportCmd, []string{"export", weights, "--json"}, func(t *testing.T, v any) {
			if d, _ := field(t, v, "devices").([]any); len(d) != 1 || field(t, d[0], "device") != shipped.Meta.DeviceName {
				t.Errorf("devices %v, want the one of %s", d, shippedTable)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Cleanup(func() { resetFlags(c.cmd) })
			code, out, stderr := runCommand(t, c.cmd, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var v any
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if c.check != nil {
				c.check(t, v)
			}
		})
	}
}

// TestJSONDocumented checks that every command that prints results takes
// --json and says in its --help what the JSON holds. The exceptions print
// no results of their own: shell completion, help, a generated source,
// and a command that only groups others.
func TestJSONDocumented(t *testing.T) {
	skip := map[string]bool{"uniperf completion": true, "uniperf help": true, "uniperf kernels show": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !c.Runnable() || c.HasSubCommands() || skip[c.CommandPath()] || strings.HasPrefix(c.CommandPath(), "uniperf completion") {
			return
		}
		if c.Flags().Lookup("json") == nil {
			t.Errorf("%s has no --json", c.CommandPath())
		} else if !strings.Contains(c.Long, "json") || !strings.Contains(c.Long, `{"`) && !strings.Contains(c.Long, "fields") {
			t.Errorf("%s --help does not say what --json prints", c.CommandPath())
		}
	}
	walk(rootCmd)
}

// ints reads a JSON object of integers.
func ints(t *testing.T, v any) map[string]int64 {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("want a JSON object, have %T", v)
	}
	out := map[string]int64{}
	for k, x := range m {
		out[k] = int64(x.(float64))
	}
	return out
}

// field returns the named field of a JSON object.
func field(t *testing.T, v any, name string) any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("want a JSON object, have %T", v)
	}
	return m[name]
}
