package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCountAll runs uniperf count with every flag at its default first, so
// that a budget given here does not leak into other tests, and returns
// the exit status, standard output and standard error (the error
// message, or the note of a count that fell back).
func runCountAll(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	resetAllFlags()
	defer resetAllFlags()
	var note bytes.Buffer
	countCmd.SetErr(&note)
	defer countCmd.SetErr(nil)
	code, out, msg := runCommand(t, rootCmd, append([]string{"count"}, args...)...)
	return code, out, msg + note.String()
}

// countJSONResult is what the tests read of count --json.
type countJSONResult struct {
	Method     string
	Note       string
	Properties []struct {
		Name       string
		Value      *int64
		UpperBound bool `json:"upper_bound"`
	}
}

// Past --max-pieces, with every parameter given, count enumerates the
// kernel's sets at those values: the values and upper-bound marks must be
// those of the symbolic count (with the default budget), which derives
// them another way. The cases cover a stride class that follows from a
// footprint (STRIDE=3), a boundary stencil and data-dependent upper
// bounds, in one work-item (clip) and across work-items (clip2, whose
// global accesses have a stride).
func TestCountBudgetFallback(t *testing.T) {
	body := "domain [n] -> { [i] : 0 <= i < n }\nassume n >= 1\narray a f32 [n]\narray b f32 [n]\n"
	stmts := "b[i] = if(i > 0, a[i - 1], 0.0f) + a[i]\nif a[i] > 1: b[i] = 2*b[i]\n"
	clip, clip2 := filepath.Join(t.TempDir(), "clip.knl"), filepath.Join(t.TempDir(), "clip2.knl")
	for path, src := range map[string]string{
		clip:  "kernel clip\n" + body + stmts,
		clip2: "kernel clip2\nconst LX = 16\n" + body + "split i LX i_out i_in\ntag i_out g.0, i_in l.0\n" + stmts,
	} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"matmul_tiled", "--param", "n=40", "--param", "m=37", "--param", "ell=33"},
		{"finite_diff", "--param", "n=37"},
		{"global_copy_strided", "--const", "STRIDE=3", "--param", "n=513"},
		{clip, "--param", "n=10"},
		{clip2, "--param", "n=40"},
	} {
		read := func(extra ...string) (countJSONResult, string) {
			t.Helper()
			code, out, msg := runCountAll(t, append(append(args, "--json"), extra...)...)
			var res countJSONResult
			if code != 0 {
				t.Fatalf("%v %v: exit %d, %s", args, extra, code, msg)
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%v %v: %v in %s", args, extra, err, out)
			}
			return res, msg
		}
		symbolic, _ := read()
		enumerated, msg := read("--max-pieces", "1")
		if symbolic.Method != "" || enumerated.Method != "enumerated" {
			t.Fatalf("%v: methods %q and %q, want none and enumerated (the budget of 1 did not stop the count)", args, symbolic.Method, enumerated.Method)
		}
		for _, want := range []string{"the symbolic count stopped", "more than 1 basic sets", "enumerating"} {
			if !strings.Contains(msg, want) || !strings.Contains(enumerated.Note, want) {
				t.Errorf("%v: note %q, stderr %q; want both to say %q", args, enumerated.Note, msg, want)
			}
		}
		want, got := map[string]int64{}, map[string]int64{}
		wantUpper, gotUpper := map[string]bool{}, map[string]bool{}
		for _, p := range symbolic.Properties {
			want[p.Name], wantUpper[p.Name] = *p.Value, p.UpperBound
		}
		for _, p := range enumerated.Properties {
			got[p.Name], gotUpper[p.Name] = *p.Value, p.UpperBound
		}
		compareCounts(t, strings.Join(args, " "), got, want)
		for name, u := range wantUpper {
			if gotUpper[name] != u {
				t.Errorf("%v: %s upper_bound %v enumerated, %v symbolic", args, name, gotUpper[name], u)
			}
		}
	}
	// The table says which values are upper bounds, having no expression
	// to append it to.
	code, out, _ := runCountAll(t, clip, "--param", "n=10", "--max-pieces", "1")
	if code != 0 || !strings.Contains(out, "flop.f32.mul") || !strings.Contains(out, "upper bound: counted as if") {
		t.Errorf("clip table: exit %d, %q", code, out)
	}
}

// Without every parameter, or with a split (--by) or footprints, which
// enumeration does not give, a count past its budget is an error naming
// the budget and what to do.
func TestCountBudgetExceeded(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"matmul_tiled", "--max-pieces", "1"}, "give every parameter with --param"},
		{[]string{"finite_diff", "--max-pieces", "1", "--param", "n=37", "--by", "instruction"}, "leave out --by and --footprint"},
		{[]string{"finite_diff", "--max-pieces", "1", "--param", "n=37", "--footprint"}, "leave out --by and --footprint"},
	} {
		code, _, msg := runCountAll(t, c.args...)
		if code != 2 || !strings.Contains(msg, "more than 1 basic sets (the piece budget)") ||
			!strings.Contains(msg, "raise --max-pieces or --max-memory") || !strings.Contains(msg, c.want) {
			t.Errorf("count %s: exit %d, %q; want 2, the budget and %q", strings.Join(c.args, " "), code, msg, c.want)
		}
	}
}
