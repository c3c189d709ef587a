package polyhedra

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckNames(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[n] -> { [i] : 0 <= i < nn }", "1:25: nn is neither a declared parameter (n) nor a dimension (i)"},
		{"[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and i < n; [i, j] : i = 0 and j = mm }", "1:82: mm is neither"},
		{"{ [i] : 0 <= i < 1e3 }", "1:18: 1e3 is not an integer: write it out in full"},
		{"[n] -> { [i] : 0 <= i < 2E10 n }", "1:25: 2E10 is not an integer"},
		{"[n] -> { [i] : 0 <= i < n and exists (q : i = 2q + 1 and q < n) }", ""},
		{"{ [i] : 0 <= i < n }", ""}, // undeclared parameters are isl's, without a list
		{"[n] -> { [i] : 0 <= i < 2 e3 }", "e3 is neither"},
		{"[n] -> { [i] : 0 <= i < 2e }", "e is neither"},
	} {
		err := CheckNames(c.src)
		var se *SyntaxError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.src, err)
		case c.want != "" && (!errors.As(err, &se) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a syntax error %q", c.src, err, c.want)
		}
	}
}

func TestBrief(t *testing.T) {
	short := "{ [i] : 0 <= i < 10 }"
	if Brief(short) != short {
		t.Errorf("Brief(%q) = %q", short, Brief(short))
	}
	long := "{ [i] : " + strings.Repeat("i != 1 and ", 100) + "0 <= i < 10 }"
	got := Brief(long)
	if !strings.HasPrefix(got, long[:200]) || !strings.HasSuffix(got, "… (1121 characters)") || len(got) > 230 {
		t.Errorf("Brief of %d characters = %q", len(long), got)
	}
	e := &BudgetError{Limit: "pieces", Value: 10, Set: long}
	if msg := e.Error(); len(msg) > 300 || e.Set != long {
		t.Errorf("BudgetError message of %d characters, or Set changed", len(msg))
	}
}
