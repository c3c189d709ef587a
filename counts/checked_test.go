package counts

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestCheckedArithmetic compares mulInt and addInt with big integers at
// the edges of the int64 range and at random.
func TestCheckedArithmetic(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 32, -(1 << 32), 3037000499, 3037000500, -3037000499, -3037000500}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		vals = append(vals, rng.Int64()>>rng.IntN(63)*(1-2*rng.Int64N(2)))
	}
	for _, a := range vals {
		for _, b := range vals {
			for op, f := range map[string]func(a, b int64) (int64, error){"*": mulInt, "+": addInt} {
				want := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
				if op == "+" {
					want = new(big.Int).Add(big.NewInt(a), big.NewInt(b))
				}
				got, err := f(a, b)
				if (err == nil) != want.IsInt64() || err == nil && got != want.Int64() {
					t.Fatalf("%d %s %d = %d, %v; want %s", a, op, b, got, err, want)
				}
			}
		}
	}
}
