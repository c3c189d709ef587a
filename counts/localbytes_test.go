package counts_test

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestLocalBytes checks the local bytes of a group by hand: local_tile's
// C x (LX + PAD) floats, 16*272*4 = 17408 bytes at C = 16, PAD = 16;
// global and private arrays not counted; and local arrays whose bytes
// pass int64, one alone or two together, at math.MaxInt64.
func TestLocalBytes(t *testing.T) {
	k := loadLibraryKernel(t, "local_tile", map[string]int64{"C": 16, "PAD": 16})
	if got := k.LocalBytes(); got != 16*272*4 {
		t.Errorf("local_tile C=16 PAD=16: %d bytes, want %d", got, 16*272*4)
	}
	local := func(dims ...int64) *counts.Array {
		a := &counts.Array{Space: counts.Local, DType: counts.F64}
		for _, d := range dims {
			a.Shape = append(a.Shape, counts.Affine{Const: d})
		}
		return a
	}
	for _, c := range []struct {
		arrays []*counts.Array
		want   int64
	}{
		{[]*counts.Array{local(3, 5), {Space: counts.Global, DType: counts.F64, Shape: []counts.Affine{{Const: 1 << 40}}}, {Space: counts.Private, DType: counts.F64}}, 120},
		{[]*counts.Array{local(1<<31, 1<<31)}, math.MaxInt64},
		{[]*counts.Array{local(1 << 59), local(1 << 59)}, math.MaxInt64},
		{[]*counts.Array{local(1<<59 - 1), local(1)}, 1 << 62},
	} {
		if got := (&counts.Kernel{Arrays: c.arrays}).LocalBytes(); got != c.want {
			t.Errorf("%d arrays: %d bytes, want %d", len(c.arrays), got, c.want)
		}
	}
}
