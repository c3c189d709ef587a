package datasets

import (
	"slices"
	"testing"
)

// The expected choices follow from the shipped tables' metadata as
// uniperf table prints it: the H100 ships a CUDA and an OpenCL paper
// table, the EPYC's PoCL device a paper and a quick table.
func TestShippedFor(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  []string
	}{
		{[]string{"NVIDIA H100 80GB HBM3"}, []string{"h100-cuda-paper.arrow"}},
		{[]string{"no such device", " nvidia h100 80gb hbm3 "}, []string{"h100-cuda-paper.arrow"}},
		{[]string{"pthread-skylake-avx512-AMD EPYC"}, []string{"pocl-epyc-paper.arrow"}},
		{[]string{"GeForce GTX 460"}, nil},
	} {
		if got := ShippedFor(c.names...); !slices.Equal(got, c.want) {
			t.Errorf("ShippedFor(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
