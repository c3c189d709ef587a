package counts

import (
	"math"
	"math/bits"
)

// LocalBytes returns the bytes of k's local arrays, the local memory a
// work-group declares (their shapes are constant), saturating at
// math.MaxInt64: no device holds that much, and a limit checked
// against it stays refused rather than wrapping round.
func (k *Kernel) LocalBytes() int64 {
	var total uint64
	for _, a := range k.Arrays {
		if a.Space != Local {
			continue
		}
		size := uint64(a.DType.Size())
		for _, d := range a.Shape {
			hi, lo := bits.Mul64(size, uint64(max(d.Const, 0)))
			if hi != 0 {
				return math.MaxInt64
			}
			size = lo
		}
		var carry uint64
		if total, carry = bits.Add64(total, size, 0); carry != 0 || total > math.MaxInt64 {
			return math.MaxInt64
		}
	}
	return int64(total)
}
