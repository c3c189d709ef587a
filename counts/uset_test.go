package counts

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// tterm and tsum build the affine expressions of the tests below.
func tterm(name string, k int64) qaff { return qaff{terms: []lterm{{name, k}}} }

func tsum(parts ...qaff) qaff {
	r := qaff{}
	for _, p := range parts {
		r, _ = r.addScaled(p, 1)
	}
	return r
}

// TestSimplifyKeepsCounts builds random sets with existential variables,
// including the patterns simplify removes (tiles of splits, unit
// equalities, one-sided bounds), and checks by enumeration that
// simplifying changes no count.
func TestSimplifyKeepsCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		k := int64(rng.IntN(5) + 1)
		// dims x, y; existentials o, q, w
		c := conj{
			{tsum(tterm("x", 1)), false},                             // x >= 0
			{tsum(tterm("n", 1), tterm("x", -1), qconst(-1)), false}, // x <= n - 1
			{tsum(tterm("y", 1), qconst(2)), false},                  // y >= -2
			{tsum(tterm("n", 1), tterm("y", -1)), false},             // y <= n
		}
		switch trial % 5 {
		case 0: // tile: 0 <= x - k*o <= k - 1 (+ slack)
			slack := int64(rng.IntN(2))
			c = append(c, cons{tsum(tterm("x", 1), tterm("o", -k)), false},
				cons{tsum(tterm("o", k), tterm("x", -1), qconst(k-1+slack)), false})
		case 1: // equality: q = x + y - 1, then a bound on q
			c = append(c, cons{tsum(tterm("q", 1), tterm("x", -1), tterm("y", -1), qconst(1)), true},
				cons{tsum(tterm("q", -1), qconst(int64(rng.IntN(8)))), false})
		case 2: // one-sided: w >= x and w >= y
			c = append(c, cons{tsum(tterm("w", 1), tterm("x", -1)), false}, cons{tsum(tterm("w", 1), tterm("y", -1)), false})
		case 3: // a coupled pair that must stay: x = 2*o or y = k*o + 1
			c = append(c, cons{tsum(tterm("x", 1), tterm("o", -2)), true}, cons{tsum(tterm("y", 1), tterm("o", -k), qconst(-1)), false})
		case 4: // an existential tile pair: 1 <= q <= k + 1 (k + 1 wide),
			// y <= (k+1)*o + q and 2*((k+1)*o + q) <= x + n
			lo := int64(1)
			c = append(c, cons{tsum(tterm("q", 1), qconst(-lo)), false}, cons{tsum(tterm("q", -1), qconst(lo+k)), false},
				cons{tsum(tterm("o", k+1), tterm("q", 1), tterm("y", -1)), false},
				cons{tsum(tterm("x", 1), tterm("n", 1), tterm("o", -2*(k+1)), tterm("q", -2)), false})
		}
		pc := piece{exists: []string{"o", "q", "w"}, c: c}
		simple := pc.simplify()
		if trial%5 == 4 && slices.Contains(simple.exists, "o") {
			t.Errorf("trial %d: tile pair not merged: %v", trial, simple)
		}
		s := &uset{dims: []string{"x", "y"}, pieces: []piece{simple}}
		for n := int64(0); n < 7; n++ {
			params := map[string]int64{"n": n}
			a := bruteCount(pc, n)
			b, err := countConcrete(s, "t", []string{"n"}, params, 1e7)
			if err != nil {
				t.Fatal(err)
			}
			if a != b {
				t.Fatalf("trial %d n=%d: %d points, %d after simplifying\n%v\n%s", trial, n, a, b, pc.c, s.isl([]string{"n"}))
			}
		}
	}
	// The split tile disappears entirely.
	tile := piece{exists: []string{"io"}, c: conj{
		{qaff{terms: []lterm{{"x", 1}, {"io", -16}}}, false},
		{qaff{terms: []lterm{{"x", -1}, {"io", 16}}, c: 15}, false},
	}}
	if got := fmt.Sprint(tile.simplify().exists); got != "[]" {
		t.Errorf("tile not eliminated: %v", got)
	}
}

