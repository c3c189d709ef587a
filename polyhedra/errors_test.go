package polyhedra

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
)

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
		msg       string
	}{
		{"[n] -> { [i] : 0 <= i < n", 1, 26, `expected "}" to close the set`},
		{"[n] -> { [i] : 0 <= i < n and }", 1, 31, "expected an expression"},
		{"[n] -> { [i] : i * i < n }", 1, 18, "non-affine"},
		{"[n] -> { [i] : 2 i n < 3 }", 1, 20, "non-affine"},
		{"[n] -> { [i] : 0 <= i <\n n + }", 2, 6, "expected an expression"},
		{"[n] -> { [i, i] : 0 <= i < n }", 1, 14, "dimension i given twice"},
		{"[n] -> { [i] : 0 <= i < n } x", 1, 29, "expected end of input"},
		{"[n] -> { [i] : i mod n = 0 }", 1, 18, "positive integer constant"},
		{"[n] -> { [i] : i < n/0 }", 1, 21, "division by zero"},
		{"[n] -> { [i] : i < 99999999999999999999 }", 1, 20, "does not fit in 64 bits"},
		{"[n] -> { [i] : i @ 2 }", 1, 18, "unexpected character"},
		{"[n] -> { [i] : (0 <= i < n }", 1, 28, `expected ")"`},
		{"[n] -> { [i] : exists (q : i = 2q }", 1, 35, `expected ")"`},
		{"[n] -> { [i] : 0 <= i; [j, k] : j < n }", 1, 24, "2 dimensions, the first has 1"},
		{"[n] -> { [n] : n < 10 }", 1, 10, "name of a parameter"},
		{"[n] -> { [i] : i }", 1, 18, "expected a comparison"},
		{"[n] { [i] }", 1, 5, `expected "->"`},
		{"[n -> { [i] }", 1, 4, `expected "," or "]"`},
		{"{ [and] }", 1, 4, "expected dimension name"},
	}
	for _, c := range cases {
		_, err := ParseSet(c.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseSet(%q) = %v, want a *SyntaxError", c.src, err)
			continue
		}
		if se.Line != c.line || se.Col != c.col || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("ParseSet(%q): %d:%d: %s, want %d:%d: ...%s...", c.src, se.Line, se.Col, se.Msg, c.line, c.col, c.msg)
		}
	}
}

func TestUnbounded(t *testing.T) {
	cases := []struct{ src, dim string }{
		{"[n] -> { [i] : i >= 0 }", "i"},
		{"[n] -> { [i, j] : 0 <= i < n and j >= i }", "j"},
		{"[n] -> { [i] : 0 <= i < n or i >= n and n < 0 }", "i"},
	}
	for _, c := range cases {
		s, err := ParseSet(c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Card()
		var ue *UnboundedError
		if !errors.As(err, &ue) || ue.Dim != c.dim {
			t.Errorf("Card(%s) = %v, want unbounded in %s", c.src, err, c.dim)
		}
	}
	// Empty for every parameter value: bounded after all.
	s, err := ParseSet("[n] -> { [i] : i >= 0 and 2n = 2i + 1 }")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.Card(); err != nil || c.String() != "[n] -> { 0 }" {
		t.Errorf("Card of an empty set: %v, %v", c, err)
	}
}

func TestEvalErrors(t *testing.T) {
	s, err := ParseSet("[n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= i + m }")
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Card()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Eval(map[string]int64{"n": 3}); err == nil || !strings.Contains(err.Error(), "missing parameter m") {
		t.Errorf("Eval without m: %v", err)
	}
	if _, err := c.Compile([]string{"n"}); err == nil || !strings.Contains(err.Error(), "missing parameter m") {
		t.Errorf("Compile without m: %v", err)
	}
	// Beyond int64 Eval stays exact; the compiled form reports overflow.
	tri, err := ParseSet("[n] -> { [i, j] : 0 <= j <= i < n }")
	if err != nil {
		t.Fatal(err)
	}
	tc, err := tri.Card()
	if err != nil {
		t.Fatal(err)
	}
	n := int64(1) << 40
	got, err := tc.Eval(map[string]int64{"n": n})
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Mul(big.NewInt(n), big.NewInt(n+1))
	want.Rsh(want, 1)
	if got.Cmp(want) != 0 {
		t.Errorf("triangle at 2^40: %s, want %s", got, want)
	}
	prog, err := tc.Compile([]string{"n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := prog.Eval([]int64{n}); !errors.Is(err, ErrOverflow) {
		t.Errorf("compiled triangle at 2^40: %v, want overflow", err)
	}
	// The intermediate n^2 overflows but the value fits: exact fallback.
	const root = 3037000500 // root^2 > MaxInt64 > root*(root+1)/2
	if v, err := prog.Eval([]int64{root}); err != nil || v != root*(root+1)/2 {
		t.Errorf("compiled triangle at %d: %d, %v", int64(root), v, err)
	}
	// A domain constraint that overflows.
	st, err := ParseSet("[n, m] -> { [i] : 0 <= i < n and 3n <= 5m }")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := st.Card()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Eval(map[string]int64{"n": math.MaxInt64 / 3, "m": math.MaxInt64 / 3}); !errors.Is(err, ErrOverflow) {
		t.Errorf("Eval at the edge of int64: %v, want overflow", err)
	}
}

func TestParseOverflow(t *testing.T) {
	_, err := ParseSet("{ [i] : 9223372036854775807 i + 9223372036854775807 >= 2 i }")
	if err != nil && !errors.Is(err, ErrOverflow) {
		t.Errorf("got %v, want success or overflow", err)
	}
	s, err := ParseSet("{ [i] : 0 <= i < 9223372036854775807 }")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Card(); err != nil && !errors.Is(err, ErrOverflow) {
		t.Errorf("Card near int64: %v", err)
	}
}
