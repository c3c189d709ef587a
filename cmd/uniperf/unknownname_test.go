package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A name the kernel does not declare is refused where a flag binds it,
// with the names the kernel has (global_copy.knl declares const LX and
// parameter n; matmul_tiled.knl consts LX, LY and parameters n, m, ell),
// rather than as the first parameter left unbound.
func TestUnknownNameNamesFlag(t *testing.T) {
	const weights = "../../datasets/tuning/pocl.weights.arrow"
	stdin := "LX,nn\n8,1024\n"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"global_copy", "--sweep", "nn=2^10..2^12"},
			`--sweep "nn=2^10..2^12": global_copy has no parameter nn (its parameters: n; did you mean n?)`},
		{[]string{"global_copy", "--param", "n=1024", "--param", "x=3"},
			`--param "x=3": global_copy has no parameter x (its parameters: n)`},
		// The second of two tied names; case is no edit to a suggestion.
		{[]string{"matmul_tiled", "--param", "n=m=ell=64", "--const", "LX=lY=8"},
			`--const "LX=lY=8": matmul_tiled has no const lY (its consts: LX, LY; did you mean LY?)`},
		{[]string{"matmul_tiled", "--param", "n=m=ell=64", "--const", "LQ=8"},
			`--const "LQ=8": matmul_tiled has no const LQ (its consts: LX, LY; did you mean LX or LY?)`},
		{[]string{"global_copy", "--configs", "-"},
			`--configs -: configuration 1: global_copy has no const or parameter nn (its consts and parameters: LX, n; did you mean n?)`},
	} {
		predictCmd.SetIn(strings.NewReader(stdin))
		code, _, stderr := runCommand(t, predictCmd, slices.Concat([]string{"predict", "--weights", weights}, c.args)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s, want %q", c.args, code, stderr, c.want)
		}
	}
	predictCmd.SetIn(nil)
	// tune: matmul_kernel.knl declares parameter n and consts BX, BY,
	// TX, TY.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--param", "nn=64"},
			`--param "nn=64": ../../examples/matmul_kernel.knl has no parameter nn (its parameters: n; did you mean n?)`},
	} {
		code, _, stderr := runCommand(t, tuneCmd, slices.Concat([]string{"tune", "../../examples/matmul_kernel.knl",
			"--space", "../../examples/matmul_kernel.space.json", "--weights", weights}, c.args)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("tune %v: exit %d: %s, want %q", c.args, code, stderr, c.want)
		}
	}
	// A --const the kernel does not declare is a tunable a --map reads:
	// not refused.
	code, _, stderr := runCommand(t, tuneCmd, "tune", "../../examples/matmul_kernel.knl", "--space", "../../examples/matmul_kernel.space.json",
		"--weights", weights, "--param", "n=256", "--const", "tile=1,2", "--map", "TX=tile_size_x*tile")
	if code != 0 {
		t.Errorf("tune --const tile=1,2 --map TX=tile_size_x*tile: exit %d: %s", code, stderr)
	}
}

// nearNames against suggestions worked by hand: the fewest edits win,
// case is no edit, and a name that shares no letter's place is none.
func TestNearNames(t *testing.T) {
	for _, c := range []struct {
		typed string
		names []string
		want  []string
	}{
		{"nn", []string{"n", "m"}, []string{"n"}},
		{"x", []string{"n", "m"}, nil},
		{"n", []string{"nx", "ny", "m"}, []string{"nx", "ny"}},
		{"lx", []string{"LX", "LY"}, []string{"LX"}},
		{"LQ", []string{"LX", "LY"}, []string{"LX", "LY"}},
		{"weight", []string{"weights", "wait"}, []string{"weights"}},
		{"xyz", []string{"out", "json"}, nil},
	} {
		if got := nearNames(c.typed, c.names); !slices.Equal(got, c.want) {
			t.Errorf("nearNames(%q, %q) = %q, want %q", c.typed, c.names, got, c.want)
		}
	}
}

// placeholderKernel splits by a const whose default, 0, does not parse:
// a placeholder that every call overrides.
const placeholderKernel = "kernel placeholder\nconst LX = 0\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\nsplit i LX i_out i_in\ntag i_out g.0, i_in l.0\na[i] = 2*a[i]\n"

// A kernel whose default consts do not parse is predicted and counted
// with the consts given, as before the names were checked: the check
// needs the defaults, so it steps aside.
func TestUnknownNamePlaceholderConst(t *testing.T) {
	knl := filepath.Join(t.TempDir(), "placeholder.knl")
	if err := os.WriteFile(knl, []byte(placeholderKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCommand(t, predictCmd, "predict", "--weights", "../../datasets/tuning/pocl.weights.arrow", knl, "--const", "LX=64", "--param", "n=4096")
	if code != 0 {
		t.Errorf("predict with LX=64 over a placeholder LX = 0: exit %d: %s", code, stderr)
	}
	// n = 4096 items, one multiply each.
	code, out := runCount(t, knl, "--const", "LX=64", "--param", "n=4096")
	if code != 0 || !regexp.MustCompile(`(?m)^flop\.f32\.mul +4096 `).MatchString(out) {
		t.Errorf("count with LX=64 over a placeholder LX = 0: exit %d: %s", code, out)
	}
}
