package polyhedra

import "testing"

// TestProjectApart projects existential variables that no constraint
// relates to each other, which projectPart does one group at a time,
// and checks the counts against enumeration.
func TestProjectApart(t *testing.T) {
	cases := []struct {
		src    string
		member func(i, a, b, n, m int64) bool
	}{
		{"[n, m] -> { [i] : 0 <= i <= 20 and exists (a, b : 0 <= a < n and 2a <= i and 0 <= b and 3b + i <= m) }",
			func(i, a, b, n, m int64) bool {
				return 0 <= i && i <= 20 && 0 <= a && a < n && 2*a <= i && 0 <= b && 3*b+i <= m
			}},
		{"[n, m] -> { [i] : 0 <= i <= 20 and exists (a, b : 4a <= i <= 4a + 1 and 5b + 2 <= m + i and 5b >= m - 3 and 0 <= a + n) }",
			func(i, a, b, n, m int64) bool {
				return 0 <= i && i <= 20 && 4*a <= i && i <= 4*a+1 && 5*b+2 <= m+i && 5*b >= m-3 && 0 <= a+n
			}},
		{"[n, m] -> { [i] : 0 <= i <= 20 and exists (a, b : 0 <= a <= 3 and 16b + a >= 1 and 16b + a <= n and i <= m + a) }",
			func(i, a, b, n, m int64) bool {
				return 0 <= i && i <= 20 && 0 <= a && a <= 3 && 16*b+a >= 1 && 16*b+a <= n && i <= m+a
			}},
	}
	for _, c := range cases {
		checkCounts(t, c.src, -4, 24, -6, 24, func(n, m int64) int64 {
			var want int64
			for i := int64(0); i <= 20; i++ {
				found := false
				for a := int64(-30); a <= 30 && !found; a++ {
					for b := int64(-30); b <= 30 && !found; b++ {
						found = c.member(i, a, b, n, m)
					}
				}
				if found {
					want++
				}
			}
			return want
		})
	}
}
