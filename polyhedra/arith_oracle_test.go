package polyhedra

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// overflows runs f and reports whether it panicked with overflowPanic.
func overflows(f func()) (ov bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(overflowPanic); !ok {
				panic(r)
			}
			ov = true
		}
	}()
	f()
	return false
}

// The checked arithmetic against math/big: a result is returned exactly
// when it fits in int64, and an overflow is reported otherwise, on the
// edges of the range and on random operands of every magnitude.
func TestCheckedArithmeticAgainstBig(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		math.MaxInt32, math.MinInt32, 1 << 31, 3037000499, 3037000500, -3037000500}
	r := rand.New(rand.NewPCG(1, 2))
	vals := append([]int64(nil), edges...)
	for range 300 {
		vals = append(vals, r.Int64()>>r.IntN(64)*int64(1-2*r.IntN(2)))
	}
	fits := func(x *big.Int) bool { return x.IsInt64() }
	for _, a := range vals {
		for _, b := range vals[:len(edges)+40] {
			ba, bb := big.NewInt(a), big.NewInt(b)
			for _, op := range []struct {
				name string
				want *big.Int
				got  func() int64
			}{
				{"+", new(big.Int).Add(ba, bb), func() int64 { return add64(a, b) }},
				{"-", new(big.Int).Sub(ba, bb), func() int64 { return sub64(a, b) }},
				{"*", new(big.Int).Mul(ba, bb), func() int64 { return mul64(a, b) }},
			} {
				var got int64
				ov := overflows(func() { got = op.got() })
				if ov == fits(op.want) || !ov && got != op.want.Int64() {
					t.Fatalf("%d %s %d = %d (overflow %v), want %s", a, op.name, b, got, ov, op.want)
				}
			}
			if b > 0 {
				q := new(big.Int)
				q.Div(ba, bb) // Euclidean; equals floor for b > 0
				if got := floorDiv(a, b); got != q.Int64() {
					t.Fatalf("floorDiv(%d, %d) = %d, want %s", a, b, got, q)
				}
			}
		}
		if ov := overflows(func() { neg64(a) }); ov != (a == math.MinInt64) {
			t.Fatalf("neg64(%d): overflow %v", a, ov)
		}
	}
}

// evalAt against eval in math/big: random polynomials with coefficients
// of every magnitude (some past int64, some with large denominators) at
// columns of every magnitude, so that the int64 path and the fallback
// both run and must agree exactly.
func TestEvalAtAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	mag := func() int64 {
		switch r.IntN(4) {
		case 0:
			return r.Int64N(7) - 3
		case 1:
			return r.Int64N(2001) - 1000
		case 2:
			return r.Int64N(1<<40) - 1<<39
		}
		return int64(r.Uint64())
	}
	fast := 0
	for range 20000 {
		p := &poly{}
		for range 1 + r.IntN(5) {
			e := make([]uint8, 4)
			for c := 1; c < 4; c++ {
				e[c] = uint8(r.IntN(4))
			}
			c := new(big.Rat).SetFrac(big.NewInt(mag()), big.NewInt(1+r.Int64N(12)))
			if r.IntN(8) == 0 {
				c.Mul(c, new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 70), big.NewInt(1+r.Int64N(1<<40))))
			}
			p.terms = append(p.terms, term{e, c})
		}
		p.normalize()
		cols := []int64{1, mag(), mag(), mag()}
		bv := make([]*big.Int, len(cols))
		for i, c := range cols {
			bv[i] = big.NewInt(c)
		}
		if got, want := p.evalAt(cols), p.eval(bv); got.Cmp(want) != 0 {
			t.Fatalf("%v at %v: evalAt %s, eval %s", p.terms, cols, got.RatString(), want.RatString())
		}
		if _, _, ok := p.evalInt64(cols); ok {
			fast++
		}
	}
	if fast < 1000 || fast > 19000 {
		t.Errorf("the int64 path ran %d times in 20000: the test does not cover both paths", fast)
	}
}
