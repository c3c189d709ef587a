package polyhedra

import (
	"errors"
	"math/rand"
	"slices"
	"testing"
)

// acceptableError reports whether err is one of the documented failures
// rather than a bug.
func acceptableError(err error) bool {
	var se *SyntaxError
	var ue *UnboundedError
	var ce *ComplexityError
	var be *BudgetError
	return errors.As(err, &se) || errors.As(err, &ue) || errors.As(err, &ce) || errors.As(err, &be) || errors.Is(err, ErrOverflow)
}

// enumerateCapped lists up to limit points; ok is false when there were
// more or enumeration failed.
func enumerateCapped(s *Set, params map[string]int64, limit int) (pts [][]int64, ok bool) {
	err := s.Enumerate(params, func(p []int64) bool {
		pts = append(pts, slices.Clone(p))
		return len(pts) <= limit
	})
	if err != nil || len(pts) > limit {
		return nil, false
	}
	slices.SortFunc(pts, slices.Compare)
	return pts, true
}

func fuzzParams(s *Set, a, b int8) map[string]int64 {
	params := map[string]int64{}
	for i, p := range s.params {
		v := int64(a)
		if i%2 == 1 {
			v = int64(b)
		}
		params[p] = v % 24
	}
	return params
}

// fuzzSets runs check on every parsed fuzz input of at most maxLen
// bytes, with parameter values from the fuzzed bytes; parse errors must be
// documented ones.
func fuzzSets(f *testing.F, seeds []string, maxLen int, check func(t *testing.T, src string, s *Set, params map[string]int64)) {
	for _, s := range seeds {
		f.Add(s, int8(7), int8(5))
	}
	f.Fuzz(func(t *testing.T, src string, a, b int8) {
		if len(src) > maxLen {
			return
		}
		s, err := ParseSet(src)
		if err != nil {
			if !acceptableError(err) {
				t.Fatalf("ParseSet(%q): unexpected error %v", src, err)
			}
			return
		}
		check(t, src, s, fuzzParams(s, a, b))
	})
}

// FuzzParseSet: the parser never panics, reports only syntax errors (or
// overflow), and what it prints parses back into the same set.
func FuzzParseSet(f *testing.F) {
	seeds := []string{
		"[n] -> { [i, j] : 0 <= j <= i < n }",
		"[n, m] -> { S[i] : 0 <= i < min(n, m) and i mod 3 != 1; S[i] : i = n }",
		"{ [i] : exists (q : i = 2q and 0 <= q < 5) }",
		"[n] -> { [i] : not (i mod 2 = 0 and i > 3) and 0 <= i <= floor(n/2) + ceil(n/3) }",
		"{ [i, j] : 0 <= i, j < 4 and (i + j) % 2 = 0 }",
	}
	fuzzSets(f, seeds, 300, func(t *testing.T, src string, s *Set, params map[string]int64) {
		back, err := ParseSet(s.String())
		if err != nil {
			if errors.Is(err, ErrOverflow) {
				return
			}
			t.Fatalf("ParseSet(%q) printed %q, which does not parse: %v", src, s, err)
		}
		p1, ok1 := enumerateCapped(s, params, 2000)
		p2, ok2 := enumerateCapped(back, params, 2000)
		if ok1 && ok2 && !samePoints(p1, p2) {
			t.Fatalf("%q printed as %q: points %v and %v differ at %v", src, s, p1, p2, params)
		}
	})
}

// FuzzCard compares the symbolic count of any set the parser accepts with
// the number of points Enumerate visits (which tests every point exactly
// against the constraints), at fuzzed parameter values.
func FuzzCard(f *testing.F) {
	seeds := []string{
		"[n] -> { [i, j] : 0 <= j <= i < n }",
		"[n] -> { [io, ii] : 0 <= ii < 16 and 0 <= 16io + ii < n }",
		"[n, m] -> { [i] : 0 <= i < n or 0 <= i < m }",
		"[n] -> { [i] : 0 <= i < n and exists q : i = 3q + 1 }",
		"[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and (i + 2j) mod 5 = 2 }",
		"[n] -> { [i, j] : 0 <= i < n and i <= 2j <= n and not (j mod 2 = 0) }",
		"[n] -> { [io, ii] : n mod 16 = 0 and 0 <= ii < 4 and 0 <= 16io + ii < n }",
		"[n, m] -> { [i] : exists (e : n = 3e + 2) and 0 <= i < n + m }",
	}
	fuzzSets(f, seeds, 200, func(t *testing.T, src string, s *Set, params map[string]int64) {
		card, err := s.Card()
		if err != nil {
			if !acceptableError(err) {
				t.Fatalf("Card(%q): unexpected error %v", src, err)
			}
			return
		}
		pts, ok := enumerateCapped(s, params, 20000)
		if !ok {
			return
		}
		got, err := card.Eval(params)
		if err != nil {
			if !acceptableError(err) {
				t.Fatalf("Eval: %v", err)
			}
			return
		}
		if !got.IsInt64() || got.Int64() != int64(len(pts)) {
			t.Fatalf("%q at %v: Card %s = %s, %d points\n%s", src, params, card, got, len(pts), s)
		}
	})
}

// FuzzCardRandom drives the random set generator of the property test
// with fuzzed seeds and compares Card with its independent brute force.
func FuzzCardRandom(f *testing.F) {
	for seed := int64(0); seed < 8; seed++ {
		f.Add(seed, uint8(seed%4), uint8(seed%2))
	}
	f.Fuzz(func(t *testing.T, seed int64, nd, np uint8) {
		r := rand.New(rand.NewSource(seed))
		gs := randomSet(r, 1+int(nd%4), 1+int(np%2))
		checkCard(t, r, gs)
	})
}
