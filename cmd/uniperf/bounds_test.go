package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// Flags that bound work are checked before any work: --runs past
// measurekernels.MaxRuns, budgets of zero or less.
func TestBoundsValidated(t *testing.T) {
	set := "{ [i] : 0 <= i < 10 }"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"measure", "global_copy", "--device", "opencl:0", "--param", "n=1024", "--runs", "2000000000"}, "--runs 2000000000 must exceed --discard 4, which must not be negative, and be at most 10000"},
		{[]string{"measure", "--device", "opencl:0", "--out", "x.arrow", "--runs", "10001"}, "--runs 10001 must"},
		{[]string{"measure", "--device", "opencl:0", "--out", "x.arrow", "--runs", "0"}, "--runs 0 must"},
		{[]string{"predict", "--program", "embedded:cnn", "--device-file", "pocl-cpu", "--measure", "opencl:0", "--runs", "100000000"}, "--runs 100000000 must"},
		{[]string{"card", set, "--max-pieces", "0"}, "--max-pieces 0: want a positive number"},
		{[]string{"card", set, "--max-pieces", "-1"}, "--max-pieces -1: want a positive number"},
		{[]string{"card", set, "--max-memory", "0"}, "--max-memory 0: want a positive number of MiB"},
		{[]string{"card", set, "--max-memory", "-5"}, "--max-memory -5: want a positive number of MiB"},
		{[]string{"card", set, "--max-memory", "9223372036854775807"}, "--max-memory 9223372036854775807: want"},
		{[]string{"count", "global_copy", "--max-pieces", "0"}, "--max-pieces 0: want a positive number"},
		{[]string{"count", "global_copy", "--max-pieces", "-1"}, "--max-pieces -1: want a positive number"},
		{[]string{"count", "global_copy", "--max-memory", "0"}, "--max-memory 0: want a positive number of MiB"},
		{[]string{"count", "global_copy", "--max-memory", "-5"}, "--max-memory -5: want a positive number of MiB"},
		{[]string{"count", "global_copy", "--max-memory", "9223372036854775807"}, "--max-memory 9223372036854775807: want"},
	} {
		code, msg := runAll(t, c.args...)
		if code != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and %q", strings.Join(c.args, " "), code, msg, c.want)
		}
	}
	if code, msg := runAll(t, "card", set, "--max-pieces", "1", "--max-memory", "1"); code != 0 {
		t.Errorf("card with budgets of 1: exit %d, %q", code, msg)
	}
}

// A value past int64 is an error with parameters as without them.
func TestCardOverflowConsistent(t *testing.T) {
	for _, args := range [][]string{
		{"card", "[n] -> { [i] : 0 <= i < 4611686018427387904 n }", "--param", "n=5"},
		{"card", "[n] -> { [i] : 0 <= i < 4611686018427387904 n }", "--param", "n=5", "--json"},
		{"card", "{ [i] : 0 <= i < 4611686018427387904*5 }"},
	} {
		if code, msg := runAll(t, args...); code != 2 || !strings.Contains(msg, "integer overflow") {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and an integer overflow", strings.Join(args, " "), code, msg)
		}
	}
	// 2^62 * 1 fits.
	code, out := runOut(t, "card", "[n] -> { [i] : 0 <= i < 4611686018427387904 n }", "--param", "n=1")
	if code != 0 || !strings.Contains(out, "value at n=1: 4611686018427387904") {
		t.Errorf("n=1: exit %d, %q", code, out)
	}
}

// The (4e9)^2 points of a square overflow 64 bits with a parameter as
// without: both exit 2.
func TestCardSquareOverflow(t *testing.T) {
	for _, args := range [][]string{
		{"card", "[n] -> { [i, j] : 0 <= i, j < n }", "--param", "n=4000000000", "--json"},
		{"card", "{ [i, j] : 0 <= i, j < 4000000000 }", "--json"},
	} {
		if code, msg := runAll(t, args...); code != 2 || !strings.Contains(msg, "integer overflow") {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and an integer overflow", strings.Join(args, " "), code, msg)
		}
	}
}

