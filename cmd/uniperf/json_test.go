package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
)

// TestEveryCommandJSON runs each command that prints results with --json
// and parses what it prints; each check compares one field with a figure
// found without the command (the table's rows, a hand count).
func TestEveryCommandJSON(t *testing.T) {
	table := embeddedPrefix + shippedTable
	weights := filepath.Join(t.TempDir(), "w.arrow")
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
		{"devices", devicesCmd, []string{"devices", "--json"}, nil},
		{"kernels list", kernelsListCmd, []string{"kernels", "list", "--json"}, nil},
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
		{"blocksize", blocksizeCmd, []string{"blocksize", "global_copy", "--device-file", "pocl-cpu", "--param", "n=65536", "--sizes", "64,256", "--model", "xu,resios", "--json"}, nil},
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
			if cases, _ := field(t, v, "test").([]any); len(cases) != 2*len(tests) {
				t.Errorf("%d cases, want 2 models × %d test rows", len(cases), len(tests))
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
