package polyhedra

import (
	"strings"
	"testing"
)

// TestCardTileBounds counts tiled pairs whose outer variable has bounds
// of its own, as projecting the inner variable of a tile leaves them
// (io >= 0 instead of 16io + ii >= 0), against enumeration; such pairs
// are merged into one dimension, so the counts need no residue classes
// (where io's own bounds have a coefficient other than ±1 and T, as 3io,
// the count has floors of the parameters).
func TestCardTileBounds(t *testing.T) {
	cases := []struct {
		src    string
		jmax   int64 // j ranges over [-1, jmax]
		member func(io, ii, j, n, m int64) bool
	}{
		{"[n, m] -> { [io, ii, j] : 0 <= ii <= 15 and io >= 0 and 16io + ii < m and j = 0 }", 0,
			func(io, ii, j, n, m int64) bool { return 0 <= ii && ii <= 15 && io >= 0 && 16*io+ii < m && j == 0 }},
		{"[n, m] -> { [io, ii, j] : 2 <= ii <= 5 and io >= n - 3 and io <= m and 4io + ii <= 3n + m and j = 0 }", 0,
			func(io, ii, j, n, m int64) bool {
				return 2 <= ii && ii <= 5 && io >= n-3 && io <= m && 4*io+ii <= 3*n+m && j == 0
			}},
		{"[n, m] -> { [io, ii, j] : 0 <= ii <= 15 and io >= 0 and 16io < m and ii < m - 16io and j = 0 }", 0,
			func(io, ii, j, n, m int64) bool {
				return 0 <= ii && ii <= 15 && io >= 0 && 16*io < m && ii < m-16*io && j == 0
			}},
		{"[n, m] -> { [io, ii, j] : 0 <= ii <= 3 and 3io >= -n and 3io <= m + 1 and 4io + ii <= 2m and j = 0 }", 0,
			func(io, ii, j, n, m int64) bool {
				return 0 <= ii && ii <= 3 && 3*io >= -n && 3*io <= m+1 && 4*io+ii <= 2*m && j == 0
			}},
		{"[n, m] -> { [io, ii, j] : 0 <= ii < 3 and -io + n >= 0 and io >= 1 and 0 <= j <= 3io + ii - n and j < m }", 45,
			func(io, ii, j, n, m int64) bool {
				return 0 <= ii && ii < 3 && n-io >= 0 && io >= 1 && 0 <= j && j <= 3*io+ii-n && j < m
			}},
	}
	for _, c := range cases {
		q := checkCounts(t, c.src, -3, 12, -3, 40, func(n, m int64) int64 {
			var want int64
			for io := int64(-45); io <= 45; io++ {
				for ii := int64(-5); ii <= 20; ii++ {
					for j := int64(-1); j <= c.jmax; j++ {
						if c.member(io, ii, j, n, m) {
							want++
						}
					}
				}
			}
			return want
		})
		if !strings.Contains(c.src, "3io") && strings.Contains(q.String(), "floor") {
			t.Errorf("%s: count %s has residue classes; the tile was not merged", c.src, q)
		}
	}
}
