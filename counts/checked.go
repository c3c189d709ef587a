package counts

import (
	"errors"
	"math"
	"math/bits"
)

// errOverflow reports an integer result that does not fit in int64. Counts
// are exact or an error; nothing in this package wraps around silently.
var errOverflow = errors.New("integer overflow")

func addInt(a, b int64) (int64, error) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, errOverflow
	}
	return s, nil
}

func mulInt(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	hi, lo := bits.Mul64(uint64(absU(a)), uint64(absU(b)))
	neg := (a < 0) != (b < 0)
	if hi != 0 || (!neg && lo > math.MaxInt64) || (neg && lo > 1<<63) {
		return 0, errOverflow
	}
	if neg {
		return -int64(lo), nil
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
