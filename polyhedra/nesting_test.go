package polyhedra

import (
	"strings"
	"testing"
)

// Nesting past maxNesting is a syntax error at the place it goes too deep
// (200,000 parentheses overflowed the stack); a set nested just below it
// parses and counts what a hand count says.
func TestNestingBounded(t *testing.T) {
	deep := maxNesting + 50
	wrap := func(open, core, close string, n int) string {
		return strings.Repeat(open, n) + core + strings.Repeat(close, n)
	}
	cases := []struct{ name, src string }{
		{"formula parentheses", "{ [i] : " + wrap("(", "0 <= i <= 3", ")", 200_000) + " }"},
		{"expression parentheses", "{ [i] : 0 <= " + wrap("(", "i", ")", deep) + " <= 3 }"},
		{"not", "{ [i] : 0 <= i <= 3 and " + strings.Repeat("not ", deep) + "i = 9 }"},
		{"unary minus", "{ [i] : 0 <= i <= 3 and " + strings.Repeat("- ", deep) + "i <= 9 }"},
		{"floor", "{ [i] : 0 <= i <= 3 and " + wrap("floor(", "i", ")", deep) + " <= 9 }"},
		{"exists", "{ [i] : 0 <= i <= 3 and " + strings.Repeat("exists e : ", deep) + "i <= 9 }"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseSet(c.src)
			se, ok := err.(*SyntaxError)
			if !ok || se.Line != 1 || se.Col < 2 || !strings.Contains(err.Error(), "nested more than 256 levels") {
				t.Fatalf("error %v, want a syntax error with the place and the limit", err)
			}
		})
	}
	s, err := ParseSet("{ [i] : 0 <= " + wrap("(", "i", ")", 200) + " <= 3 and " + wrap("(", "i >= 1", ")", 200) + " }")
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Card()
	if err != nil {
		t.Fatal(err)
	}
	if v, err := c.Eval(nil); err != nil || v.Int64() != 3 {
		t.Fatalf("card %v (%v), want 3 (i = 1, 2, 3)", v, err)
	}
}
