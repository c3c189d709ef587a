package polyhedra

import (
	"math/big"
	"math/rand"
	"testing"
)

// TestDivImpliesOracle checks divImplies against the points of a box: a
// row it calls implied must hold at every point (its div evaluated there),
// the rows c*(e - m*d) + c0 and c*(m*d - e) + c0 at the least c0 that
// holds everywhere must be recognised, and one less must fail somewhere.
func TestDivImpliesOracle(t *testing.T) {
	r := rand.New(rand.NewSource(26))
	// The coefficient 1 of x lets e take every residue mod m in the box,
	// as canonical divs (coefficients coprime to m) do.
	for range 400 {
		b := newBset(1, 1)
		m := int64(2 + r.Intn(9))
		num := []int64{int64(r.Intn(21) - 10), int64(r.Intn(7) - 3), 1}
		b.appendDivCol(num, m)
		c := int64(1 + r.Intn(4))
		// holds reports whether row >= 0 at every (n, x) in the box.
		holds := func(row []int64) bool {
			for n := int64(-30); n <= 30; n++ {
				for x := int64(-30); x <= 30; x++ {
					d := floorDiv(num[0]+num[1]*n+num[2]*x, m)
					if row[0]+row[1]*n+row[2]*x+row[3]*d < 0 {
						return false
					}
				}
			}
			return true
		}
		for _, up := range []bool{false, true} {
			// lower: c*(e - m*d) + c0, least c0 = 0; upper: c*(m*d -
			// e) + c0, least c0 = c*(m - 1).
			least := int64(0)
			sign := int64(1)
			if up {
				least, sign = c*(m-1), -1
			}
			row := []int64{sign*c*num[0] + least, sign * c * num[1], sign * c * num[2], -sign * c * m}
			if !b.divImplies(row) || !holds(row) {
				t.Fatalf("div floor(%v/%d): row %v holds everywhere, divImplies %v", num, m, row, b.divImplies(row))
			}
			row[0]--
			if b.divImplies(row) || holds(row) {
				t.Fatalf("div floor(%v/%d): row %v fails somewhere, divImplies %v", num, m, row, b.divImplies(row))
			}
		}
		row := []int64{int64(r.Intn(41) - 20), int64(r.Intn(9) - 4), int64(r.Intn(9) - 4), int64(r.Intn(9) - 4)}
		if b.divImplies(row) && !holds(row) {
			t.Fatalf("div floor(%v/%d): divImplies(%v) but it fails", num, m, row)
		}
	}
}

// TestDivImpliedCard counts sets with rows their divs imply, and one
// that is not implied, against counting by a Go predicate.
func TestDivImpliedCard(t *testing.T) {
	mod := func(a, m int64) int64 { return a - m*floorDiv(a, m) }
	cases := []struct {
		src  string
		pred func(n, a int64) bool
	}{
		{"[n] -> { [a] : a >= 0 and a mod 256 >= 0 and a < n }", func(n, a int64) bool { return a >= 0 && a < n }},
		{"[n] -> { [a] : 0 <= a < n and a mod 7 <= 6 }", func(n, a int64) bool { return a >= 0 && a < n }},
		{"[n] -> { [a] : 0 <= a < n and 2*((a + n) mod 5) + 1 >= 0 }", func(n, a int64) bool { return a >= 0 && a < n }},
		{"[n] -> { [a] : 0 <= a < n and (a mod 4) <= 2 }", func(n, a int64) bool { return a >= 0 && a < n && mod(a, 4) <= 2 }},
		{"[n] -> { [a] : 0 <= a < n and (2a + n) mod 6 <= 4 }", func(n, a int64) bool { return a >= 0 && a < n && mod(2*a+n, 6) <= 4 }},
		{"[n] -> { [a] : exists (g, p : 0 <= p < 64 and 0 <= 64g + p < n and a = 64g + p) }", func(n, a int64) bool { return a >= 0 && a < n }},
	}
	for _, c := range cases {
		_, q := parseAndCount(t, c.src)
		for n := int64(-5); n <= 300; n++ {
			var want int64
			for a := int64(-10); a <= n+10; a++ {
				if c.pred(n, a) {
					want++
				}
			}
			if got, ok := shownValue(q, env{"n": n}); !ok || got.Cmp(big.NewRat(want, 1)) != 0 {
				t.Fatalf("%s at n = %d: %v, want %d:\n%s", c.src, n, got, want, q)
			}
		}
	}
}
