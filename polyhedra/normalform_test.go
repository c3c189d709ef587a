package polyhedra

import (
	"math/big"
	"testing"
)

// shownValue evaluates the pieces a function prints (see presentPieces),
// which are formed apart from the pieces Eval and Compile read; ok is
// false on overflow.
func shownValue(q *PwQPolynomial, p env) (v *big.Rat, ok bool) {
	vals, err := paramValues(q.params, p)
	if err != nil {
		return nil, false
	}
	sum := new(big.Rat)
	for _, pc := range q.view() {
		v, in, ok := polyAt(pc, vals)
		if !ok {
			return nil, false
		}
		if in {
			sum.Add(sum, v)
		}
	}
	return sum, true
}

// TestCardNormalForm counts the sets of issue 26, on which barvinok
// 0.41.8 answers with 1, 1, 3 and 3 pieces, and compares the printed
// pieces with enumeration on a grid of parameters, negative ones
// included. The first answer is barvinok's own, "{ 1 : n = 0 and
// m >= -2 }": its three cubic pieces are constant on their domains, which
// hold only n = 0. The second, the shape of a work-group footprint, is n,
// as barvinok says, where the pieces as counted are quasi-polynomials of
// period 256.
func TestCardNormalForm(t *testing.T) {
	cases := []struct {
		src       string
		want      string // the printed answer, where barvinok's is known
		maxPieces int    // the pieces uniperf prints today
	}{
		{"[n, m] -> { [i, j, k] : i >= -2 and i <= m + 1 and j >= i + 1 and j <= 2n - 1 and 2k >= i + j + 2 and 2k <= n + m + 2 and -2i - k - 2n - 4 >= 0 }",
			"[n, m] -> { 1 : n = 0 and m >= -2 }", 1},
		{"[n] -> { [a] : exists (g, p : 0 <= p < 256 and 0 <= 256g + p < n and a = 256g + p) }", "[n] -> { n : n >= 1 }", 1},
		{"[n, m] -> { [i, j, k] : 1 <= i < n - 1 and 1 <= j < m - 1 and 0 <= k <= i + j and k mod 2 = 0 }", "", 1},
		{"[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m }", "", 20},
	}
	for _, c := range cases {
		s, q := parseAndCount(t, c.src)
		if c.want != "" && q.String() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.src, q, c.want)
		}
		if n := len(q.view()); n > c.maxPieces {
			t.Errorf("%s: %d pieces, want at most %d:\n%s", c.src, n, c.maxPieces, q)
		}
		checkShown(t, s, q, -3, 12)
	}
}

// checkShown compares the printed pieces of q, the count of s, with
// enumeration at every n and m in [lo, hi] (l = 3 for sets that have it).
func checkShown(t *testing.T, s *Set, q *PwQPolynomial, lo, hi int64) {
	t.Helper()
	for n := lo; n <= hi; n++ {
		for m := lo; m <= hi; m++ {
			p := env{"n": n, "m": m, "l": 3}
			want := int64(len(enumerated(t, s, p)))
			if got, ok := shownValue(q, p); !ok || got.Cmp(big.NewRat(want, 1)) != 0 {
				t.Fatalf("%s at %v: printed pieces give %v, enumeration %d:\n%s", s, p, got, want, q)
			}
		}
	}
}
