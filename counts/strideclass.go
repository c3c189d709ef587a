package counts

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// A global access is classed by its stride and, for strides of 2 and
// more, by how much of its footprint it uses; the classes name its
// property.

// strideName renders a stride class: "0", "1", "k/s" for s = 2, 3, 4 and
// "k/>4" beyond.
func strideName(stride int64, num int64) string {
	switch {
	case stride == 0 || stride == 1:
		return strconv.FormatInt(stride, 10)
	case stride >= 2 && stride <= 4:
		return fmt.Sprintf("%d/%d", num, stride)
	}
	return fmt.Sprintf("%d/>4", num)
}

// classDenominator is the number of utilization classes of a stride: 2,
// 3 or 4, or 4 for strides above 4 and strides that depend on parameters.
func classDenominator(stride int64) int64 {
	if stride >= 2 && stride <= 4 {
		return stride
	}
	return 4
}

// utilClass quantizes a utilization |fp|/|filled| robustly: the
// numerator is the utilization times the class denominator, rounded to
// the nearest integer (halves up), clamped to 1..den. The rounded value
// is the largest k with k <= fp*den/filled + 1/2, that is with
// filled*(2k - 1) <= 2*den*fp, compared exactly in 128 bits.
func utilClass(fp, filled, den int64) int64 {
	if filled <= 0 || fp <= 0 {
		return 1
	}
	hi, lo := bits.Mul64(uint64(fp), uint64(2*den))
	for k := den; k > 1; k-- {
		h, l := bits.Mul64(uint64(filled), uint64(2*k-1))
		if h < hi || h == hi && l <= lo {
			return k
		}
	}
	return 1
}

// globalProperty names a global access property.
func globalProperty(store, readOnly bool, t DType, stride, num int64) string {
	if stride == strideVar {
		stride = math.MaxInt64
	}
	return "global." + accessDirection(store, readOnly) + "." + t.MemName() + ".stride=" + strideName(stride, num)
}
