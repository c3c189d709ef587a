package half_test

import (
	"fmt"

	"github.com/uniperf/uniperf/counts/half"
)

// A float rounds to the nearest half, ties to even; the half's value
// converts back exactly.
func ExampleFromFloat32() {
	for _, f := range []float32{0.1, 1.0 / 3, 65519, 65520, 1 + 1.0/2048} {
		h := half.FromFloat32(f)
		fmt.Printf("%g -> %#04x = %g\n", f, uint16(h), h.Float32())
	}
	// Output:
	// 0.1 -> 0x2e66 = 0.099975586
	// 0.33333334 -> 0x3555 = 0.33325195
	// 65519 -> 0x7bff = 65504
	// 65520 -> 0x7c00 = +Inf
	// 1.0004883 -> 0x3c00 = 1
}
