package main

import (
	"strings"
	"testing"
)

// A mistyped flag names the command and the flags it may have meant
// (predict has --weights, tune --param), and is bad usage.
func TestFlagErrorSuggests(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"predict", "--weight", "w.arrow"}, []string{"predict: unknown flag: --weight", "did you mean --weights?", "uniperf predict --help"}},
		{[]string{"tune", "k", "--parm", "n=3"}, []string{"tune: unknown flag: --parm", "did you mean --param?"}},
		{[]string{"kernels", "show", "--lnag", "cuda", "k"}, []string{"kernels show: unknown flag: --lnag", "did you mean --lang?"}},
	} {
		code := 0
		msg := captureStderr(t, func() { code = run(c.args) })
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: %q lacks %q", c.args, msg, w)
			}
		}
	}
	// Nothing within two edits: no suggestion.
	msg := captureStderr(t, func() { run([]string{"fit", "--xyz"}) })
	if strings.Contains(msg, "did you mean") {
		t.Errorf("fit --xyz suggested a flag: %q", msg)
	}
}

// Levenshtein distances worked by hand.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"weight", "weights", 1}, {"parm", "param", 1},
		{"kitten", "sitting", 3}, {"lnag", "lang", 2}, {"flaw", "lawn", 2},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
