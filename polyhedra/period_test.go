package polyhedra

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// wedgeCount counts 0 <= i <= n, 0 <= j <= m, a*i + b*j <= c*n + d*m row
// by row: for each j, the i from 0 to min(n, floor((c*n + d*m - b*j)/a)).
func wedgeCount(a, b, c, d, n, m int64) int64 {
	var k int64
	for j := int64(0); j <= m; j++ {
		r := c*n + d*m - b*j
		if r < 0 {
			continue
		}
		if hi := min(n, floorDivT(r, a)); hi >= 0 {
			k += hi + 1
		}
	}
	return k
}

// TestCardWedgeShortPeriod checks that the wedge of issue 26 prints its
// chamber 2m <= n + 1, a quadratic plus a constant of period 3 that the
// residue classes of the count write with floors of period 15 in 47
// terms, in at most 8 terms without a floor of period 15, and that the
// printed pieces of it and of other wedges equal the counts row by row
// at random points far beyond what enumeration reaches.
func TestCardWedgeShortPeriod(t *testing.T) {
	src := "[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m }"
	_, q := parseAndCount(t, src)
	found := false
	for _, p := range q.view() {
		nm := names{params: q.params}
		dom := nm.conjunction(p)
		if dom != "m >= 0 and 2*m <= n + 1" {
			continue
		}
		found = true
		text := nm.polyString(p, p.poly)
		if len(p.poly.terms) > 8 || strings.Contains(text, "/15)") {
			t.Errorf("chamber %s prints in %d terms: %s", dom, len(p.poly.terms), text)
		}
	}
	if !found {
		t.Errorf("no piece on m >= 0 and 2*m <= n + 1:\n%s", q)
	}
	r := rand.New(rand.NewSource(3))
	for _, w := range [][4]int64{{3, 5, 2, 1}, {2, 3, 1, 1}, {4, 7, 3, 2}, {5, 2, 2, 3}, {3, 4, 0, 2}} {
		a, b, c, d := w[0], w[1], w[2], w[3]
		src := fmt.Sprintf("[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and %d*i + %d*j <= %d*n + %d*m }", a, b, c, d)
		_, q := parseAndCount(t, src)
		for range 300 {
			n, m := r.Int63n(3000)-5, r.Int63n(3000)-5
			if r.Intn(2) == 0 {
				m = n/2 + r.Int63n(7) - 3 // along the chamber boundary 2m = n
			}
			want := big.NewRat(wedgeCount(a, b, c, d, n, m), 1)
			got, ok := shownValue(q, env{"n": n, "m": m})
			if !ok || got.Cmp(want) != 0 {
				t.Fatalf("%s at n=%d m=%d: printed pieces give %v, rows %v:\n%s", src, n, m, got, want, q)
			}
		}
	}
}

// TestReducePeriodRejects checks reducePeriod's proof on the wedge's
// pieces as counted: the poly it finds agrees with the counted one on
// every class modulo 15, and the same poly plus the indicator of
// n = r (mod 3), alone or times n, which differs on a third of the
// classes, does not.
func TestReducePeriodRejects(t *testing.T) {
	_, q := parseAndCount(t, "[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m }")
	reduced := 0
	for _, p := range q.pieces {
		g := p.clone()
		g.reducePeriod()
		if len(g.poly.terms) >= len(p.poly.terms) {
			continue
		}
		reduced++
		deg := p.poly.degree()
		if !p.agreesOnClasses(g, 15, deg) {
			t.Errorf("the reduced poly does not agree with the counted one")
		}
		// [n = r (mod 3)] = floor((n - r)/3) - floor((n - r - 1)/3), alone
		// and times n: off on class 0 or only on others.
		for r := range int64(3) {
			for _, byN := range []bool{false, true} {
				bad := g.clone()
				row := bad.newRow()
				row[0], row[1] = -r, 1
				up := polyFromRow(bad.floorExpr(row, 3))
				row[0] = -r - 1
				down := polyFromRow(bad.floorExpr(row, 3))
				ind := up.sub(down)
				if byN {
					ind = ind.mul(polyVar(1))
				}
				bad.poly = bad.poly.add(ind)
				if p.agreesOnClasses(bad, 15, deg) {
					t.Errorf("a poly off by [n = %d (mod 3)] (times n: %v) passes as equal", r, byN)
				}
			}
		}
	}
	if reduced == 0 {
		t.Errorf("no piece of the wedge reduced")
	}
}
