package polyhedra

import (
	"errors"
	"strings"
	"testing"
)

// issue13Set is the set of issue 13, found by black-box fuzzing: before
// the piece budget, counting it grew past 20 GB of memory.
const issue13Set = "[n, m] -> { [i, j, k] : 0 <= i <= m and -2 <= j < n + 2 and 0 <= k <= m and " +
	"(2k - m - 3 <= min(3n - 5, 2i + 2j - 2k + 1) or ((2i + 2k + n - 1 != -2j + 3k - n - 2m + 3 and " +
	"floor((-2i - j - 2n - 2m + 2)/2) <= k - 2m - 5) and ceil((-2i + 3j + k - 2n - 1)/4) <= 2i - 2j - k - 2n + 3m + 3)) }"

// issue13Count counts the points of issue13Set by brute force over its
// bounding box, with the condition transcribed by hand.
func issue13Count(n, m int64) int64 {
	var c int64
	for i := int64(0); i <= m; i++ {
		for j := int64(-2); j < n+2; j++ {
			for k := int64(0); k <= m; k++ {
				left := 2*k-m-3 <= min(3*n-5, 2*i+2*j-2*k+1)
				right := 2*i+2*k+n-1 != -2*j+3*k-n-2*m+3 &&
					floorDivT(-2*i-j-2*n-2*m+2, 2) <= k-2*m-5 &&
					-floorDivT(-(-2*i+3*j+k-2*n-1), 4) <= 2*i-2*j-k-2*n+3*m+3
				if left || right {
					c++
				}
			}
		}
	}
	return c
}

func TestIssue13Budget(t *testing.T) {
	s, err := ParseSet(issue13Set)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.CardLimits(Limits{MaxPieces: 500})
	var be *BudgetError
	if !errors.As(err, &be) || be.Limit != "pieces" || be.Value != 500 {
		t.Fatalf("CardLimits(500 pieces) = %v, want a *BudgetError for the piece budget", err)
	}
	if !strings.Contains(err.Error(), "500") || !strings.Contains(err.Error(), "[n, m] -> { [i, j, k]") {
		t.Errorf("error %q names neither the budget nor the set", err)
	}
	_, err = s.CardLimits(Limits{MaxHeap: 1})
	if !errors.As(err, &be) || be.Limit != "heap" || !strings.Contains(err.Error(), "memory budget") {
		t.Errorf("CardLimits(1 byte of heap) = %v, want a *BudgetError for the heap", err)
	}
}

// TestIssue13Specialized counts the issue's set with its parameters
// fixed, symbolically and by enumeration, against brute force.
func TestIssue13Specialized(t *testing.T) {
	s, err := ParseSet(issue13Set)
	if err != nil {
		t.Fatal(err)
	}
	for n := int64(-3); n <= 6; n++ {
		for m := int64(-1); m <= 5; m++ {
			params := map[string]int64{"n": n, "m": m}
			want := issue13Count(n, m)
			sp, err := s.Specialize(params)
			if err != nil {
				t.Fatal(err)
			}
			if len(sp.Params()) != 0 {
				t.Fatalf("Specialize left parameters %v", sp.Params())
			}
			c, err := sp.Card()
			if err != nil {
				t.Fatalf("n=%d m=%d: %v", n, m, err)
			}
			got, err := c.Eval(nil)
			if err != nil || !got.IsInt64() || got.Int64() != want {
				t.Errorf("n=%d m=%d: specialised count %v (%v), brute force %d", n, m, got, err, want)
			}
			pts, ok := enumerateCapped(s, params, 10000)
			if !ok || int64(len(pts)) != want {
				t.Errorf("n=%d m=%d: Enumerate found %d points, brute force %d", n, m, len(pts), want)
			}
		}
	}
}

func TestSpecializePartly(t *testing.T) {
	s, err := ParseSet("[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m + i }")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := s.Specialize(map[string]int64{"m": 3, "x": 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := sp.Params(); len(got) != 1 || got[0] != "n" {
		t.Fatalf("parameters after fixing m: %v", got)
	}
	c, err := sp.Card()
	if err != nil {
		t.Fatal(err)
	}
	for n := int64(0); n <= 6; n++ {
		// sum_{i<n} (3 + i) = 3n + n(n-1)/2
		got, err := c.Eval(map[string]int64{"n": n})
		if want := 3*n + n*(n-1)/2; err != nil || got.Int64() != want {
			t.Errorf("n=%d: %v (%v), want %d", n, got, err, want)
		}
	}
}
