package counts

import (
	"math"
	"math/bits"
)

func addInt(a, b int64) (int64, error) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, errOverflow
	}
	return s, nil
}

// mulInt returns a*b. The high word of the signed 128-bit product is the
// unsigned one less b when a < 0 and a when b < 0; the product fits when
// that is the sign extension of the low word.
func mulInt(a, b int64) (int64, error) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if int64(hi)-(a>>63)&b-(b>>63)&a != int64(lo)>>63 {
		return 0, errOverflow
	}
	return int64(lo), nil
}

func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && (a < 0) {
		q--
	}
	return q
}

// ceilDiv is ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

func mulU(a, b uint64) (hi, lo uint64) { return bits.Mul64(a, b) }

// satMul returns a*b for non-negative a and b, or the largest int64
// where that overflows.
func satMul(a, b int64) int64 {
	v, err := mulInt(a, b)
	if err != nil {
		return math.MaxInt64
	}
	return v
}

// satAdd returns a+b for non-negative a and b, or the largest int64
// where that overflows.
func satAdd(a, b int64) int64 {
	v, err := addInt(a, b)
	if err != nil {
		return math.MaxInt64
	}
	return v
}

// satExtent returns hi - lo + 1, the number of integers from lo to hi (0
// where hi < lo), or the largest int64 where that overflows: a range
// from -2^62 to 2^62 would wrap round to a negative count.
func satExtent(lo, hi int64) int64 {
	if hi < lo {
		return 0
	}
	if d := uint64(hi) - uint64(lo); d < math.MaxInt64 {
		return int64(d) + 1
	}
	return math.MaxInt64
}
