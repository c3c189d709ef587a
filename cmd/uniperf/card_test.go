package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/polyhedra"
)

// runCard runs uniperf card with args and returns the exit status and
// the standard output.
func runCard(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	cardCmd.SetOut(&out)
	t.Cleanup(func() { cardCmd.SetOut(nil); cardCmd.SetErr(nil); resetCardFlags() })
	resetCardFlags()
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
	// 3 x 5 rectangle, and 2^31 x 2^31 = 2^62
	cases := []struct {
		args  []string
		value string
	}{
		{[]string{"[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }", "--param", "n=3", "--param", "m=5"}, "15"},
		{[]string{"[n] -> { [i, j] : 0 <= i, j < n }", "--param", "n=2147483648"}, "4611686018427387904"},
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
		{[]string{"[nx] -> { [i] : 0 <= i < nx }", "--param", "ny=4"}, "the set has no parameter ny (its parameters: nx; did you mean nx?)"},
		{[]string{"[n] -> { [i] : 0 <= i < n }", "--param", "n=four"}, "not an integer"},
		{[]string{"[n, m] -> { [i] : 0 <= i < n and 3n <= 5m }", "--param", "n=3074457345618258602", "--param", "m=3074457345618258602"}, "overflow"},
	}
	for _, c := range cases {
		if code, _ := runCard(t, c.args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		params, err := parseParams(paramFlags(c.args))
		if err == nil {
			err = card(&bytes.Buffer{}, &bytes.Buffer{}, c.args[0], params, false, polyhedra.Limits{})
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.msg)
		}
	}
	if code, _ := runCard(t); code != 2 {
		t.Errorf("no SET: exit %d, want 2", code)
	}
}

// resetCardFlags sets the flags of uniperf card to their defaults.
func resetCardFlags() {
	cardParams, cardJSON = nil, false
	cardMaxPieces, cardMaxMemory, cardMaxPoints = polyhedra.DefaultMaxPieces, polyhedra.DefaultMaxHeap>>20, polyhedra.DefaultMaxPoints
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

// issue13Set made uniperf card grow past 20 GB (issue 13). Its symbolic
// count exceeds the default piece budget.
const issue13Set = "[n, m] -> { [i, j, k] : 0 <= i <= m and -2 <= j < n + 2 and 0 <= k <= m and " +
	"(2k - m - 3 <= min(3n - 5, 2i + 2j - 2k + 1) or ((2i + 2k + n - 1 != -2j + 3k - n - 2m + 3 and " +
	"floor((-2i - j - 2n - 2m + 2)/2) <= k - 2m - 5) and ceil((-2i + 3j + k - 2n - 1)/4) <= 2i - 2j - k - 2n + 3m + 3)) }"

func TestCardBudget(t *testing.T) {
	// Without parameters the budget is an error naming itself and the set.
	var stderr bytes.Buffer
	err := card(&bytes.Buffer{}, &stderr, issue13Set, nil, false, polyhedra.Limits{MaxPieces: 300})
	if err == nil || !strings.Contains(err.Error(), "more than 300 basic sets") || !strings.Contains(err.Error(), "[n, m] -> { [i, j, k]") {
		t.Errorf("error %v, want the piece budget and the set", err)
	}
	if code, _ := runCard(t, issue13Set, "--max-pieces", "300"); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}

	// With parameters it falls back to the specialised set, says so, and
	// gives the value that brute force finds.
	stderr.Reset()
	var out bytes.Buffer
	err = card(&out, &stderr, issue13Set, map[string]int64{"n": 2, "m": 1}, true, polyhedra.Limits{MaxPieces: 300})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Expression *string `json:"expression"`
		Value      int64   `json:"value"`
		Method     string  `json:"method"`
		Note       string  `json:"note"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if res.Value != bruteIssue13(2, 1) || res.Method != "specialized" || res.Expression != nil || !strings.Contains(res.Note, "300") {
		t.Errorf("JSON %s", out.String())
	}
	if !strings.Contains(stderr.String(), "symbolic count stopped") {
		t.Errorf("stderr %q does not say that the count fell back", stderr.String())
	}
}

// bruteIssue13 counts issue13Set's points by brute force over its
// bounding box, the condition transcribed by hand.
func bruteIssue13(n, m int64) int64 {
	floor := func(a, b int64) int64 {
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		return q
	}
	var c int64
	for i := int64(0); i <= m; i++ {
		for j := int64(-2); j < n+2; j++ {
			for k := int64(0); k <= m; k++ {
				if 2*k-m-3 <= min(3*n-5, 2*i+2*j-2*k+1) ||
					2*i+2*k+n-1 != -2*j+3*k-n-2*m+3 && floor(-2*i-j-2*n-2*m+2, 2) <= k-2*m-5 &&
						-floor(2*i-3*j-k+2*n+1, 4) <= 2*i-2*j-k-2*n+3*m+3 {
					c++
				}
			}
		}
	}
	return c
}

// TestCardComplexity: a count stopped by the counter's own work limits
// names the set too, and falls back like one past the budget.
func TestCardComplexity(t *testing.T) {
	err := card(&bytes.Buffer{}, &bytes.Buffer{}, issue13Set, nil, false, polyhedra.Limits{})
	if err == nil || !strings.Contains(err.Error(), "[n, m] -> { [i, j, k]") {
		t.Errorf("error %v does not name the set", err)
	}
	var out bytes.Buffer
	if err := card(&out, &bytes.Buffer{}, issue13Set, map[string]int64{"n": 3, "m": 2}, false, polyhedra.Limits{}); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("value at n=3 m=2: %d\n", bruteIssue13(3, 2)); out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

// A set without parameters that exceeds the piece budget while it is
// parsed is enumerated (it has one value), not sent to --param, which it
// cannot take: 9^4 points of 0..9 without 1 in four dimensions.
func TestCardNoParamsPastParsingBudget(t *testing.T) {
	set := "{ [a, b, c, d] : 0 <= a, b, c, d < 10 and a != 1 and b != 1 and c != 1 and d != 1 }"
	code, out := runCard(t, set, "--max-pieces", "4")
	if code != 0 || out != "value: 6561\n" {
		t.Errorf("exit %d, output %q, want value: 6561", code, out)
	}
	var msg bytes.Buffer
	saved := stderr
	stderr = &msg
	defer func() { stderr = saved }()
	code, _ = runCard(t, set, "--max-pieces", "4", "--max-points", "1000")
	if code != 2 || strings.Contains(msg.String(), "--param") || !strings.Contains(msg.String(), "--max-points") {
		t.Errorf("past the enumeration budget: exit %d, message %q, want 2 naming the budget, not --param", code, msg.String())
	}
}
