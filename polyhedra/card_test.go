package polyhedra

import (
	"math/big"
	"testing"
)

// TestCardImplicitEqualities counts sets whose points lie on a
// hyperplane that no single constraint states, which Card makes an
// equality before counting: the values must match enumeration, and the
// count must be one piece as counted (Eval's pieces, before the printed
// normal form), where the rational relaxation's chambers gave tens.
func TestCardImplicitEqualities(t *testing.T) {
	for _, src := range []string{
		// Points only at n = 0 (issue 26).
		"[n, m] -> { [i, j, k] : i >= -2 and i <= m + 1 and j >= i + 1 and j <= 2n - 1 and 2k >= i + j + 2 and 2k <= n + m + 2 and -2i - k - 2n - 4 >= 0 }",
		// i + j = n, from two constraints.
		"[n, m] -> { [i, j] : i + j <= n and i >= n - j and 0 <= i <= n and j >= 0 }",
		// A triangle with only (0, 0) over the integers, times a line.
		"[n, m] -> { [i, j, k] : i >= 0 and j >= 0 and i + 2j <= 1 and 2i + j <= 1 and 0 <= k < n + m }",
	} {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		q, err := s.Card()
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if len(q.pieces) > 1 {
			t.Errorf("%s: %d pieces as counted, want 1:\n%s", src, len(q.pieces), q)
		}
		for n := int64(-3); n <= 8; n++ {
			for m := int64(-3); m <= 8; m++ {
				want := big.NewInt(int64(len(enumerated(t, s, env{"n": n, "m": m}))))
				if got, err := q.Eval(map[string]int64{"n": n, "m": m}); err != nil || got.Cmp(want) != 0 {
					t.Fatalf("%s at n=%d m=%d: %v (%v), enumeration %v", src, n, m, got, err, want)
				}
			}
		}
		checkShown(t, s, q, -3, 8)
	}
}

// TestCardUnitesPieces counts sets whose count is one quasi-polynomial
// wherever it is not zero (a periodic summand over a box), which
// counting splits into pieces along n = m and lines beside it whose
// union is a basic set but no two of which unite. The printed answer
// must be one piece and match enumeration.
func TestCardUnitesPieces(t *testing.T) {
	for _, src := range []string{
		"[n, m] -> { [i, j, k] : 1 <= i < n - 1 and 1 <= j < m - 1 and 0 <= k <= i + j and k mod 2 = 0 }",
		"[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k <= i + j and k mod 2 = 0 }",
		"[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k <= 2i + j and k mod 2 = 0 }",
	} {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		q, err := s.Card()
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if n := len(q.view()); n != 1 {
			t.Errorf("%s: %d pieces printed, want 1:\n%s", src, n, q)
		}
		checkShown(t, s, q, -2, 10)
	}
}
