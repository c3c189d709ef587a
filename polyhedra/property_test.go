package polyhedra

import (
	"errors"
	"math"
	"math/big"
	"math/rand"
	"testing"
	"time"
)

// paramGrid returns the parameter points at which a generated set is
// checked: every small and boundary value (negative ones included) for
// one parameter, a grid or a sample for two.
func paramGrid(r *rand.Rand, params []string, nd int) []env {
	var out []env
	if len(params) == 1 {
		for v := int64(-3); v <= 12; v++ {
			out = append(out, env{params[0]: v})
		}
		return out
	}
	hi := int64(8)
	if nd >= 3 {
		hi = 6
	}
	for a := int64(-2); a <= hi; a++ {
		for b := int64(-2); b <= hi; b++ {
			if nd >= 4 && r.Intn(3) != 0 {
				continue
			}
			out = append(out, env{params[0]: a, params[1]: b})
		}
	}
	return out
}

// checkCard compares Card, evaluated exactly, with brute-force counts.
func checkCard(t *testing.T, r *rand.Rand, gs *genSet) bool {
	t.Helper()
	s, err := ParseSet(gs.src)
	if err != nil {
		t.Errorf("ParseSet(%s): %v", gs.src, err)
		return false
	}
	if testing.Verbose() {
		t.Log("card", gs.src)
	}
	start := time.Now()
	card, err := s.Card()
	if d := time.Since(start); d > time.Second {
		t.Logf("slow (%v): %s", d, gs.src)
	}
	if err != nil {
		var ce *ComplexityError
		if errors.As(err, &ce) {
			t.Logf("skipping %s: %v", gs.src, err)
			return true
		}
		t.Errorf("Card(%s): %v", gs.src, err)
		return false
	}
	prog, err := card.Compile(gs.params)
	if err != nil {
		t.Errorf("Compile(%s): %v", card, err)
		return false
	}
	args := make([]int64, len(gs.params))
	for _, p := range paramGrid(r, gs.params, len(gs.dims)) {
		want := gs.count(p)
		for i, n := range gs.params {
			args[i] = p[n]
		}
		if v, err := prog.Eval(args); err != nil || v != want {
			t.Errorf("%s\n  card %s\n  compiled at %v: %d, %v; brute force %d", gs.src, card, p, v, err, want)
			return false
		}
		if f := prog.EvalFloat(args); math.Abs(f-float64(want)) > 1e-6*math.Max(1, math.Abs(float64(want))) {
			t.Errorf("%s\n  card %s\n  EvalFloat at %v: %g; brute force %d", gs.src, card, p, f, want)
			return false
		}
		got, err := card.Eval(p)
		if err != nil {
			t.Errorf("%s\n  card %s\n  Eval(%v): %v", gs.src, card, p, err)
			return false
		}
		if !got.IsInt64() || got.Int64() != want {
			t.Errorf("%s\n  card %s\n  at %v: got %s, brute force %d", gs.src, card, p, got, want)
			return false
		}
		if shown, ok := shownValue(card, p); ok && shown.Cmp(new(big.Rat).SetInt64(want)) != 0 {
			t.Errorf("%s\n  card %s\n  printed pieces at %v: %s, brute force %d", gs.src, card, p, shown, want)
			return false
		}
	}
	return true
}

// TestCardProperty checks Card on random sets of one to four dimensions
// and one or two parameters against brute-force enumeration. Under
// -short it checks half as many random sets of each shape, every shape
// still sampled with the same seed and the same oracle.
func TestCardProperty(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	cases := []struct{ nd, np, n int }{
		{1, 1, 150}, {1, 2, 100}, {2, 1, 150}, {2, 2, 100}, {3, 1, 60}, {3, 2, 40}, {4, 1, 15}, {4, 2, 10},
	}
	for _, c := range cases {
		if testing.Short() {
			c.n /= 2
		}
		fails := 0
		for i := 0; i < c.n && fails < 3; i++ {
			if !checkCard(t, r, randomSet(r, c.nd, c.np)) {
				fails++
			}
		}
	}
}