// bruteCount counts the points (x, y) of a piece by trying every value,
// in a window wide enough for the small n of the test, of the
// existentials its constraints mention.
func bruteCount(pc piece, n int64) int64 {
	var ex []string
	for _, e := range pc.exists {
		for _, x := range pc.c {
			if x.e.coefOf(e) != 0 && !slices.Contains(ex, e) {
				ex = append(ex, e)
			}
		}
	}
	vals := map[string]int64{"n": n}
	var search func(i int) bool
	search = func(i int) bool {
		if i == len(ex) {
			for _, x := range pc.c {
				v, err := evalQaffChecked(x.e, vals)
				if err != nil || (x.eq && v != 0) || (!x.eq && v < 0) {
					return false
				}
			}
			return true
		}
		for v := int64(-25); v <= 25; v++ {
			vals[ex[i]] = v
			if search(i + 1) {
				return true
			}
		}
		return false
	}
	count := int64(0)
	for x := int64(-5); x <= 10; x++ {
		for y := int64(-5); y <= 10; y++ {
			vals["x"], vals["y"] = x, y
			if search(0) {
				count++
			}
		}
	}
	return count
}

// TestSimplifyPartsKeepsCounts checks that simplifying a part of the
// existentials on its own changes no count (against the count derived by
// hand), that the part found is the one no constraint links to a
// dimension, and that a second piece with the same part takes it from
// the memo.
func TestSimplifyPartsKeepsCounts(t *testing.T) {
	// The part {a, b}: 2 <= a, a + 3 <= n and 0 <= b - 4a <= 3 (a tile),
	// which has points exactly when n >= 5. The rest: o with 0 <= x - 2o
	// <= 1 ties o to the dimension x.
	c := conj{
		{tsum(tterm("x", 1)), false},                             // x >= 0
		{tsum(tterm("n", 1), tterm("x", -1), qconst(-1)), false}, // x <= n - 1
		{tsum(tterm("y", 1)), false},                             // y >= 0
		{tsum(tterm("n", 1), tterm("y", -1)), false},             // y <= n
		{tsum(tterm("a", 1), qconst(-2)), false},                 // a >= 2
		{tsum(tterm("n", 1), tterm("a", -1), qconst(-3)), false}, // a <= n - 3
		{tsum(tterm("b", 1), tterm("a", -4)), false},             // b >= 4a
		{tsum(tterm("a", 4), tterm("b", -1), qconst(3)), false},  // b <= 4a + 3
		{tsum(tterm("x", 1), tterm("o", -2)), false},             // x >= 2o
		{tsum(tterm("o", 2), tterm("x", -1), qconst(1)), false},  // x <= 2o + 1
	}
	pc := piece{exists: []string{"a", "o", "b"}, c: c}
	parts, rest := pc.freeParts([]string{"n"})
	if len(parts) != 1 || !slices.Equal(parts[0].exists, []string{"a", "b"}) || len(parts[0].c) != 4 {
		t.Fatalf("parts %v, want one part over a and b with their 4 constraints", parts)
	}
	if !slices.Equal(rest.exists, []string{"o"}) || len(rest.c) != 6 {
		t.Fatalf("rest %v, want o and the other 6 constraints", rest)
	}
	memo := map[string]piece{}
	simple := pc.simplifyParts([]string{"n"}, memo)
	s := &uset{dims: []string{"x", "y"}, pieces: []piece{simple}}
	for n := int64(0); n < 9; n++ {
		want := int64(0)
		if n >= 5 {
			want = n * (n + 1) // x in [0, n-1], y in [0, n]
		}
		got, err := countConcrete(s, "t", []string{"n"}, map[string]int64{"n": n}, 1e7)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("n=%d: %d points after simplifying, want %d\n%s", n, got, want, s.isl([]string{"n"}))
		}
	}
	other := piece{exists: []string{"a", "b"}, c: slices.Concat(c[4:8], conj{{tsum(tterm("y", 1), qconst(-1)), false}})}
	other.simplifyParts([]string{"n"}, memo)
	if len(memo) != 1 {
		t.Errorf("memo holds %d parts, want the one part both pieces share", len(memo))
	}
}
