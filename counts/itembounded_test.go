package counts_test

import (
	"os"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestItemBounded checks ItemBounded against the domains read by hand.
// In the convolution (examples/convolution_kernel.knl) a work-item's
// tile cells yi and xi are bounded by the image's edge at its own
// position (BY*TY*gy + ty + BY*yi < h), and its loading loops ri and rj
// likewise; the filter loops i and j by constants alone, and the work-
// item ids by nothing else. In reg_chain_f32 the accumulators' j < K
// names no id, and in local_context the guard i + s < n is an if, not a
// bound of s.
func TestItemBounded(t *testing.T) {
	src, err := os.ReadFile("../examples/convolution_kernel.knl")
	if err != nil {
		t.Fatal(err)
	}
	conv, err := counts.ParseKernel("convolution_kernel.knl", src, map[string]int64{"TX": 2, "TY": 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		k     *counts.Kernel
		iname string
		want  bool
	}{
		{conv, "yi", true}, {conv, "xi", true}, {conv, "ri", true}, {conv, "rj", true},
		{conv, "i", false}, {conv, "j", false}, {conv, "tx", false}, {conv, "gy", false},
		{conv, "nosuch", false},
		{loadLibraryKernel(t, "reg_chain_f32", map[string]int64{"K": 4}), "j", false},
		{loadLibraryKernel(t, "local_context", nil), "s", false},
	} {
		if got := c.k.ItemBounded(c.iname); got != c.want {
			t.Errorf("%s: ItemBounded(%s) = %v, want %v", c.k.Name, c.iname, got, c.want)
		}
	}
}
