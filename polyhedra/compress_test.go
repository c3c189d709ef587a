package polyhedra

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestCardCompressedParams counts random sets with a parameter
// congruence (n mod M = r, or its exists form) added, which Card
// counts over a compressed parameter, and checks the counts against
// enumeration at every parameter point of the property test's grid.
func TestCardCompressedParams(t *testing.T) {
	r := rand.New(rand.NewSource(29))
	checked := 0
	for checked < 120 {
		gs := randomSet(r, 1+r.Intn(3), 1+r.Intn(2))
		if strings.Contains(gs.src, " or ") || strings.Contains(gs.src, ";") {
			continue
		}
		for _, p := range gs.params {
			if r.Intn(3) == 0 {
				continue
			}
			m := r.Int63n(7) + 2
			rem := r.Int63n(m)
			cond := fmt.Sprintf("%s mod %d = %d", p, m, rem)
			if r.Intn(2) == 0 {
				cond = fmt.Sprintf("exists (e : %s = %de + %d)", p, m, rem)
			}
			gs.src = strings.TrimSuffix(gs.src, " }") + " and " + cond + " }"
			member := gs.member
			gs.member = func(e env) bool { return member(e) && modT(e[p], m) == rem }
		}
		if !checkCard(t, r, gs) {
			return
		}
		checked++
	}
}

// TestCardPartialTileModulus counts the partial tile of lib086 (32
// work-items of groups of 256 over n, n a multiple of 256): 32 points
// per group and n/256 groups, n/8 in one piece without floors, as
// barvinok answers it.
func TestCardPartialTileModulus(t *testing.T) {
	src := "[n] -> { [i_out, i_in] : n mod 256 = 0 and n >= 256 and i_in >= -256*i_out and i_in >= 0 and i_in < n - 256*i_out and i_in <= 31 }"
	_, q := parseAndCount(t, src)
	for n := int64(-256); n <= 4096; n++ {
		want := int64(0)
		if n >= 256 && n%256 == 0 {
			want = n / 8
		}
		got, err := q.Eval(map[string]int64{"n": n})
		if err != nil || !got.IsInt64() || got.Int64() != want {
			t.Fatalf("at n = %d: %s = %v (%v), want %d", n, q, got, err, want)
		}
	}
	if s := q.String(); len(q.view()) != 1 || strings.Contains(s, "floor") {
		t.Errorf("%s: want one piece without floors", s)
	}
}

// TestCardCompressOverflow counts a set whose compression overflows (n =
// 65536*n' makes 2^50*n a coefficient of 2^66): Card counts it without
// compression instead of failing.
func TestCardCompressOverflow(t *testing.T) {
	src := "[n] -> { [i] : n mod 65536 = 0 and 0 <= i <= 3 and 1125899906842624 n + i >= 0 }"
	_, q := parseAndCount(t, src)
	for _, n := range []int64{-131072, -65536, -1, 0, 5, 65536, 131072, 1 << 40} {
		want := int64(0)
		if n >= 0 && n%65536 == 0 {
			want = 4
		}
		got, err := q.Eval(map[string]int64{"n": n})
		if err != nil || !got.IsInt64() || got.Int64() != want {
			t.Fatalf("at n = %d: %s = %v (%v), want %d", n, q, got, err, want)
		}
	}
}
