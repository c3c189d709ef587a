package measurekernels

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/uniperf/uniperf/counts"
)

// localLimitError is a program whose local arrays exceed the local
// memory a work-group has on the device (local_tile's 512 KiB tile on a
// GPU's 48 to 228 KiB): a limit of the device, as a work-group beyond its
// size is, so that its cases are skipped with the reason rather than
// failing to compile.
type localLimitError struct {
	key          string
	bytes, limit int64
	device       string
}

func (e *localLimitError) Error() string {
	return fmt.Sprintf("%s: local arrays of %d bytes exceed the %d bytes of local memory a work-group has on %s; its cases are not measured",
		e.key, e.bytes, e.limit, e.device)
}

// localBytes returns the bytes of k's local arrays, their shapes
// constant, saturating at math.MaxInt64 (no device holds that much).
func localBytes(k *counts.Kernel) int64 {
	var total uint64
	for _, a := range k.Arrays {
		if a.Space != counts.Local {
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
