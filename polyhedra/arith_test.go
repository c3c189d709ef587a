package polyhedra

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// TestMulOK compares mulOK with big-integer products at the edges of the
// int64 range and at random.
func TestMulOK(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 31, -(1 << 31), 1 << 32, -(1 << 32), 3037000499, 3037000500, -3037000499, -3037000500}
	r := rand.New(rand.NewSource(5))
	vals := edges
	for range 200 {
		vals = append(vals, r.Int63()>>uint(r.Intn(63))*int64(1-2*r.Intn(2)))
	}
	for _, a := range vals {
		for _, b := range vals {
			want := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
			got, ok := mulOK(a, b)
			if ok != want.IsInt64() || ok && got != want.Int64() {
				t.Fatalf("mulOK(%d, %d) = %d, %v; want %s", a, b, got, ok, want)
			}
		}
	}
}
