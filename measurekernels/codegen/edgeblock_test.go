package codegen_test

import (
	"math"
	"testing"
)

// The OpenCL C of counts' edgehalo.knl loads an edge block's whole tile
// and halo from the buffer the host allocates, n + 18 floats, as C does,
// and PoCL stores what Go's 3-point sum of the image gives: the loads
// past the image read the padding (NaN here, which no guarded store may
// pass on), not a clamped or masked index.
func TestEdgeBlockOnPoCL(t *testing.T) {
	k := langKernel(t, "edgehalo", nil)
	for _, n := range []int{37, 32, 1} {
		in := make([]float32, n+18)
		for i := range in {
			in[i] = float32(math.NaN())
			if i < n+2 {
				in[i] = float32(i*i%13) - 4.25
			}
		}
		out := runOnPoCL(t, k, map[string]int64{"n": int64(n)}, map[string]any{"in": in, "out": make([]float32, n)})
		got := out["out"].([]float32)
		for i := range n {
			if want := in[i] + in[i+1] + in[i+2]; !near(float64(got[i]), float64(want)) {
				t.Errorf("n = %d: out[%d] = %v, want %v", n, i, got[i], want)
			}
		}
	}
}
