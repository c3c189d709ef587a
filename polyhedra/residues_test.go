package polyhedra

import (
	"math/big"
	"math/rand"
	"testing"
)

// residueForm keeps the value of a poly in n, m and floors of them at
// every integer point, on the domain and off it, evaluated term by term
// at the floors' values; it leaves every floor of denominator 2 or 3
// below that power, and floor(n/2)^2 as derived by hand.
func TestResidueForm(t *testing.T) {
	b := newBset(2, 0)
	fn := b.appendDivCol([]int64{0, 1, 0}, 2)       // floor(n/2)
	fm := b.appendDivCol([]int64{1, 0, 1, 0}, 3)    // floor((m + 1)/3)
	fs := b.appendDivCol([]int64{0, 1, 1, 0, 0}, 2) // floor((n + m)/2)
	b.addIneq([]int64{0, 1})                        // n >= 0, which the value ignores
	cols := []int{1, 2, fn, fm, fs}

	// With r = n - 2f and r^2 = r: f^2 = (n - r)^2/4 = (n^2 - 2nr + r)/4,
	// and r = n - 2f gives (n^2 - 2n^2 + 4nf + n - 2f)/4
	// = -n^2/4 + n*f + n/4 - f/2.
	b.poly = polyVar(fn).mul(polyVar(fn))
	want := polyVar(1).mul(polyVar(1)).scale(big.NewRat(-1, 4)).add(polyVar(1).mul(polyVar(fn))).
		add(polyVar(1).scale(big.NewRat(1, 4))).add(polyVar(fn).scale(big.NewRat(-1, 2)))
	if got := b.residueForm(); !got.sub(want).isZero() {
		t.Errorf("floor(n/2)^2: got %v, want %v", got, want)
	}

	r := rand.New(rand.NewSource(3))
	for range 200 {
		p := &poly{}
		for range 1 + r.Intn(6) {
			m := polyInt(int64(r.Intn(9) - 4))
			for range r.Intn(4) {
				m = m.mul(polyVar(cols[r.Intn(len(cols))]))
			}
			p = p.add(m)
		}
		b.poly = p
		q := b.residueForm()
		for _, c := range []struct{ col, den int }{{fn, 2}, {fm, 3}, {fs, 2}} {
			if d := degreeIn(q, c.col); d >= c.den {
				t.Fatalf("%v: residue form %v has floor column %d to the power %d", p, q, c.col, d)
			}
		}
		x := make([]int64, b.width())
		x[0] = 1
		for n := int64(-7); n <= 7; n++ {
			for m := int64(-7); m <= 7; m++ {
				x[1], x[2] = n, m
				b.holds(x) // fills the floors' columns
				if p.evalAt(x).Cmp(q.evalAt(x)) != 0 {
					t.Fatalf("%v at n = %d, m = %d: %s, residue form %v gives %s", p, n, m, p.evalAt(x).RatString(), q, q.evalAt(x).RatString())
				}
			}
		}
	}
}
