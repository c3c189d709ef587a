package polyhedra

import (
	"math/big"
	"math/rand"
	"testing"
)

// collapseOracleSets are counted sets whose counts have residue classes
// that collapse may or may not merge, each with a Go predicate over a box
// of its points: the oracle TestCollapseOracle compares Card with.
var collapseOracleSets = []struct {
	src  string
	pred func(n, m, i, j, k int64) bool
}{
	{"[n, m] -> { [i, j, k] : 1 <= i < n - 1 and 1 <= j < m - 1 and 0 <= k <= i + j and k mod 2 = 0 }",
		func(n, m, i, j, k int64) bool {
			return 1 <= i && i < n-1 && 1 <= j && j < m-1 && 0 <= k && k <= i+j && k%2 == 0
		}},
	{"[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and 0 <= k <= i + j and k mod 3 = 1 }",
		func(n, m, i, j, k int64) bool {
			return 0 <= i && i < n && 0 <= j && j < m && 0 <= k && k <= i+j && k%3 == 1
		}},
	{"[n, m] -> { [i, j, k] : 0 <= i < n and 0 <= j < m and k = 0 and (i + j) mod 2 = 0 }",
		func(n, m, i, j, k int64) bool {
			return 0 <= i && i < n && 0 <= j && j < m && k == 0 && (i+j)%2 == 0
		}},
	{"[n, m] -> { [i, j, k] : 0 <= j <= i < n and k = 0 and (i + j + m) mod 3 = 0 }",
		func(n, m, i, j, k int64) bool {
			return 0 <= j && j <= i && i < n && k == 0 && ((i+j+m)%3+3)%3 == 0
		}},
	{"[n, m] -> { [i, j, k] : 0 <= i < m and 0 <= k and 2k <= n - i and j = 0 }",
		func(n, m, i, j, k int64) bool {
			return 0 <= i && i < m && 0 <= k && 2*k <= n-i && j == 0
		}},
	{"[n, m] -> { [i, j, k] : 0 <= i < n and i <= j < m and 0 <= k <= j and (k + i) mod 2 = 1 }",
		func(n, m, i, j, k int64) bool {
			return 0 <= i && i < n && i <= j && j < m && 0 <= k && k <= j && (k+i)%2 == 1
		}},
	{"[n, m] -> { [i, j, k] : 0 <= i <= n and 0 <= j <= m and i + j <= n and k = 0 and (n - i) mod 2 = 0 }",
		func(n, m, i, j, k int64) bool {
			return 0 <= i && i <= n && 0 <= j && j <= m && i+j <= n && k == 0 && ((n-i)%2+2)%2 == 0
		}},
}

// TestCollapseOracle counts sets with residue conditions and compares
// both the answer as counted (Eval) and as printed with brute-force
// enumeration by the Go predicates at every n, m in [-3, 11].
func TestCollapseOracle(t *testing.T) {
	for _, c := range collapseOracleSets {
		_, q := parseAndCount(t, c.src)
		for n := int64(-3); n <= 11; n++ {
			for m := int64(-3); m <= 11; m++ {
				want := int64(0)
				for i := int64(-2); i <= 24; i++ {
					for j := int64(-2); j <= 24; j++ {
						for k := int64(-2); k <= 24; k++ {
							if c.pred(n, m, i, j, k) {
								want++
							}
						}
					}
				}
				p := env{"n": n, "m": m}
				got, err := q.Eval(p)
				if err != nil || got.Cmp(big.NewInt(want)) != 0 {
					t.Fatalf("%s at %v: Card gives %v (%v), brute force %d:\n%s", c.src, p, got, err, want, q)
				}
				if shown, ok := shownValue(q, p); !ok || shown.Cmp(big.NewRat(want, 1)) != 0 {
					t.Fatalf("%s at %v: printed pieces give %v, brute force %d:\n%s", c.src, p, shown, want, q)
				}
			}
		}
	}
}

// TestClassesDiffer checks classesDiffer's claim against the symbolic
// comparison it saves: wherever it finds that the residue classes of a
// parameter differ, collapseClasses keeps the poly too. The pieces are
// those of the counts above and of seeded random sets, as counted and
// as printed.
func TestClassesDiffer(t *testing.T) {
	var srcs []string
	for _, c := range collapseOracleSets {
		srcs = append(srcs, c.src)
	}
	claims, agreeing := 0, 0
	for _, src := range withRandomSets(srcs, 2626) {
		for _, p := range countedPieces(t, src) {
			for c := 1; c <= p.np; c++ {
				// The piece with a poly whose classes agree: the
				// square of floor(x/2) + floor((x+1)/2) = x, times the
				// piece's own poly where that has no div of x.
				x := p.clone()
				d1 := x.floorExpr(x.unit(c, 1), 2)
				e := x.unit(c, 1)
				e[0] = 1
				d2 := x.floorExpr(e, 2)
				sq := polyFromRow(d1).add(polyFromRow(d2))
				x.poly = sq.mul(sq)
				if o := c%p.np + 1; o != c {
					// A div of another parameter.
					x.poly = x.poly.mul(polyFromRow(x.floorExpr(x.unit(o, 1), 3)).add(polyInt(1)))
				}
				if x.splitModulus(c) == 2 && !x.classesDiffer(c, 2) && x.collapseClasses(c, 2) && !usesDivOf(x, c) {
					agreeing++
				} else if x.splitModulus(c) == 2 && x.classesDiffer(c, 2) {
					nm := names{params: paramNames(x.np)}
					t.Errorf("%s: classesDiffer(%d) on %s: %s", src, c, nm.conjunction(x), nm.polyString(x, x.poly))
				}
			}
			for c := 1; c <= p.np; c++ {
				m := p.splitModulus(c)
				if m == 1 || m > maxCollapsePeriod || !p.classesDiffer(c, m) {
					continue
				}
				claims++
				nm := names{params: paramNames(p.np)}
				x := p.clone()
				if !x.collapseClasses(c, m) || nm.polyString(x, x.poly) != nm.polyString(p, p.poly) {
					t.Errorf("%s: classesDiffer(%d) on %s: %s, but collapse gives %s",
						src, c, nm.conjunction(p), nm.polyString(p, p.poly), nm.polyString(x, x.poly))
				}
			}
		}
	}
	if claims == 0 {
		t.Error("classesDiffer never found classes that differ")
	}
	if agreeing == 0 {
		t.Error("no poly whose classes agree collapsed")
	}
	t.Logf("%d claims checked, %d agreeing classes collapsed", claims, agreeing)
}

