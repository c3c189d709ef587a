package polyhedra

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Enumeration tests at most MaxPoints candidate points:
// a set whose bounding box is far larger than itself (a mod constraint
// keeps one point in 97) stops with a points budget error instead of
// running for minutes, and within the budget counts what brute force does.
func TestEnumerateBudget(t *testing.T) {
	s, err := ParseSet("[n] -> { [a, b, c] : 0 <= a, b, c < n and (a + 2b + 3c) mod 97 = 1 }")
	if err != nil {
		t.Fatal(err)
	}
	count := func(n, points int64) (int64, error) {
		var got int64
		err := s.EnumerateLimits(map[string]int64{"n": n}, Limits{MaxPoints: points}, func([]int64) bool {
			got++
			return true
		})
		return got, err
	}
	var be *BudgetError
	if _, err := count(1000, 0); !errors.As(err, &be) || be.Limit != "points" || be.Value != DefaultMaxPoints ||
		!strings.Contains(err.Error(), "enumeration budget") {
		t.Fatalf("error %v, want the default points budget of %d", err, DefaultMaxPoints)
	}
	const n = 30
	var want int64
	for a := range n {
		for b := range n {
			for c := range n {
				if (a+2*b+3*c)%97 == 1 {
					want++
				}
			}
		}
	}
	if got, err := count(n, 2*n*n*n); err != nil || got != want {
		t.Fatalf("%d points (%v), want %d", got, err, want)
	}
}

// A set of more than MaxDims parameters, dimensions and existential
// variables is refused at its place with the limit (an 800-dimensional
// set ran out of memory after 76 s).
func TestMaxDims(t *testing.T) {
	names := func(prefix string, n int) string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprintf("%s%d", prefix, i))
		}
		return strings.Join(s, ", ")
	}
	cases := []string{
		"{ [" + names("x", 800) + "] : x0 = 0 }",
		"[" + names("p", 40) + "] -> { [" + names("x", 30) + "] : x0 = p0 }",
		"{ [" + names("x", 60) + "] : exists (" + names("e", 10) + " : x0 = e0) }",
	}
	for _, src := range cases {
		_, err := ParseSet(src)
		if se, ok := err.(*SyntaxError); !ok || se.Line != 1 || !strings.Contains(err.Error(), fmt.Sprintf("more than the %d", MaxDims)) {
			t.Errorf("%s: error %v, want a syntax error naming the limit", Brief(src), err)
		}
	}
	s, err := ParseSet("{ [" + names("x", MaxDims) + "] : " + strings.ReplaceAll(names("x", MaxDims), ",", " = 1 and") + " = 1 }")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := s.Card(); err != nil {
		t.Fatal(err)
	} else if v, err := c.Eval(nil); err != nil || v.Int64() != 1 {
		t.Fatalf("card %v (%v), want 1", v, err)
	}
}

// CountAt refuses a condition with exists at its place and says what to
// write instead; the rewritten set counts what brute force does.
func TestCountAtExistsRefusedWithRewrite(t *testing.T) {
	params := map[string]int64{"n": 10}
	_, err := CountAt("[n] -> { [a, b] : 0 <= a, b < n and exists (e : a = 2e) and a != 1 and b != 3 }", params, Limits{}, 1e6)
	if err == nil || !strings.Contains(err.Error(), "1:37") || !strings.Contains(err.Error(), "i mod 2 = 0") {
		t.Fatalf("error %v, want the place and the rewrite", err)
	}
	n, err := CountAt("[n] -> { [a, b] : 0 <= a, b < n and a mod 2 = 0 and a != 1 and b != 3 }", params, Limits{}, 1e6)
	if err != nil || n != 5*9 {
		t.Fatalf("%d points (%v), want 45 (a even, b not 3)", n, err)
	}
}
