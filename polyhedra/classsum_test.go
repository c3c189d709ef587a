package polyhedra

import (
	"fmt"
	"testing"
)

// TestCardClassesShareChambers counts wedges a*i + b*j <= c*n + d*m over
// the box 0 <= i <= n, 0 <= j <= m, whose inner sums leave divs of the
// outer variable (its residue classes are summed in shared chambers),
// and compares the counts, as counted and as printed, with loops over
// the box.
func TestCardClassesShareChambers(t *testing.T) {
	for _, w := range [][4]int64{{3, 5, 2, 1}, {2, 3, 1, 1}, {4, 7, 3, 2}, {1, 3, 1, 0}, {5, 2, 2, 3}, {3, 4, 0, 2}} {
		a, b, c, d := w[0], w[1], w[2], w[3]
		src := fmt.Sprintf("[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and %d*i + %d*j <= %d*n + %d*m }", a, b, c, d)
		want := func(n, m int64) int64 {
			var k int64
			for i := int64(0); i <= n; i++ {
				for j := int64(0); j <= m; j++ {
					if a*i+b*j <= c*n+d*m {
						k++
					}
				}
			}
			return k
		}
		checkCountsShown(t, src, -3, 20, want)
	}
}

// TestCardClassesShareChambersEnumerated checks sets whose summed
// variables have non-unit coefficients in their bounds, several bounds
// each way, or a stride, against enumeration.
func TestCardClassesShareChambersEnumerated(t *testing.T) {
	for _, src := range []string{
		"[n, m] -> { [i, j] : n - m <= 2i <= n and 0 <= 3j <= m + i and j <= i }",
		"[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and 2i + 3j < n + m and i + 2j >= m - 4 }",
		"[n, m] -> { [i, j, k] : 0 <= i <= n and 0 <= j <= i and 0 <= 2k <= i + j + m and 3k <= n + m }",
		"[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m and (i + j) mod 3 = 0 }",
	} {
		s, _ := parseAndCount(t, src)
		q := checkCounts(t, src, -2, 12, -2, 12, func(n, m int64) int64 {
			return int64(len(enumerated(t, s, env{"n": n, "m": m})))
		})
		checkShown(t, s, q, -2, 12)
	}
}

// TestCardWedgePieces checks that the wedge of issue 26 prints in no more
// pieces than barvinok's 3 (its chambers 2m <= n, n < 2m < 2n and
// m >= n), and that its value matches enumeration.
func TestCardWedgePieces(t *testing.T) {
	src := "[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m }"
	s, q := parseAndCount(t, src)
	if n := len(q.view()); n > 3 {
		t.Errorf("%d pieces printed, want at most 3:\n%s", n, q)
	}
	checkShown(t, s, q, -3, 16)
}
