package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// runCard runs uniperf card with args and returns the exit status and
// the standard output.
func runCard(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	cardCmd.SetOut(&out)
	t.Cleanup(func() { cardCmd.SetOut(nil); cardParams = nil; cardJSON = false })
	cardParams, cardJSON = nil, false
	code := run(append([]string{"card"}, args...))
	return code, out.String()
}

func TestCardCommand(t *testing.T) {
	code, out := runCard(t, "[n] -> { [i, j] : 0 <= j <= i < n }", "--param", "n=10")
	// n(n+1)/2 at n = 10
	want := "[n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }\nvalue at n=10: 55\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}

	code, out = runCard(t, "[n] -> { [i] : 0 <= i < n and i mod 4 = 1 }")
	if code != 0 || strings.Contains(out, "value") || !strings.HasPrefix(out, "[n] -> { ") {
		t.Errorf("without --param: exit %d, output %q", code, out)
	}

	code, out = runCard(t, "{ [i, j] : 0 <= i < 4 and 0 <= j < 3 }")
	if code != 0 || out != "{ 12 }\nvalue: 12\n" {
		t.Errorf("no parameters: exit %d, output %q", code, out)
	}
}

func TestCardCommandJSON(t *testing.T) {
	// 3 x 5 rectangle, and a count beyond int64: (4e9)^2
	cases := []struct {
		args  []string
		value string
	}{
		{[]string{"[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }", "--param", "n=3", "--param", "m=5"}, "15"},
		{[]string{"[n] -> { [i, j] : 0 <= i, j < n }", "--param", "n=4000000000"}, "16000000000000000000"},
		{[]string{"[n] -> { [i] : 0 <= i < n }"}, ""},
	}
	for _, c := range cases {
		code, out := runCard(t, append(c.args, "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		var res map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %v in %s", c.args, err, out)
		}
		var set, expr string
		if err := json.Unmarshal(res["set"], &set); err != nil || !strings.Contains(set, "->") && !strings.HasPrefix(set, "{") {
			t.Errorf("%v: set %s", c.args, res["set"])
		}
		if err := json.Unmarshal(res["expression"], &expr); err != nil || expr == "" {
			t.Errorf("%v: expression %s", c.args, res["expression"])
		}
		if got := string(res["value"]); got != c.value {
			t.Errorf("%v: value %q, want %q", c.args, got, c.value)
		}
	}
}

func TestCardCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"[n] -> { [i] : 0 <= i < n"}, `SET:1:26: expected "}"`},
		{[]string{"[n] -> { [i] : i * i < n }"}, "SET:1:18: non-affine"},
		{[]string{"[n] -> { [i, j] : 0 <= i < n and j >= i }"}, "dimension j"},
		{[]string{"[n, m] -> { [i] : 0 <= i < n and i < m }", "--param", "n=4"}, "missing parameter m"},
		{[]string{"[n] -> { [i] : 0 <= i < n }", "--param", "x=4"}, "no parameter x"},
		{[]string{"[n] -> { [i] : 0 <= i < n }", "--param", "n=four"}, "not an integer"},
		{[]string{"[n, m] -> { [i] : 0 <= i < n and 3n <= 5m }", "--param", "n=3074457345618258602", "--param", "m=3074457345618258602"}, "overflow"},
	}
	for _, c := range cases {
		if code, _ := runCard(t, c.args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		params, err := parseParams(paramFlags(c.args))
		if err == nil {
			err = card(&bytes.Buffer{}, c.args[0], params, false)
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.msg)
		}
	}
	if code, _ := runCard(t); code != 2 {
		t.Errorf("no SET: exit %d, want 2", code)
	}
}

// paramFlags extracts the --param values from an argument list.
func paramFlags(args []string) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--param" {
			out = append(out, args[i+1])
		}
	}
	return out
}
