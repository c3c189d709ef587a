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