// Weights near the largest float64 overflow a prediction to +Inf, which
// is an error, as text and as JSON, and not a printed "+Inf s".
func TestPredictOverflow(t *testing.T) {
	dir := t.TempDir()
	props := []string{"global.load.f32.stride=1", "global.minldst.f32.stride=1", "global.store.f32.stride=1", "launch.const", "launch.groups"}
	w := writeTestWeights(t, dir, "huge.arrow", "GPU", "sha256:1", props, []float64{1e308, 0, 1e308, 1e-5, 0})
	for _, extra := range [][]string{nil, {"--json"}, {"--sweep", "n=1024..2048"}} {
		args := append([]string{"predict", "--weights", w, "global_copy", "--param", "n=1024"}, extra...)
		if extra != nil && extra[0] == "--sweep" {
			args = append([]string{"predict", "--weights", w, "global_copy"}, extra...)
		}
		code, msg := runAll(t, args...)
		if code != 2 || !strings.Contains(msg, "prediction is +Inf s: ") || !strings.Contains(msg, "weights times counts overflow") {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and an overflow", strings.Join(args, " "), code, msg)
		}
	}
	ok := writeTestWeights(t, dir, "ok.arrow", "GPU", "sha256:1", props, []float64{1e-9, 0, 1e-9, 1e-5, 0})
	if code, out := runOut(t, "predict", "--weights", ok, "global_copy", "--param", "n=1024"); code != 0 || !strings.Contains(out, "predicted") {
		t.Errorf("finite weights: exit %d, %q", code, out)
	}
}

// A size at which the kernel's domain has no point is bad input naming
// the kernel and the sizes: it panicked in the grid fill (a division by
// the zero work-group of the empty launch). copy.knl's domain is
// 0 <= i < n, with no assumption on n: empty at n = 0 and at n = -5.
func TestPredictEmptyDomain(t *testing.T) {
	dir := t.TempDir()
	knl := filepath.Join(dir, "copy.knl")
	src := "kernel copy\nconst LX = 16\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\nsplit i LX i_out i_in\ntag i_out g.0, i_in l.0\nb[i] = a[i]\n"
	if err := os.WriteFile(knl, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	props := []string{"global.load.f32.stride=1", "global.minldst.f32.stride=1", "global.store.f32.stride=1", "launch.const", "launch.groups"}
	w := writeTestWeights(t, dir, "ok.arrow", "GPU", "sha256:1", props, []float64{1e-9, 0, 1e-9, 1e-5, 0})
	for _, n := range []string{"n=0", "n=-5", "n=1024,0"} {
		code, msg := runAll(t, "predict", "--weights", w, knl, "--param", n)
		if code != 2 || !strings.Contains(msg, "copy.knl: the launch grid at n=") || !strings.Contains(msg, "is empty along axis 0") {
			t.Errorf("predict copy.knl --param %s: exit %d, %q; want 2 and an empty grid", n, code, msg)
		}
	}
	if code, out := runOut(t, "predict", "--weights", w, knl, "--param", "n=1024"); code != 0 || !strings.Contains(out, "predicted") {
		t.Errorf("n=1024: exit %d, %q", code, out)
	}
}

// A const the generated code cannot hold is bad input, and so is a
// kernel whose subscript the reference interpreter finds out of bounds
// (on PoCL); the message names the line.
func TestKernelFaultsAreInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"kernels", "show", "finite_diff", "--const", "LY=4611686018427387904"}, "const LY = 4611686018427387904 does not fit"},
		{[]string{"kernels", "show", "finite_diff", "--const", "LY=1073741824"}, "finite_diff.knl:16:7: array t of shape [1073741826 18]"},
	} {
		code, msg := runAll(t, c.args...)
		if code != 2 || !strings.Contains(msg, c.want) || len(msg) > 300 {
			t.Errorf("uniperf %s: exit %d, %q; want 2 and %q", strings.Join(c.args, " "), code, msg, c.want)
		}
	}
	knl := filepath.Join(t.TempDir(), "oob.knl")
	src := "kernel oob\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\nb[i] = a[i + 1]\n"
	if err := os.WriteFile(knl, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, msg := runAll(t, "measure", knl, "--device", "opencl", "--param", "n=64", "--runs", "3", "--discard", "1")
	if code != 2 || !strings.Contains(msg, knl+":5:8: instruction insn_0: a[i + 1] is out of bounds at n=64") {
		t.Errorf("out-of-bounds kernel: exit %d, %q", code, msg)
	}
}

