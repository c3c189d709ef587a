package counts

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
	"github.com/uniperf/uniperf/measurekernels/suite"
	"github.com/uniperf/uniperf/polyhedra"
)

// countChecks are library kernels with their default constants (16 x 16
// and 256-wide work-groups) at sizes where the splits do not divide, at
// multiples of the work-group size and at the smallest sizes allowed.
func countChecks() []planCheck {
	var out []planCheck
	add := func(kernel string, consts map[string]int64, params ...map[string]int64) {
		for _, p := range params {
			out = append(out, planCheck{kernel, consts, p})
		}
	}
	n := func(v int64) map[string]int64 { return map[string]int64{"n": v} }
	add("matmul_tiled", nil, map[string]int64{"n": 40, "m": 37, "ell": 33}, map[string]int64{"n": 37, "m": 40, "ell": 16},
		map[string]int64{"n": 16, "m": 15, "ell": 17}, map[string]int64{"n": 1, "m": 1, "ell": 1})
	add("matmul_skinny", nil, map[string]int64{"n": 37, "m": 40}, map[string]int64{"n": 16, "m": 3}, map[string]int64{"n": 1, "m": 1})
	add("matmul_naive", nil, n(40), n(37), n(1))
	for _, st := range []int64{1, 2, 3} {
		add("vector_scale_add", map[string]int64{"STRIDE": st}, n(1000), n(513), n(1))
	}
	for _, st := range []int64{2, 3} {
		add("global_copy_strided", map[string]int64{"STRIDE": st}, n(1000), n(513), n(1))
		add("global_store_strided", map[string]int64{"STRIDE": st}, n(1000), n(513), n(1))
	}
	for _, k := range []string{"transpose_prefetch", "transpose_read_coalesced", "transpose_write_coalesced", "empty"} {
		add(k, nil, n(40), n(37), n(16), n(1))
	}
	for _, k := range []string{"global_copy", "global_add4", "global_store_index"} {
		add(k, nil, n(600), n(256), n(1))
	}
	add("stride2_filled", nil, n(300), n(37), n(1))
	add("stride3_filled", nil, n(300), n(37), n(1))
	add("empty_1d", nil, n(600), n(256), n(1))
	for _, k := range []string{"grid_fill_chain", "grid_fill_stream"} {
		add(k, map[string]int64{"LX": 64}, map[string]int64{"ng": 3, "nk": 5}, map[string]int64{"ng": 1, "nk": 1})
	}
	// LX = 64 >= M: half the work-items store to t; LX = 8: each stores 4.
	add("grid_fill_local", map[string]int64{"LX": 64}, map[string]int64{"ng": 3, "nr": 2}, map[string]int64{"ng": 1, "nr": 1})
	add("grid_fill_local", map[string]int64{"LX": 8}, map[string]int64{"ng": 3, "nr": 1})
	add("finite_diff", nil, n(40), n(37), n(18), n(17), n(3))
	add("nbody", nil, n(37), n(2), n(1))
	add("nbody", map[string]int64{"LX": 16}, n(40), n(37))
	add("convolution", nil, n(20), n(1))
	for _, d := range []int64{2, 3} {
		add("sumsq", map[string]int64{"D": d}, n(600), n(257), n(1))
		add("inv_norm", map[string]int64{"D": d}, n(600), n(257), n(1))
	}
	add("scaled_sum", nil, n(600), n(257), n(1))
	add("reuse_group", nil, n(600), n(257), n(1))
	for _, k := range []string{"reread_l2", "reread_dram"} {
		add(k, nil, map[string]int64{"n": 600, "nr": 3}, map[string]int64{"n": 257, "nr": 1})
	}
	add("column_walk", nil, map[string]int64{"n": 600, "nr": 3, "p": 640}, map[string]int64{"n": 257, "nr": 1, "p": 257})
	add("accumulate_global", nil, map[string]int64{"n": 600, "nk": 3}, map[string]int64{"n": 257, "nk": 1})
	add("core_fill", nil, map[string]int64{"ng": 3, "nk": 5}, map[string]int64{"ng": 1, "nk": 1})
	add("scaled_sum", map[string]int64{"K": 1}, n(37))
	for _, s := range []int64{1, 2, 4} {
		add("fan_out", map[string]int64{"S": s}, n(600), n(257), n(1))
		add("fan_in", map[string]int64{"S": s}, n(600), n(257), n(1))
	}
	for _, t := range []string{"f32", "f64"} {
		add("arith_mix_"+t, nil, map[string]int64{"n": 37, "na": 3, "nb": 2, "nc": 5, "nd": 4}, map[string]int64{"n": 16, "na": 1, "nb": 1, "nc": 1, "nd": 1})
	}
	for _, t := range []string{"i32", "i64"} {
		add("arith_int_"+t, nil, map[string]int64{"n": 37, "na": 3, "nb": 2, "nc": 1, "nd": 4, "ne": 2, "c": 13},
			map[string]int64{"n": 16, "na": 1, "nb": 1, "nc": 1, "nd": 1, "ne": 1, "c": -5})
	}
	for _, t := range []string{"i32", "i64"} {
		add("arith_intspecial_"+t, nil, map[string]int64{"n": 37, "ns": 3, "c": 13}, map[string]int64{"n": 16, "ns": 1, "c": -5})
	}
	add("matvec_t", nil, map[string]int64{"m": 37, "n": 600}, map[string]int64{"m": 1, "n": 257}, map[string]int64{"m": 5, "n": 1})
	add("matvec_t_unrolled", map[string]int64{"M": 37}, n(600), n(257), n(1))
	add("matvec_t_unrolled", map[string]int64{"M": 1}, n(37))
	add("vector_sum", nil, n(600), n(257), n(1))
	for _, s := range []int64{1, 2, 32} {
		add("local_bank", map[string]int64{"S": s}, n(512), n(256))
	}
	add("local_bank", map[string]int64{"LX": 64, "S": 4}, n(192))
	for _, t := range []string{"i32", "i64"} {
		for _, r := range []int64{1, 4} {
			add("global_int_"+t, map[string]int64{"R": r}, n(600), n(257), n(1))
		}
		add("global_int_"+t, map[string]int64{"S": 2}, n(600), n(257))
		add("local_int_"+t, nil, n(512), n(256))
		add("local_int_"+t, map[string]int64{"LX": 64, "R": 8}, n(192))
	}
	for _, t := range []string{"int_u8", "int_u16", "f16"} {
		add("global_"+t, map[string]int64{"R": 4}, n(600), n(257), n(1))
		add("global_"+t, map[string]int64{"S": 2}, n(600))
	}
	for _, t := range []string{"f32", "f64"} {
		add("reg_chain_"+t, map[string]int64{"K": 1}, map[string]int64{"n": 600, "nl": 7}, map[string]int64{"n": 1, "nl": 1})
		add("reg_chain_"+t, map[string]int64{"K": 8}, map[string]int64{"n": 257, "nl": 3})
	}
	for _, t := range []string{"i32", "i64"} {
		add("scalar_chain_"+t, nil, map[string]int64{"n": 600, "nl": 7, "c": 13}, map[string]int64{"n": 1, "nl": 1, "c": -5})
	}
	add("scalar_sum_f32", nil, map[string]int64{"n": 600, "nl": 7}, map[string]int64{"n": 1, "nl": 1})
	add("guarded_lanes_f32", map[string]int64{"K": 4}, map[string]int64{"n": 600, "nl": 7}, map[string]int64{"n": 1, "nl": 1})
	add("guarded_lanes_f32", map[string]int64{"LX": 64, "K": 16}, map[string]int64{"n": 1100, "nl": 3})
	add("local_stores", map[string]int64{"S": 4}, map[string]int64{"n": 512, "nr": 3}, map[string]int64{"n": 256, "nr": 1})
	add("local_stores", map[string]int64{"LX": 64, "S": 16}, map[string]int64{"n": 192, "nr": 2})
	add("local_tile", map[string]int64{"C": 4}, map[string]int64{"n": 512, "nr": 3}, map[string]int64{"n": 256, "nr": 1})
	add("local_tile", map[string]int64{"LX": 64, "C": 16}, map[string]int64{"n": 192, "nr": 2})
	add("local_atomic_i32", map[string]int64{"K": 32}, map[string]int64{"n": 512, "nr": 3}, map[string]int64{"n": 256, "nr": 1})
	add("local_context", map[string]int64{"S": 64}, map[string]int64{"n": 512, "nr": 3}, map[string]int64{"n": 256, "nr": 1})
	add("local_context", map[string]int64{"LX": 16, "S": 256}, map[string]int64{"n": 64, "nr": 2})
	add("local_atomic_i32", map[string]int64{"LX": 64, "K": 1}, map[string]int64{"n": 192, "nr": 2})
	add("uniform_store_u8", nil, n(600), n(257), n(1))
	for _, r := range []int64{1, 4} {
		add("global_ldg_f32", map[string]int64{"R": r}, n(600), n(257), n(1))
		add("global_ldg_i32", map[string]int64{"R": r}, n(600), n(257), n(1))
		add("gather_f32", map[string]int64{"R": r}, n(600), n(257), n(1))
		add("gather_i32", map[string]int64{"R": r}, n(600), n(257), n(1))
		add("scatter_f32", map[string]int64{"S": r}, n(600), n(257), n(1))
	}
	for _, k := range []int64{1, 32, 256} {
		add("atomic_add_i32", map[string]int64{"K": k}, n(600), n(1))
		add("atomic_add_f32", map[string]int64{"K": k}, n(600), n(1))
	}
	add("vector_sum", map[string]int64{"D": 2}, n(37))
	for _, t := range []string{"f32", "i32"} {
		for _, su := range [][2]int64{{2, 1}, {2, 2}, {3, 1}, {3, 3}, {3, 2}} {
			add("global_ldg_strided_"+t, map[string]int64{"STRIDE": su[0], "U": su[1]}, n(600), n(257), n(1))
		}
	}
	for _, st := range []int64{2, 3} {
		add("global_strided_i32", map[string]int64{"STRIDE": st}, n(1000), n(513), n(1))
		add("global_strided_i32", map[string]int64{"STRIDE": st, "R": 4}, n(1000), n(2))
		add("global_strided_i32", map[string]int64{"STRIDE": st, "S": 2}, n(1000), n(514))
	}
	for _, d := range []int64{2, 3} {
		add("vector_sum_i32", map[string]int64{"D": d}, n(600), n(257), n(1))
	}
	for _, k := range []string{"scaled_sum_i32", "scaled_sum_ldg", "scaled_sum_ldg_i32"} {
		add(k, map[string]int64{"K": 32}, n(600), n(257), n(1))
	}
	for _, k := range []string{"transpose_read_coalesced_i32", "transpose_write_coalesced_i32", "transpose_ldg_f32", "transpose_ldg_i32"} {
		add(k, nil, n(40), n(37), n(16), n(1))
	}
	for _, op := range []string{"add", "mul", "div", "pow", "rsqrt"} {
		for _, t := range []string{"f32", "f64"} {
			add("arith_"+op+"_"+t, nil, map[string]int64{"n": 37, "nk": 3}, map[string]int64{"n": 16, "nk": 1})
		}
	}
	return out
}