// TestNonZeroOnLayer checks nonZeroOnLayer's claim against the symbolic
// test it saves, on the pieces of the counts above and of seeded random
// sets: where it finds a point with a value other than 0, the symbolic
// test does not find the poly zero on that layer either.
func TestNonZeroOnLayer(t *testing.T) {
	var srcs []string
	for _, c := range collapseOracleSets {
		srcs = append(srcs, c.src)
	}
	for _, c := range cardCorpus(t) {
		srcs = append(srcs, c.src)
	}
	claims := 0
	for _, src := range withRandomSets(srcs, 2627) {
		for _, p := range countedPieces(t, src) {
			for i := range p.ineqs {
				for k := int64(-1); k <= 2; k++ {
					if !p.nonZeroOnLayer(i, k) {
						continue
					}
					claims++
					if p.zeroOnLayerSymbolic(i, k, 1) {
						nm := names{params: paramNames(p.np)}
						t.Errorf("%s: nonZeroOnLayer(%d, %d) on %s: %s, but the poly vanishes there",
							src, i, k, nm.conjunction(p), nm.polyString(p, p.poly))
					}
				}
			}
		}
	}
	if claims == 0 {
		t.Error("nonZeroOnLayer never found a point")
	}
	t.Logf("%d claims checked", claims)
}

// withRandomSets returns srcs followed by 60 random sets drawn with seed.
func withRandomSets(srcs []string, seed int64) []string {
	r := rand.New(rand.NewSource(seed))
	for range 60 {
		srcs = append(srcs, randomSet(r, 2+r.Intn(2), 2).src)
	}
	return srcs
}

// countedPieces returns the pieces of src's count, as counted and as
// printed, or none where the count fails (budget errors of random sets).
func countedPieces(t *testing.T, src string) []*bset {
	t.Helper()
	s, err := ParseSet(src)
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.Card()
	if err != nil {
		return nil
	}
	return append(append([]*bset(nil), q.pieces...), q.view()...)
}

// usesDivOf reports whether x's poly uses a div of column c.
func usesDivOf(x *bset, c int) bool {
	for k, d := range x.divs {
		if d.num[c] != 0 && x.poly.usesCol(x.divCol(k)) {
			return true
		}
	}
	return false
}

// TestClassEmptyOracle checks classEmpty, collapseClasses' test on the
// domain alone, against the pieces' own membership test at every
// parameter point of a box: a class it calls empty has no point there.
// Sets with congruences on the parameters make some classes empty.
// Under -short it takes the hand-written sets and the first 30 of the 60
// random ones (drawn in order from the same seed).
func TestClassEmptyOracle(t *testing.T) {
	hand := []string{
		"[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m }",
		"[n, m] -> { [i] : 0 <= i < n and n mod 15 = 4 and (n + 2m) mod 3 = 1 }",
		"[n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= m and (n + m) mod 5 = 2 }",
		"[n, m] -> { [i] : 0 <= 3i <= n + m and m = 2n + 1 }",
	}
	srcs := withRandomSets(hand, 26)
	if testing.Short() {
		srcs = srcs[:len(hand)+30]
	}
	empties, kept := 0, 0
	for _, src := range srcs {
		for _, p := range countedPieces(t, src) {
			if p.nd != 0 || p.np != 2 {
				continue
			}
			for c := 1; c <= p.np; c++ {
				for _, m := range []int64{2, 3, 5, 15, p.splitModulus(c)} {
					if m < 2 {
						continue
					}
					for r := int64(0); r < m; r++ {
						if !p.classEmpty(c, m, r) {
							kept++
							continue
						}
						empties++
						for x := int64(-12); x <= 36; x++ {
							for y := int64(-12); y <= 36; y++ {
								pt := []int64{x, y}
								if floorMod(pt[c-1], m) != r {
									continue
								}
								if _, in := p.contains(pt); in {
									t.Fatalf("%s: class %d mod %d of column %d called empty, but %v is in the piece", src, r, m, c, pt)
								}
							}
						}
					}
				}
			}
		}
	}
	if empties == 0 || kept == 0 {
		t.Errorf("classEmpty: %d empty and %d nonempty classes, want both", empties, kept)
	}
	t.Logf("%d empty classes checked, %d not empty", empties, kept)
}
