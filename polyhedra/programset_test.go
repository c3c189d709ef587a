package polyhedra

import (
	"errors"
	"math/rand"
	"testing"
)

// TestProgramSet compiles the counts of random sets together and checks
// every value against brute force.
func TestProgramSet(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	params := []string{"m", "n"}
	for trial := 0; trial < 20; trial++ {
		var gens []*genSet
		var fs []*PwQPolynomial
		for range 1 + r.Intn(5) {
			g := randomSet(r, 1+r.Intn(2), 2)
			s, err := ParseSet(g.src)
			if err != nil {
				t.Fatal(err)
			}
			c, err := s.Card()
			if err != nil {
				t.Fatal(err)
			}
			gens, fs = append(gens, g), append(fs, c)
		}
		ps, err := CompileSet(fs, params)
		if err != nil {
			t.Fatal(err)
		}
		// Both the fast path and, with no argument small enough for it,
		// the checked one.
		checked := *ps
		checked.safe = -1
		out := make([]int64, ps.Len())
		for _, p := range paramGrid(r, []string{"n", "m"}, 2) {
			for _, set := range []*ProgramSet{ps, &checked} {
				if err := set.Eval([]int64{p["m"], p["n"]}, out); err != nil {
					t.Fatal(err)
				}
				for i, g := range gens {
					if want := int64(len(g.points(p))); out[i] != want {
						t.Fatalf("%s at %v (safe %d): %d, brute force %d\n%s", g.src, p, set.safe, out[i], want, fs[i])
					}
				}
			}
		}
		if ps.safe < 12 {
			t.Errorf("safe bound %d of small counts", ps.safe)
		}
	}
}

// TestProgramSetOverflow checks the exact fallback: n(n-1)/2 fits in
// int64 at n = 4e9 although n^2 does not, n^3 does not fit at all.
func TestProgramSetOverflow(t *testing.T) {
	var fs []*PwQPolynomial
	for _, src := range []string{"[n] -> { [i, j] : 0 <= j < i < n }", "[n] -> { [i, j, k] : 0 <= i, j, k < n }"} {
		s, _ := ParseSet(src)
		c, err := s.Card()
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, c)
	}
	ps, err := CompileSet(fs[:1], []string{"n"})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int64, 1)
	const n = 4_000_000_000
	if err := ps.Eval([]int64{n}, out); err != nil || out[0] != n*(n-1)/2 {
		t.Errorf("n(n-1)/2 at %d: %d, %v", n, out[0], err)
	}
	ps, _ = CompileSet(fs, []string{"n"})
	if err := ps.Eval([]int64{n}, make([]int64, 2)); !errors.Is(err, ErrOverflow) {
		t.Errorf("n^3 at %d: %v, want ErrOverflow", n, err)
	}
	if err := ps.Eval([]int64{n}, out); err == nil {
		t.Error("one result for two functions: no error")
	}
}

// TestProgramSetEqualities evaluates a count whose domain has an
// equality on both paths.
func TestProgramSetEqualities(t *testing.T) {
	s, _ := ParseSet("[n, m] -> { [i] : 0 <= i < n and n mod 3 = 0 and m = 2n }")
	c, err := s.Card()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := CompileSet([]*PwQPolynomial{c}, []string{"n", "m"})
	if err != nil {
		t.Fatal(err)
	}
	checked := *ps
	checked.safe = -1
	out := make([]int64, 1)
	for n := int64(-2); n < 10; n++ {
		for m := int64(-2); m < 20; m++ {
			want := int64(0)
			if n > 0 && n%3 == 0 && m == 2*n {
				want = n
			}
			for _, set := range []*ProgramSet{ps, &checked} {
				if err := set.Eval([]int64{n, m}, out); err != nil || out[0] != want {
					t.Fatalf("%s at n=%d m=%d (safe %d): %d, %v; want %d", c, n, m, set.safe, out[0], err, want)
				}
			}
		}
	}
}