// countedKernels caches Count per kernel and constants: a kernel is
// counted once and evaluated at many parameters.
var countedKernels sync.Map

func countedLibraryKernel(t *testing.T, name string, consts map[string]int64) (*Kernel, *Counted) {
	t.Helper()
	src, err := library.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseKernel(library.FileName(name), src, consts)
	if err != nil {
		t.Fatal(err)
	}
	key := fmt.Sprint(name, consts)
	if c, ok := countedKernels.Load(key); ok {
		return k, c.(*Counted)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	countedKernels.Store(key, c)
	return k, c
}

// TestCountMatchesPlanAndRun evaluates the symbolic counts of every
// library kernel and compares them, property by property, with the
// counting plan evaluated by enumeration; at the sizes of countChecks it
// also compares the plan with the reference interpreter (the plan checks
// already do so at theirs), but for -short: make race runs it so, for
// counting's goroutines on every library kernel, and make test-long with
// the interpreter.
func TestCountMatchesPlanAndRun(t *testing.T) {
	covered := map[string]bool{}
	run := func(c planCheck, interpret bool) {
		covered[c.kernel] = true
		t.Run(fmt.Sprintf("%s/%v/%v", c.kernel, c.consts, c.params), func(t *testing.T) {
			k, counted := countedLibraryKernel(t, c.kernel, c.consts)
			got := checkCountAgainstPlan(t, k, counted, c.params)
			if interpret {
				compareProps(t, sumClasses(got), checkPlanAgainstRun(t, k, c.params))
			}
		})
	}
	for _, c := range planChecks() {
		run(c, false)
	}
	for _, c := range countChecks() {
		run(c, !testing.Short())
	}
	for _, name := range library.Names() {
		if !covered[name] {
			t.Errorf("library kernel %s is not checked", name)
		}
	}
}

// checkCountAgainstPlan compares Count's Eval, its Evaluator and the
// functions behind PropertiesAt with the plan evaluated by enumeration,
// and returns Eval's values.
func checkCountAgainstPlan(t *testing.T, k *Kernel, c *Counted, params map[string]int64) map[string]int64 {
	t.Helper()
	p, err := newPlan(k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := p.concrete(params, 1e9)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	compareProps(t, got, b.props)
	names := append([]string{"int.i64.pow"}, c.names...) // and one no kernel has
	ev, err := c.Compile(names)
	if err != nil {
		t.Fatal(err)
	}
	args, err := c.args(params)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(names))
	if err := ev.Eval(args, out); err != nil {
		t.Fatal(err)
	}
	for i, n := range names {
		if out[i] != float64(b.props[n]) {
			t.Errorf("evaluator: %s = %g, enumeration %d", n, out[i], b.props[n])
		}
	}
	fns, values, err := c.functionsAt(params)
	if err != nil {
		t.Fatal(err)
	}
	compareProps(t, values, b.props)
	for name, f := range fns {
		v, err := f.Eval(params)
		if err != nil {
			t.Fatal(err)
		}
		if !v.IsInt64() || v.Int64() != b.props[name] {
			t.Errorf("%s = %s at %v by its expression, enumeration %d", name, v, params, b.props[name])
		}
	}
	return got
}

// TestCountLarge evaluates at sizes far beyond enumeration, against
// counts derived by hand.
func TestCountLarge(t *testing.T) {
	// matmul_naive: one multiply and one add per (i, j, k); a[i, k] does
	// not depend on j (on l.0): uniform; b[k, j] stride 1; n^2 stores of
	// c; (n/16)^2 groups.
	_, naive := countedLibraryKernel(t, "matmul_naive", nil)
	const n = 4096
	got, err := naive.Eval(map[string]int64{"n": n})
	if err != nil {
		t.Fatal(err)
	}
	compareProps(t, got, map[string]int64{"flop.f32.mul": n * n * n, "flop.f32.add": n * n * n,
		"global.load.f32.stride=0": n * n * n, "global.load.f32.stride=1": n * n * n, "global.store.f32.stride=1": n * n,
		"global.minldst.f32.stride=1": n * n, "launch.groups": (n / 16) * (n / 16), "launch.const": 1})

	// matmul_tiled, n x m times m x ell with 16 x 16 groups and m not a
	// multiple of 16: each work-item (i, j) runs m multiplies and adds in
	// the reductions plus one add per k tile (ceil(m/16) of them) and
	// reads 2m tile elements. Each of the ell/16 group columns loads all
	// n x m elements of a into its tiles, each of the n/16 group rows all
	// m x ell elements of b. Two barriers per k tile for every launched
	// work-item.
	_, tiled := countedLibraryKernel(t, "matmul_tiled", nil)
	const ni, mi, li = 4096, 1000, 2048
	tiles := int64((mi + 15) / 16)
	got, err = tiled.Eval(map[string]int64{"n": ni, "m": mi, "ell": li})
	if err != nil {
		t.Fatal(err)
	}
	tileLoads := int64(ni*mi*(li/16) + mi*li*(ni/16))
	compareProps(t, got, map[string]int64{"flop.f32.mul": ni * mi * li, "flop.f32.add": ni*mi*li + ni*li*tiles,
		"global.load.f32.stride=1": tileLoads, "local.store.f32": tileLoads, "local.load.f32": 2 * ni * mi * li,
		"global.store.f32.stride=1": ni * li, "global.minldst.f32.stride=1": ni * li, "sync.barrier": 2 * tiles * ni * li,
		"launch.groups": (ni / 16) * (li / 16), "launch.const": 1})

	// gather_i32 and scatter_f32 at n = 2^23 + 1, R = S = 4: per element
	// R index loads of perm (stride 1, i32), and either R i32 loads of x
	// at subscripts read from perm, R additions (the sum from zero) and
	// one stride-1 store of y, whose i32 minimum with the index loads is
	// n; or one stride-1 load of x and S f32 stores at subscripts read
	// from perm. ceil(n/256) groups.
	const ng = 1<<23 + 1
	groups := int64((ng + 255) / 256)
	for _, c := range []struct {
		kernel string
		consts map[string]int64
		want   map[string]int64
	}{
		{"gather_i32", map[string]int64{"R": 4}, map[string]int64{"global.load.i32.stride=1": 4 * ng, "global.load.indirect.i32": 4 * ng,
			"int.i32.add": 4 * ng, "global.store.i32.stride=1": ng, "global.minldst.i32.stride=1": ng}},
		{"scatter_f32", map[string]int64{"S": 4}, map[string]int64{"global.load.i32.stride=1": 4 * ng, "global.load.f32.stride=1": ng,
			"global.store.indirect.f32": 4 * ng}},
	} {
		_, counted := countedLibraryKernel(t, c.kernel, c.consts)
		got, err := counted.Eval(map[string]int64{"n": ng})
		if err != nil {
			t.Fatal(err)
		}
		c.want["launch.groups"], c.want["launch.const"] = groups, 1
		compareProps(t, got, c.want)
	}

	// The session-13 classes at the same n = 2^23 + 1 = 3·2796203, by
	// hand. global_strided_i32: m = ceil(n/STRIDE) work-items (4194305 at
	// stride 2, 2796203 at 3), each R loads and S stores one of every
	// STRIDE elements apart (class 1/STRIDE: the rows of a and b each
	// hold m used cells in a box of STRIDE·(m-1) + 1), min(R, S)·m their
	// minimum, R - 1 additions; ceil(m/256) groups. vector_sum_i32 (D =
	// 3): 3n loads filling x (class 3/3), 2n additions, n stride-1 stores
	// and no minimum (no stride-1 i32 load). scaled_sum_i32 and
	// scaled_sum_ldg (K = 512): 512n uniform loads of w (an i32 load, or
	// an f32 ldg load of the readonly w), 512n additions and n
	// multiplications, one stride-1 load of a and one store. The
	// transposes at n = 5000: n^2 stride-1 i32 accesses on one side and
	// n^2 of class 4/>4 (stride n, every element used) on the other,
	// ceil(n/16)^2 groups.
	const m2, m3 = 1<<22 + 1, ng / 3
	for _, c := range []struct {
		kernel string
		consts map[string]int64
		want   map[string]int64
	}{
		{"global_strided_i32", map[string]int64{"STRIDE": 2}, map[string]int64{"global.load.i32.stride=1/2": m2, "global.store.i32.stride=1/2": m2,
			"global.minldst.i32.stride=1/2": m2, "launch.groups": (m2 + 255) / 256}},
		{"global_strided_i32", map[string]int64{"STRIDE": 3, "R": 4, "S": 2}, map[string]int64{"global.load.i32.stride=1/3": 4 * m3,
			"global.store.i32.stride=1/3": 2 * m3, "global.minldst.i32.stride=1/3": 2 * m3, "int.i32.add": 3 * m3, "launch.groups": (m3 + 255) / 256}},
		{"vector_sum_i32", nil, map[string]int64{"global.load.i32.stride=3/3": 3 * ng, "int.i32.add": 2 * ng,
			"global.store.i32.stride=1": ng, "launch.groups": groups}},
		{"scaled_sum_i32", map[string]int64{"K": 512}, map[string]int64{"global.load.i32.stride=0": 512 * ng, "global.load.i32.stride=1": ng,
			"global.store.i32.stride=1": ng, "global.minldst.i32.stride=1": ng, "int.i32.add": 512 * ng, "int.i32.mul": ng, "launch.groups": groups}},
		{"scaled_sum_ldg", map[string]int64{"K": 512}, map[string]int64{"global.ldg.f32.stride=0": 512 * ng, "global.load.f32.stride=1": ng,
			"global.store.f32.stride=1": ng, "global.minldst.f32.stride=1": ng, "flop.f32.add": 512 * ng, "flop.f32.mul": ng, "launch.groups": groups}},
	} {
		_, counted := countedLibraryKernel(t, c.kernel, c.consts)
		got, err := counted.Eval(map[string]int64{"n": ng})
		if err != nil {
			t.Fatal(err)
		}
		c.want["launch.const"] = 1
		compareProps(t, got, c.want)
	}
	const nt = 5000
	for kernel, want := range map[string]map[string]int64{
		"transpose_read_coalesced_i32":  {"global.load.i32.stride=1": nt * nt, "global.store.i32.stride=4/>4": nt * nt},
		"transpose_write_coalesced_i32": {"global.load.i32.stride=4/>4": nt * nt, "global.store.i32.stride=1": nt * nt},
	} {
		_, counted := countedLibraryKernel(t, kernel, nil)
		got, err := counted.Eval(map[string]int64{"n": nt})
		if err != nil {
			t.Fatal(err)
		}
		want["launch.groups"], want["launch.const"] = (nt+15)/16*((nt+15)/16), 1
		compareProps(t, got, want)
	}
}

// TestCountErrors checks overflow, assumptions and parameter names.
func TestCountErrors(t *testing.T) {
	_, naive := countedLibraryKernel(t, "matmul_naive", nil)
	// n^3 overflows int64 beyond n = 2097151.
	if _, err := naive.Eval(map[string]int64{"n": 2097151}); err != nil {
		t.Errorf("n = 2097151: %v", err)
	}
	ev, err := naive.Compile([]string{"flop.f32.mul", "launch.groups"})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 2)
	for _, n := range []int64{2097152, 1 << 40, 1 << 62} {
		_, err := naive.Eval(map[string]int64{"n": n})
		if err == nil || !strings.Contains(err.Error(), "overflow") && !strings.Contains(err.Error(), "64 bits") {
			t.Errorf("n = %d: error %v, want an overflow", n, err)
		}
		if err := ev.Eval([]int64{n}, out); err == nil {
			t.Errorf("evaluator at n = %d: no error", n)
		}
	}
	_, tiled := countedLibraryKernel(t, "matmul_tiled", nil)
	cases := []struct {
		params map[string]int64
		msg    string
	}{
		{map[string]int64{"n": 4, "m": 4}, "missing parameter ell"},
		{map[string]int64{"n": 4, "m": 4, "ell": 4, "k": 1}, "unknown parameter k"},
		{map[string]int64{"n": 0, "m": 4, "ell": 4}, "violate the assumptions n >= 1"},
	}
	for _, c := range cases {
		if _, err := tiled.Eval(c.params); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: error %v, want %q", c.params, err, c.msg)
		}
	}
	if _, err := tiled.Compile([]string{"flop.f32.addd"}); err == nil || !strings.Contains(err.Error(), `unknown property "flop.f32.addd"`) {
		t.Errorf("misspelt property: %v", err)
	}
	ev, err = tiled.Compile([]string{"flop.f32.add"})
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.Eval([]int64{4, 4}, out[:1]); err == nil || !strings.Contains(err.Error(), "2 parameter values for 3") {
		t.Errorf("too few parameters: %v", err)
	}
	if err := ev.Eval([]int64{4, 4, 4}, out); err == nil || !strings.Contains(err.Error(), "2 outputs for 1") {
		t.Errorf("too many outputs: %v", err)
	}
	if err := ev.Eval([]int64{4, -1, 4}, out[:1]); err == nil || !strings.Contains(err.Error(), "m=-1") {
		t.Errorf("assumption: %v", err)
	}
}

