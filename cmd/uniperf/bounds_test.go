package main

import (
	"strings"
	"testing"
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
