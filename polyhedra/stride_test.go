package polyhedra

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"
)

// stencilClosedForm is the count of the k mod 2 set of issue 26 derived
// by hand: with a = n - 2 and b = m - 2 (the ranges of i and j), each
// (i, j) holds floor((i + j)/2) + 1 even k, and floor(s/2) is
// (s - s mod 2)/2, so the count is a*b + (sum of i + j - odd)/2, where
// the sum of i + j over the box is a*b*(a + b + 2)/2 and odd, the pairs
// with i + j odd, is odd i times even j plus even i times odd j.
func stencilClosedForm(n, m int64) int64 {
	a, b := n-2, m-2
	if a <= 0 || b <= 0 {
		return 0
	}
	oddA, evenA := (a+1)/2, a/2
	oddB, evenB := (b+1)/2, b/2
	odd := oddA*evenB + evenA*oddB
	return a*b + (a*b*(a+b+2)/2-odd)/2
}

// TestCardStencilOnePiece checks that the k mod 2 set of issue 26 is
// counted in one piece (k, which its congruence confines to one class,
// is summed first, in one chamber) and that the count, as counted and as
// printed, is the closed form, on a grid around the domain's corners and
// at random points up to 10^6.
func TestCardStencilOnePiece(t *testing.T) {
	src := "[n, m] -> { [i, j, k] : 1 <= i < n - 1 and 1 <= j < m - 1 and 0 <= k <= i + j and k mod 2 = 0 }"
	s, q := parseAndCount(t, src)
	if len(q.pieces) != 1 || len(q.view()) != 1 {
		t.Errorf("%d pieces counted, %d printed, want 1 and 1:\n%s", len(q.pieces), len(q.view()), q)
	}
	check := func(n, m int64) {
		want := big.NewRat(stencilClosedForm(n, m), 1)
		got, err := q.Eval(map[string]int64{"n": n, "m": m})
		if err != nil || new(big.Rat).SetInt(got).Cmp(want) != 0 {
			t.Fatalf("n=%d m=%d: Eval %v (%v), closed form %v:\n%s", n, m, got, err, want, q)
		}
		shown, ok := shownValue(q, env{"n": n, "m": m})
		if !ok || shown.Cmp(want) != 0 {
			t.Fatalf("n=%d m=%d: printed pieces give %v, closed form %v:\n%s", n, m, shown, want, q)
		}
	}
	for n := int64(-4); n <= 24; n++ {
		for m := int64(-4); m <= 24; m++ {
			check(n, m)
		}
	}
	r := rand.New(rand.NewSource(2))
	for range 200 {
		check(r.Int63n(1_000_000)-10, r.Int63n(1_000_000)-10)
	}
	// The closed form itself against loops.
	for n := int64(-2); n <= 14; n++ {
		for m := int64(-2); m <= 14; m++ {
			var k int64
			for i := int64(1); i < n-1; i++ {
				for j := int64(1); j < m-1; j++ {
					for kk := int64(0); kk <= i+j; kk += 2 {
						k++
					}
				}
			}
			if w := stencilClosedForm(n, m); w != k {
				t.Fatalf("n=%d m=%d: closed form %d, loops %d", n, m, w, k)
			}
		}
	}
	checkShown(t, s, q, -3, 12)
}

// TestCardStrideClass counts sets whose innermost variable a congruence
// confines to one residue class, with bounds that use the other
// dimensions (summed first when it has one bound each way, as the class
// alone) or several bounds each way (split as before), and compares the
// counts, as counted and as printed, with loops.
func TestCardStrideClass(t *testing.T) {
	type stride struct {
		mod, res int64
		lo, hi   string                         // bounds of k
		in       func(n, m, i, j, k int64) bool // the set, for the loops
	}
	for _, c := range []stride{
		{2, 0, "0", "i + j", func(n, m, i, j, k int64) bool { return 0 <= k && k <= i+j }},
		{3, 1, "0", "i + j", func(n, m, i, j, k int64) bool { return 0 <= k && k <= i+j }},
		{5, 3, "i", "2i + j + m", func(n, m, i, j, k int64) bool { return i <= k && k <= 2*i+j+m }},
		{4, 2, "j - i", "n + j", func(n, m, i, j, k int64) bool { return j-i <= k && k <= n+j }},
		{7, 6, "-i", "i + 3j", func(n, m, i, j, k int64) bool { return -i <= k && k <= i+3*j }},
		{2, 1, "0", "min(i + j, n)", func(n, m, i, j, k int64) bool { return 0 <= k && k <= i+j && k <= n }},
		{3, 2, "max(i, j)", "n + m", func(n, m, i, j, k int64) bool { return i <= k && j <= k && k <= n+m }},
	} {
		src := fmt.Sprintf("[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and %s <= k <= %s and k mod %d = %d }", c.lo, c.hi, c.mod, c.res)
		want := func(n, m int64) int64 {
			var cnt int64
			for i := int64(0); i < n; i++ {
				for j := int64(0); j < m; j++ {
					for k := -3*(n+m) - 10; k <= 3*(n+m)+10; k++ {
						if ((k%c.mod)+c.mod)%c.mod == c.res && c.in(n, m, i, j, k) {
							cnt++
						}
					}
				}
			}
			return cnt
		}
		checkCountsShown(t, src, -2, 11, want)
	}
}
