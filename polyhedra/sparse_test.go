package polyhedra

import (
	"math"
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// TestSparseFloorsWedge checks the printed answer of the wedge of issue
// 26 against barvinok 0.41.8's, 795 characters in three pieces (its
// answer, measured on 2026-11-28, is quoted in docs/counting-sets.md): the chambers of
// period 15 and 5, counted with a floor for every residue class, printed
// in 1341 characters before sparseFloors. TestCardNormalForm compares
// the printed pieces with enumeration.
func TestSparseFloorsWedge(t *testing.T) {
	_, q := parseAndCount(t, "[n, m] -> { [i, j] : 0 <= i <= n and 0 <= j <= m and 3i + 5j <= 2n + m }")
	if text := q.String(); len(text) > 795 || len(q.view()) != 3 {
		t.Errorf("the wedge prints in %d characters and %d pieces, barvinok in 795 and 3:\n%s", len(text), len(q.view()), text)
	}
}

// TestSparseFloorsKeepValues compares the printed pieces of the corpus
// sets over one or two parameters, among them all the sets whose
// printed answers sparseFloors shortens, with the counted function's
// values (Eval reads the pieces as counted, before the normal form) at
// points well beyond the proving points, and with enumeration near 0.
func TestSparseFloorsKeepValues(t *testing.T) {
	r := rand.New(rand.NewSource(28))
	for _, c := range fullCardCorpus(t) {
		s, err := ParseSet(c.src)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.params) > 2 || strings.HasPrefix(c.name, "lib") && len(s.params) == 1 {
			continue
		}
		q, err := s.Card()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for k := range 60 {
			p := env{}
			for _, name := range s.params {
				p[name] = r.Int63n(400) - 40
				if k < 12 {
					p[name] = r.Int63n(9) - 2
				}
			}
			want, err := q.Eval(p)
			if err != nil {
				t.Fatalf("%s at %v: %v", c.name, p, err)
			}
			if k < 12 {
				if n := int64(len(enumerated(t, s, p))); !want.IsInt64() || want.Int64() != n {
					t.Fatalf("%s at %v: %v, enumeration %d", c.name, p, want, n)
				}
			}
			if got, ok := shownValue(q, p); !ok || got.Cmp(new(big.Rat).SetInt(want)) != 0 {
				t.Fatalf("%s at %v: printed pieces give %v, counted %v:\n%s", c.name, p, got, want, q)
			}
		}
	}
}

// TestPrimePowers checks primePowers against trial division: the
// powers are of distinct primes and multiply to n.
func TestPrimePowers(t *testing.T) {
	for n := int64(1); n <= 3000; n++ {
		prod, seen := int64(1), map[int64]bool{}
		for _, q := range primePowers(n) {
			prime := int64(0)
			for f := int64(2); f <= q; f++ {
				if q%f == 0 {
					prime = f
					break
				}
			}
			for v := q; v > 1; v /= prime {
				if v%prime != 0 {
					t.Fatalf("%d: %d is not a power of a prime", n, q)
				}
			}
			if seen[prime] || n%(q*prime) == 0 {
				t.Fatalf("%d: %v is not the largest power of %d, once", n, primePowers(n), prime)
			}
			seen[prime] = true
			prod *= q
		}
		if prod != n {
			t.Fatalf("%d: %v multiply to %d", n, primePowers(n), prod)
		}
	}
}

// TestSmallFraction reads back p/q from its float64 value, and refuses
// values that are no number.
func TestSmallFraction(t *testing.T) {
	for q := int64(1); q <= 120; q++ {
		for p := int64(-250); p <= 250; p++ {
			want := big.NewRat(p, q)
			got, ok := smallFraction(float64(p) / float64(q))
			if !ok || got.Cmp(want) != 0 {
				t.Fatalf("%d/%d read as %v (%v)", p, q, got, ok)
			}
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300} {
		if _, ok := smallFraction(x); ok {
			t.Errorf("smallFraction(%v) gave a fraction", x)
		}
	}
}

// TestFloorSearchGain compares gain, which works from products with the
// span's basis, with the residual of target projected out of the span
// with the terms added, by Gram-Schmidt, on random vectors and on terms
// in the span of others.
func TestFloorSearchGain(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.Intn(21) - 10)
		}
		return v
	}
	for trial := range 200 {
		n := 12 + r.Intn(20)
		fs := &floorSearch{grams: map[[2]*searchTerm]float64{}}
		span := &orthoSpan{}
		var in [][]float64
		for range r.Intn(5) {
			v := vec(n)
			if span.add(v) {
				in = append(in, v)
			}
		}
		target := vec(n)
		res := span.project(target)
		var ts []*searchTerm
		for k := range 1 + r.Intn(4) {
			v := vec(n)
			if k > 0 && r.Intn(3) == 0 {
				// a combination of the span and an earlier term
				prev := ts[r.Intn(len(ts))].vals
				for i := range v {
					v[i] = 2 * prev[i]
				}
				for _, b := range in {
					for i := range v {
						v[i] += b[i]
					}
				}
			}
			ts = append(ts, &searchTerm{candidate: candidate{vals: v}})
		}
		got := fs.gain(span, res, ts)
		more := &orthoSpan{basis: append([][]float64(nil), span.basis...)}
		for _, t := range ts {
			more.add(t.vals)
		}
		after := norm(more.project(target))
		want := dot64(res, res) - after*after
		if math.Abs(got-want) > 1e-6*(1+dot64(res, res)) {
			t.Fatalf("trial %d: gain %v, by projection %v", trial, got, want)
		}
	}
}
