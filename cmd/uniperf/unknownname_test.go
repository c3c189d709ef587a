package main

import (
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
	// TX, TY; a --const it does not declare would be a tunable no const
	// reads.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--param", "nn=64"},
			`--param "nn=64": ../../examples/matmul_kernel.knl has no parameter nn (its parameters: n; did you mean n?)`},
		{[]string{"--param", "n=64", "--const", "tx=1,2"},
			`--const "tx=1,2": ../../examples/matmul_kernel.knl has no const tx (its consts: BX, BY, TX, TY; did you mean TX?)`},
	} {
		code, _, stderr := runCommand(t, tuneCmd, slices.Concat([]string{"tune", "../../examples/matmul_kernel.knl",
			"--space", "../../examples/matmul_kernel.space.json", "--weights", weights}, c.args)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("tune %v: exit %d: %s, want %q", c.args, code, stderr, c.want)
		}
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
