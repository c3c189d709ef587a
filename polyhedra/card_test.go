package polyhedra

import (
	"math/big"
	"math/rand"
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
		s, q := parseAndCount(t, src)
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
		s, q := parseAndCount(t, src)
		if n := len(q.view()); n != 1 {
			t.Errorf("%s: %d pieces printed, want 1:\n%s", src, n, q)
		}
		checkShown(t, s, q, -2, 10)
	}
}

// TestParallelImplies checks parallelImplies against enumeration: when
// it says a set implies a row, every point of the set on a grid
// satisfies the row. The sets and rows are random, with rows often a
// shift of a constraint.
func TestParallelImplies(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	rnd := func() []int64 {
		return []int64{r.Int63n(9) - 4, r.Int63n(5) - 2, r.Int63n(5) - 2}
	}
	said := 0
	for range 2000 {
		b := newBset(2, 0)
		for range 1 + r.Intn(3) {
			b.addIneq(rnd())
		}
		if r.Intn(3) == 0 {
			b.addEq(rnd())
		}
		row := rnd()
		if r.Intn(2) == 0 {
			src := b.ineqs[r.Intn(len(b.ineqs))]
			row = []int64{src[0] + r.Int63n(5) - 2, src[1], src[2]}
		}
		if !b.parallelImplies(row) {
			continue
		}
		said++
		for n := int64(-12); n <= 12; n++ {
			for m := int64(-12); m <= 12; m++ {
				pt := []int64{1, n, m}
				if b.holds(pt) && dot(row, pt) < 0 {
					t.Fatalf("eqs %v ineqs %v: said to imply %v, fails at n=%d m=%d", b.eqs, b.ineqs, row, n, m)
				}
			}
		}
	}
	if said < 100 {
		t.Errorf("only %d implications claimed: the test checks little", said)
	}
}

// parseAndCount parses src and counts it, failing the test on an error.
func parseAndCount(t *testing.T, src string) (*Set, *PwQPolynomial) {
	t.Helper()
	s, err := ParseSet(src)
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.Card()
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return s, q
}
