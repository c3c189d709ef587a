package polyhedra

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"testing"
)

// TestMulMaxProperty checks Mul and Max of the counts of random sets
// against products and maxima of brute-force counts.
func TestMulMaxProperty(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	minus := big.NewRat(-1, 1)
	maxed := 0
	for i := 0; i < 60; i++ {
		nd, np := 1+i%2, 1+r.Intn(2)
		ga, gb := randomSet(r, nd, np), randomSet(r, 1, np)
		var cards []*PwQPolynomial
		for _, g := range []*genSet{ga, gb} {
			s, err := ParseSet(g.src)
			if err != nil {
				t.Fatal(err)
			}
			c, err := s.Card()
			if err != nil {
				t.Fatalf("Card(%s): %v", g.src, err)
			}
			cards = append(cards, c)
		}
		prod, err := cards[0].Mul(cards[1])
		if err != nil {
			t.Fatal(err)
		}
		// The maximum of two counts, and of two negated counts (negative
		// inside their domains, 0 outside).
		// Counts of one-dimensional sets are affine; those of others may
		// not be, or may be kept as sums of overlapping pieces.
		mx, err := cards[0].Max(cards[1])
		if nd == 1 && err != nil {
			t.Fatalf("Max(%s, %s): %v", cards[0], cards[1], err)
		}
		negMax, _ := cards[0].Scale(minus).Max(cards[1].Scale(minus))
		for _, p := range paramGrid(r, ga.params, nd) {
			a, b := int64(len(ga.points(p))), int64(len(gb.points(p)))
			check := func(what string, f *PwQPolynomial, want int64) {
				got, err := f.Eval(p)
				if err != nil || !got.IsInt64() || got.Int64() != want {
					t.Fatalf("%s of %s and %s at %v: %v (%v), brute force %d\n%s", what, ga.src, gb.src, p, got, err, want, f)
				}
			}
			check("product", prod, a*b)
			if mx != nil {
				maxed++
				check("max", mx, max(a, b))
				check("max of negations", negMax, max(-a, -b))
			}
		}
	}
	if maxed == 0 {
		t.Error("no maximum was checked")
	}
}

// The maximum of extents that differ for small sizes: min(16, n) and
// min(16, n + 2) - 1.
func TestMaxExtents(t *testing.T) {
	count := func(src string) *PwQPolynomial {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.Card()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a := count("[n] -> { [i] : 0 <= i < 16 and i < n }")
	b := count("[n] -> { [i] : 1 <= i < 16 and i <= n }")
	m, err := a.Max(b)
	if err != nil {
		t.Fatal(err)
	}
	for n := int64(-3); n <= 40; n++ {
		want := max(min(16, n), min(15, n), 0)
		if v, err := m.Eval(map[string]int64{"n": n}); err != nil || v.Int64() != want {
			t.Errorf("n = %d: %v %v, want %d (%s)", n, v, err, want, m)
		}
	}
	if same, err := a.Max(a); err != nil || same.String() != a.String() {
		t.Errorf("Max(a, a) = %v, %v; want %s", same, err, a)
	}
	sq, err := a.Mul(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sq.Max(a); !errors.Is(err, ErrNotAffine) {
		t.Errorf("Max of a square and a line: %v, want ErrNotAffine", err)
	}
}

// TestGistProperty checks that Gist keeps the values of random counts
// inside random contexts, and that it drops what a context implies.
func TestGistProperty(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	for i := 0; i < 40; i++ {
		np := 1 + r.Intn(2)
		g := randomSet(r, 1+i%2, np)
		s, err := ParseSet(g.src)
		if err != nil {
			t.Fatal(err)
		}
		c, err := s.Card()
		if err != nil {
			t.Fatal(err)
		}
		lo := int64(r.Intn(5) - 2)
		ctxSrc := fmt.Sprintf("[n] -> { [] : n >= %d }", lo)
		if np == 2 {
			ctxSrc = fmt.Sprintf("[n, m] -> { [] : n >= %d and m >= n - 1 }", lo)
		}
		ctx, err := ParseSet(ctxSrc)
		if err != nil {
			t.Fatal(err)
		}
		gc, err := c.Gist(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paramGrid(r, g.params, 1) {
			if p["n"] < lo || np == 2 && p["m"] < p["n"]-1 {
				continue
			}
			want, got := int64(len(g.points(p))), int64(-1)
			if v, err := gc.Eval(p); err == nil && v.IsInt64() {
				got = v.Int64()
			}
			if got != want {
				t.Fatalf("%s in %s at %v: %d, brute force %d\n%s\n%s", g.src, ctxSrc, p, got, want, c, gc)
			}
		}
	}
	s, _ := ParseSet("[n, m] -> { [i] : 0 <= i < n and i < m }")
	c, _ := s.Card()
	ctx, _ := ParseSet("[n, m] -> { [] : n >= 1 and m >= n }")
	gc, err := c.Gist(ctx)
	if err != nil || gc.String() != "[n, m] -> { n }" {
		t.Errorf("Gist(%s, %s) = %v, %v; want [n, m] -> { n }", c, ctx, gc, err)
	}
}
