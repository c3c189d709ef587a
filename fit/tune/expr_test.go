package tune

import (
	"errors"
	"strings"
	"testing"
)

func env(m map[string]int64) func(string) (Value, bool) {
	return func(n string) (Value, bool) {
		v, ok := m[n]
		return IntValue(v), ok
	}
}

// TestExprPython checks values against what Python 3 prints for each
// expression (worked by hand from the language reference: floor
// division and modulo round towards -inf, comparisons chain).
func TestExprPython(t *testing.T) {
	vars := map[string]int64{"bx": 32, "by": 4, "ty": 8}
	for _, c := range []struct{ src, want string }{
		{"bx == by*ty", "True"},
		{"bx*by >= 64 and bx*by <= 1024", "True"},
		{"use == 0 or (bx % 32 != 0)", "unknown name"},
		{"-7 // 2", "-4"},
		{"-7 % 3", "2"},
		{"7 % -3", "-2"},
		{"7 / 2", "3.5"},
		{"2**10", "1024"},
		{"-2**2", "-4"},
		{"2**-1", "0.5"},
		{"1 < 2 < 3", "True"},
		{"3 > 2 > 2", "False"},
		{"by in [1, 2, 4]", "True"},
		{"by not in (1, 2, 4)", "False"},
		{"not bx", "False"},
		{"0 or 5", "5"},
		{"3 and 0", "0"},
		{"[16*i for i in range(1, 4)]", "[16, 32, 48]"},
		{"list(range(1, 9, 3))", "[1, 4, 7]"},
		{"[2**i for i in range(4)]", "[1, 2, 4, 8]"},
		{"range(5, 1, -2)", "[5, 3]"},
		{"max(bx, by, ty)", "32"},
		{"min([3, 1, 2])", "1"},
		{"abs(-3)", "3"},
		{"1 if bx > 16 else 2", "1"},
		{"'a' == \"a\"", "True"},
		{"1 == 1.0", "True"},
		{"True + 1", "2"},
		{"1.5e3", "1500.0"},
		{"9223372036854775807 + 1", "integer overflow"},
		{"3037000500 * 3037000500", "integer overflow"},
		{"1 // 0", "division by zero"},
		{"1 < 'a'", "cannot order"},
	} {
		e, err := ParseExpr(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		v, err := e.Eval(env(vars))
		got := v.String()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s = %s, want %s", c.src, got, c.want)
		}
	}
}

// TestExprRefused checks that what the subset leaves out is refused at
// its line and column.
func TestExprRefused(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"lambda p: p", "1:1:"},
		{"bx.real", "1:3:"},
		{"bx[0]", "1:3:"},
		{"__import__('os')", "1:1: function __import__ is not supported"},
		{"bx & 1", "1:4:"},
		{"bx ^ 1", "1:4:"},
		{"bx is None", "1:4: 'is' is not supported"},
		{"bx ==\n  @", "2:3:"},
		{"(bx", "1:4: expected"},
		{"[i for i in range(3) if i]", "1:22:"},
		{"bx = 3", "1:4:"},
		{"'abc", "1:1: unterminated string"},
		{"99999999999999999999", "1:1:"},
	} {
		_, err := ParseExpr(c.src)
		var ee *ExprError
		if err == nil || !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseExpr(%q) = %v, want an error starting %q", c.src, err, c.want)
		}
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"block_size_x*block_size_y >= 64", "[16*i for i in range(1,9)]", "a in (1, 2) and not b // 3 % 2", "2**62*4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := ParseExpr(src)
		if err != nil {
			return
		}
		_, _ = e.Eval(func(string) (Value, bool) { return IntValue(3), true })
	})
}

func FuzzReadSpace(f *testing.F) {
	for _, s := range []string{`{"tune_params": {"a": [1, 2]}, "restrictions": ["a > 1"]}`,
		`{"ConfigurationSpace": {"TuningParameters": [{"Name": "a", "Type": "int", "Values": "list(range(1, 9))"}], "Conditions": [{"Expression": "a % 2 == 0"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSpace(data, "fuzz")
		if err != nil {
			return
		}
		_, _ = s.Configs()
	})
}
