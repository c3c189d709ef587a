package polyhedra

import (
	"math/big"
	"testing"
)

// checkCounts counts src symbolically and compares its value at every
// n in [n0, n1] and m in [m0, m1] with want, a count by enumeration.
func checkCounts(t *testing.T, src string, n0, n1, m0, m1 int64, want func(n, m int64) int64) *PwQPolynomial {
	t.Helper()
	_, q := parseAndCount(t, src)
	for n := n0; n <= n1; n++ {
		for m := m0; m <= m1; m++ {
			w := want(n, m)
			got, err := q.Eval(map[string]int64{"n": n, "m": m})
			if err != nil || !got.IsInt64() || got.Int64() != w {
				t.Fatalf("%s at n=%d m=%d: %s = %v (%v), enumeration %d", src, n, m, q, got, err, w)
			}
		}
	}
	return q
}

// checkCountsShown is checkCounts over n and m in [lo, hi] that also
// checks the printed pieces' values there.
func checkCountsShown(t *testing.T, src string, lo, hi int64, want func(n, m int64) int64) {
	t.Helper()
	q := checkCounts(t, src, lo, hi, lo, hi, want)
	for n := lo; n <= hi; n++ {
		for m := lo; m <= hi; m++ {
			got, ok := shownValue(q, env{"n": n, "m": m})
			if w := want(n, m); !ok || got.Cmp(big.NewRat(w, 1)) != 0 {
				t.Fatalf("%s at n=%d m=%d: printed pieces give %v, loops %d:\n%s", src, n, m, got, w, q)
			}
		}
	}
}