// A set past the piece budget while it is parsed falls back, with every
// parameter given, to enumerating it (162 points, counted by loops in
// polyhedra's tests); without parameters the error names the budget given.
func TestCardParseBudget(t *testing.T) {
	var dims, conds []string
	for k := range 7 {
		x := fmt.Sprintf("x%d", k)
		dims = append(dims, x)
		conds = append(conds, fmt.Sprintf("0 <= %s < n and %s != %d and %s mod 3 != 1", x, x, k, x))
	}
	set := "[n, m] -> { [" + strings.Join(dims, ", ") + "] : " + strings.Join(conds, " and ") + " and x0 + x1 + x2 <= m }"
	code, out := runOut(t, "card", set, "--param", "n=5", "--param", "m=4", "--json")
	if code != 0 || !strings.Contains(out, `"value": 162`) || !strings.Contains(out, `"method": "enumerated"`) {
		t.Errorf("n=5 m=4: exit %d, %s", code, out)
	}
	for _, pieces := range []string{"100", "1000"} {
		code, msg := runAll(t, "card", set, "--max-pieces", pieces)
		if code != 2 || !strings.Contains(msg, "more than "+pieces+" basic sets") || !strings.Contains(msg, "raise --max-pieces") {
			t.Errorf("--max-pieces %s: exit %d, %q", pieces, code, msg)
		}
	}
}

// A typo in a set with declared parameters, or an exponent, is a syntax
// error with its place, not one more parameter; an error quotes at most
// a brief part of a long set.
func TestCardTyposAndBriefErrors(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"[n] -> { [i] : 0 <= i < nn }", "SET:1:25: nn is neither a declared parameter (n) nor a dimension (i)"},
		{"{ [i] : 0 <= i < 1e3 }", "SET:1:18: 1e3 is not an integer"},
	} {
		if code, msg := runAll(t, "card", c.set, "--param", "nn=3"); code != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("%s: exit %d, %q; want %q", c.set, code, msg, c.want)
		}
	}
	var conds []string
	for k := range 12 {
		conds = append(conds, fmt.Sprintf("0 <= x%d < n and x%d != %d", k, k, k))
	}
	set := "[n] -> { [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11] : " + strings.Join(conds, " and ") + " }"
	code, msg := runAll(t, "card", set, "--max-pieces", "10")
	if code != 2 || !strings.Contains(msg, "more than 10 basic sets") || len(msg) > 500 {
		t.Errorf("exit %d, a message of %d characters: %q", code, len(msg), msg)
	}
}

// A kernel that assumes n >= 2^63 - 1 is counted, its pieces printed as
// counted where simplifying their printed form would overflow; it ended
// uniperf count with a panic (found by TestCLIRobustness).
func TestCountAtTheEdgeOfInt64(t *testing.T) {
	src, err := library.Source("arith_rsqrt_f64")
	if err != nil {
		t.Fatal(err)
	}
	edge := strings.Replace(string(src), "assume n >= 1", "assume n >= 9223372036854775807", 1)
	knl := filepath.Join(t.TempDir(), "edge.knl")
	if err := os.WriteFile(knl, []byte(edge), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runOut(t, "count", knl)
	if code != 0 || !strings.Contains(out, "flop.f64.special           [n, nk] -> { 6 * n^2 * nk : n >= 9223372036854775807 and nk >= 1 }") {
		t.Errorf("exit %d, %q", code, out)
	}
}
