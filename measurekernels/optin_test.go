package measurekernels

import (
	"slices"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/suite"
)

// An opt-in entry (the integer memory and read-only path classes) is measured only when
// --kernels names it: without --kernels the paper suite plans what it
// planned before the entries were added, all but them.
func TestOptInEntries(t *testing.T) {
	s, err := suite.Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	names := func(opts Options) []string {
		var out []string
		for _, k := range (&measurer{opts: opts}).entries() {
			out = append(out, k.Kernel)
		}
		return out
	}
	optIn := []string{"global_int_i32", "global_int_i64", "global_int_u8", "global_int_u16", "global_f16", "local_int_i32", "local_int_i64", "global_ldg_f32", "global_ldg_i32", "global_ldg_strided_f32", "global_ldg_strided_i32", "gather_f32", "gather_i32", "scatter_f32", "atomic_add_i32", "atomic_add_f32",
		"global_strided_i32", "vector_sum_i32", "scaled_sum_i32", "transpose_read_coalesced_i32", "transpose_write_coalesced_i32", "scaled_sum_ldg",
		"scaled_sum_ldg_i32", "transpose_ldg_f32", "transpose_ldg_i32",
		"reg_chain_f32", "reg_chain_f64", "local_stores", "local_atomic_i32", "uniform_store_u8"}
	all := names(Options{Suite: s})
	if len(all) != len(s.Kernels)-len(optIn) {
		t.Errorf("without --kernels: %d of the suite's %d entries, want all but the %d opt-in ones", len(all), len(s.Kernels), len(optIn))
	}
	for _, k := range optIn {
		if slices.Contains(all, k) {
			t.Errorf("without --kernels: %s is measured", k)
		}
	}
	if got := names(Options{Suite: s, Kernels: []string{"empty", "local_int_i64"}}); !slices.Equal(got, []string{"empty", "local_int_i64"}) {
		t.Errorf("--kernels empty,local_int_i64 measures %v", got)
	}
}

// The hierarchy suite's core_fill, scalar_chain, local_context and
// guarded_lanes kernels are opt-in
// too: without --kernels the suite plans what the shipped hierarchy
// table holds.
func TestHierarchyOptIn(t *testing.T) {
	s, err := suite.Load("hierarchy")
	if err != nil {
		t.Fatal(err)
	}
	var planned []string
	for _, k := range (&measurer{opts: Options{Suite: s}}).entries() {
		planned = append(planned, k.Kernel)
	}
	optIn := []string{"core_fill", "scalar_chain_i32", "scalar_chain_i64", "scalar_sum_f32", "local_context", "guarded_lanes_f32"}
	if slices.ContainsFunc(optIn, func(k string) bool { return slices.Contains(planned, k) }) || len(planned) != len(s.Kernels)-len(optIn) {
		t.Errorf("without --kernels the hierarchy suite plans %v, want all but %v", planned, optIn)
	}
}