// TestSpanUnionFallback checks that the union of spans, which counts the
// launch size of an axis should the maximum of the extents fail, gives
// the same sizes as the maximum, for every axis with several inames.
func TestSpanUnionFallback(t *testing.T) {
	checked := 0
	for _, name := range []string{"matmul_tiled", "finite_diff", "transpose_prefetch"} {
		src, _ := library.Source(name)
		k, err := ParseKernel(name+".knl", src, nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := newPlan(k, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for kind := range 2 {
			for a := range 3 {
				f, ok := p.axisSize(kind, a)
				if !ok || len(f) < 2 {
					continue
				}
				r := p.startMax(f)
				<-r.done
				m, err := r.n, r.err
				if err != nil {
					t.Fatal(err)
				}
				span, err := countSet(p.texts[p.spanUnion(f)], polyhedra.Limits{})
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(3, uint64(a)))
				for range 40 {
					params := map[string]int64{}
					for _, q := range k.Params {
						params[q] = 1 + rng.Int64N(70)
					}
					params["n"] = max(params["n"], 3)
					x, err1 := m.Eval(params)
					y, err2 := span.Eval(params)
					if err := errors.Join(err1, err2); err != nil {
						t.Fatal(err)
					}
					if x.Cmp(y) != 0 {
						t.Errorf("%s axis %d/%d at %v: maximum %s, span union %s", name, kind, a, params, x, y)
					}
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Error("no axis with several inames")
	}
}

// TestCountSuiteConfigurations counts every kernel of the paper suite in
// every configuration the suite measures (work-group sizes, strides) and
// compares the counts with the plan evaluated by enumeration at a size
// that no work-group size divides (local_bank, local_int and
// local_stores, which assume one that their work-group size divides, at
// three groups; local_stores at three rounds).
// Under -short it takes each kernel's variants at its smallest and its
// largest work-group size only: at n = 37, a prime, every size leaves a
// partial last group on each axis, so the sizes between cut the same
// kinds of pieces; local_bank, local_int, local_stores and
// local_atomic_i32 keep their full groups.
func TestCountSuiteConfigurations(t *testing.T) {
	s, err := suite.Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, sk := range s.Kernels {
		var groups [][]int64
		for _, sizes := range slices.Sorted(maps.Keys(s.GroupSets)) {
			groups = append(groups, s.GroupSets[sizes][sk.Groups]...)
		}
		if testing.Short() {
			groups = extremeGroups(groups)
		}
		for _, gs := range groups {
			for _, v := range sk.Variants {
				consts := map[string]int64{}
				maps.Copy(consts, sk.Consts)
				maps.Copy(consts, v.Consts)
				for i, g := range gs {
					consts[s.GroupConsts[i]] = g
				}
				key := fmt.Sprint(sk.Kernel, consts)
				if seen[key] {
					continue
				}
				seen[key] = true
				t.Run(key, func(t *testing.T) {
					k, c := countedLibraryKernel(t, sk.Kernel, consts)
					n := int64(37)
					if slices.Contains([]string{"local_bank", "local_int_i32", "local_int_i64", "local_stores", "local_atomic_i32"}, sk.Kernel) {
						n = 3 * consts["LX"] // they assume n a multiple of LX
					}
					params := map[string]int64{}
					for _, p := range k.Params {
						params[p] = n
					}
					if sk.Kernel == "local_stores" || sk.Kernel == "local_atomic_i32" {
						params["nr"] = 3 // rounds, not a size: 3 LX of them would only slow the enumeration
					}
					checkCountAgainstPlan(t, k, c, params)
				})
			}
		}
	}
}

// extremeGroups returns the first work-group size of groups with the
// fewest work-items and the first with the most.
func extremeGroups(groups [][]int64) [][]int64 {
	if len(groups) == 0 {
		return nil
	}
	items := func(gs []int64) int64 {
		v := int64(1)
		for _, g := range gs {
			v *= g
		}
		return v
	}
	lo, hi := groups[0], groups[0]
	for _, gs := range groups[1:] {
		if items(gs) < items(lo) {
			lo = gs
		}
		if items(gs) > items(hi) {
			hi = gs
		}
	}
	if slices.Equal(lo, hi) {
		return [][]int64{lo}
	}
	return [][]int64{lo, hi}
}
