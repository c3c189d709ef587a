package launch

import (
	"fmt"
	"math"

	"github.com/uniperf/uniperf/counts"
)

// Relative tolerances of the correctness check. The reference interpreter
// rounds every f32 operation as the device does, but devices may fuse
// multiply-adds and their exp, pow and rsqrt may differ by a few ulps;
// errors are measured against the scale of the whole array so that
// elements near zero after cancellation do not fail spuriously. A wrong
// kernel is off by far more.
const (
	rtolF32 = 1e-4
	rtolF64 = 1e-10
	// An f32 result one ulp off (a fused multiply-add) may round to the
	// neighbouring half, 2^-10 relative away.
	rtolF16 = 1e-3
)

// compare checks the device's result for one array against the reference
// interpreter's: integers exactly, floats within the tolerance, an
// infinity only where the reference has the same one, and NaN (an element
// neither wrote) only where the reference has NaN.
func compare(name string, dtype counts.DType, got, want hostArray) error {
	rtol := rtolF32
	switch dtype {
	case counts.F64:
		rtol = rtolF64
	case counts.F16:
		rtol = rtolF16
	}
	scale := 0.0
	for i := range want.len() {
		if v := math.Abs(want.at(i)); !math.IsNaN(v) && !math.IsInf(v, 0) {
			scale = math.Max(scale, v)
		}
	}
	bad, first := int64(0), int64(-1)
	for i := range want.len() {
		g, w := got.at(i), want.at(i)
		var ok bool
		switch {
		case !dtype.IsFloat():
			ok = g == w
		case math.IsNaN(w) || math.IsNaN(g):
			ok = math.IsNaN(w) && math.IsNaN(g)
		case math.IsInf(w, 0) || math.IsInf(g, 0):
			// Inf - Inf is NaN, which no tolerance admits: infinities
			// (a[i] / 0) agree only when equal.
			ok = g == w
		default:
			ok = math.Abs(g-w) <= rtol*(math.Abs(w)+scale)
		}
		if !ok {
			if bad == 0 {
				first = i
			}
			bad++
		}
	}
	if bad == 0 {
		return nil
	}
	return fmt.Errorf("array %s: %d of %d elements differ from the reference interpreter; the first, element %d, is %s on the device and %s in the reference",
		name, bad, want.len(), first, show(got.at(first)), show(want.at(first)))
}

func show(v float64) string {
	if math.IsNaN(v) {
		return "NaN (never written)"
	}
	return fmt.Sprintf("%.9g", v)
}
