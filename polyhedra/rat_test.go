package polyhedra

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// TestSmallRatArithmetic compares mulRat and sumRats, which compute with
// int64 fractions where they fit, with big.Rat on random fractions,
// small and near the edge of int64.
func TestSmallRatArithmetic(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	edges := []int64{0, 1, -1, 2, 3, 6, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 32, -(1 << 31), 3 << 61}
	pick := func() int64 {
		switch r.Intn(3) {
		case 0:
			return edges[r.Intn(len(edges))]
		case 1:
			return r.Int63n(2000) - 1000
		}
		return r.Int63() - r.Int63()
	}
	rat := func() *big.Rat {
		d := pick()
		if d == 0 {
			d = 1
		}
		return new(big.Rat).SetFrac(big.NewInt(pick()), big.NewInt(d))
	}
	for range 200000 {
		x, y, z := rat(), rat(), rat()
		if got, want := mulRat(x, y), new(big.Rat).Mul(x, y); got.Cmp(want) != 0 || got.String() != want.String() {
			t.Fatalf("mulRat(%v, %v) = %v, want %v", x, y, got, want)
		}
		want := new(big.Rat).Add(x, y)
		want.Add(want, z)
		if got := sumRats([]term{{c: x}, {c: y}, {c: z}}); got.Cmp(want) != 0 || got.String() != want.String() {
			t.Fatalf("sumRats(%v, %v, %v) = %v, want %v", x, y, z, got, want)
		}
	}
}

// TestSharedRatsIntact counts the corpus and seeded random sets, prints
// the answers, and checks that no shared fraction changed: they are
// shared because no operation changes a coefficient in place.
func TestSharedRatsIntact(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	var srcs []string
	for _, c := range cardCorpus(t) {
		srcs = append(srcs, c.src)
	}
	for range 30 {
		srcs = append(srcs, randomSet(r, 2+r.Intn(2), 2).src)
	}
	for _, src := range srcs {
		s, err := ParseSet(src)
		if err != nil {
			t.Fatal(err)
		}
		if q, err := s.Card(); err == nil {
			_ = q.String()
			_, _ = q.Eval(map[string]int64{"n": 7, "m": 5})
		}
	}
	for n := int64(-maxSharedNum); n <= maxSharedNum; n++ {
		for d := int64(1); d <= maxSharedDen; d++ {
			if x := sharedRats[(n+maxSharedNum)*(maxSharedDen+1)+d]; x != nil && x.Cmp(big.NewRat(n, d)) != 0 {
				t.Fatalf("shared fraction %d/%d changed to %v", n, d, x)
			}
		}
	}
}
