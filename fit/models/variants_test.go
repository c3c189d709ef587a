package models

import (
	"maps"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/fit/report"
)

func TestWorkGroupConsts(t *testing.T) {
	c := func(kernel string, consts, params map[string]int64) report.Case {
		return report.Case{Kernel: kernel, Consts: consts, Params: params}
	}
	cases := []report.Case{
		// STRIDE, D and S change the work-items or the work per item, not
		// the group: at n = 64 too the group is LX's, 256 work-items, as a
		// C host launches them.
		c("vector_scale_add", map[string]int64{"LX": 256, "STRIDE": 3}, map[string]int64{"n": 64}),
		c("vector_scale_add", map[string]int64{"LX": 128, "STRIDE": 2}, map[string]int64{"n": 4096}),
		c("inv_norm", map[string]int64{"LX": 256, "D": 2}, map[string]int64{"n": 262144}),
		c("fan_in", map[string]int64{"LX": 256, "S": 2}, map[string]int64{"n": 4194304}),
		c("matmul_tiled", map[string]int64{"LX": 16, "LY": 16}, map[string]int64{"n": 256, "m": 256, "ell": 256}),
	}
	got, err := WorkGroupConsts(Library, cases)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"vector_scale_add": {"LX"}, "inv_norm": {"LX"}, "fan_in": {"LX"}, "matmul_tiled": {"LX", "LY"}}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("work-group consts %v, want %v", got, want)
	}
	if _, err := WorkGroupConsts(Library, []report.Case{c("no_such_kernel", nil, nil)}); err == nil {
		t.Error("unknown kernel accepted")
	}
	// At n = 64 alone, below one group, LX alone sets it.
	small, err := WorkGroupConsts(Library, cases[:1])
	if want := []string{"LX"}; err != nil || !slices.Equal(small["vector_scale_add"], want) {
		t.Errorf("vector_scale_add at n=64: %v, %v; want %v", small, err, want)
	}
}
