package codegen_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
	"github.com/uniperf/uniperf/measurekernels/library"
)

type consts = map[string]int64
type params = map[string]int64

// Work-group sizes: 2-D kernels with LX = 16 and LY = 12 (tiles that
// divide nothing below, and a prefetch narrower than its axis) and square
// 16 x 16 ones; 1-D kernels with 16 and 64 work-items.
var (
	groups2D = []consts{{"LX": 16, "LY": 12}, {"LX": 16, "LY": 16}}
	groups1D = []consts{{"LX": 16}, {"LX": 64}}
)

// libraryCase is how one library kernel is checked: at every const
// setting, at every parameter set.
type libraryCase struct {
	consts []consts
	params []params
}

// with adds const settings to a case.
func (c libraryCase) with(more ...consts) libraryCase {
	return libraryCase{append(slices.Clone(c.consts), more...), c.params}
}

// libraryCases holds every kernel of the library. The sizes are small, so
// that the reference interpreter stays quick, and include sizes that 16
// and 12 do not divide (37, 40), sizes below one tile, and the smallest
// sizes the assumptions allow, where loops run once or not at all.
var libraryCases = map[string]libraryCase{
	"arith":       {groups2D, []params{{"n": 37, "nk": 5}, {"n": 40, "nk": 1}, {"n": 1, "nk": 3}}},
	"convolution": libraryCase{groups2D, []params{{"n": 21}, {"n": 1}}}.with(consts{"LX": 5, "LY": 3}),
	"empty":       {groups2D, []params{{"n": 37}}},
	"empty_1d":    {groups1D, []params{{"n": 1000}, {"n": 1}}},
	// One group, a few, and a chain or stream of length one.
	"grid_fill_chain":  {groups1D, []params{{"ng": 3, "nk": 5}, {"ng": 1, "nk": 1}}},
	"grid_fill_stream": {groups1D, []params{{"ng": 3, "nk": 5}, {"ng": 2, "nk": 1}}},
	// Of the M = 32 elements of t, LX = 64 stores one with each of the
	// first 32 work-items and none with the rest, LX = 16 two and LX = 8
	// (a warp narrower than 32) four with each work-item; nr = 2 runs the
	// unrolled loop over t twice.
	"grid_fill_local": libraryCase{groups1D, []params{{"ng": 3, "nr": 2}, {"ng": 1, "nr": 1}}}.with(consts{"LX": 8}),
	// LY = 1: three passes over the halo rows.
	"finite_diff":        libraryCase{groups2D, []params{{"n": 40}, {"n": 37}, {"n": 3}, {"n": 14}, {"n": 18}}}.with(consts{"LX": 3, "LY": 1}),
	"global_add4":        {groups1D, []params{{"n": 1000}, {"n": 37}, {"n": 1}}},
	"global_copy":        {groups1D, []params{{"n": 1000}, {"n": 37}, {"n": 1}}},
	"global_store_index": {groups1D, []params{{"n": 1000}, {"n": 37}, {"n": 1}}},
	"matmul_naive":       {groups2D, []params{{"n": 40}, {"n": 37}, {"n": 1}}},
	"matmul_skinny":      {groups2D, []params{{"n": 37, "m": 40}, {"n": 5, "m": 70}, {"n": 1, "m": 1}}},
	// LX < LY: the prefetch of a widens the work-group beyond j_in.
	"matmul_tiled":   libraryCase{groups2D, []params{{"n": 40, "m": 37, "ell": 20}, {"n": 17, "m": 1, "ell": 33}, {"n": 1, "m": 25, "ell": 1}}}.with(consts{"LX": 8, "LY": 12}),
	"nbody":          libraryCase{groups1D, []params{{"n": 150}, {"n": 37}, {"n": 2}, {"n": 1}}}.with(consts{"LX": 7}),
	"stride2_filled": {groups1D, []params{{"n": 300}, {"n": 37}, {"n": 1}}},
	"stride3_filled": {groups1D, []params{{"n": 300}, {"n": 37}, {"n": 1}}},
	// LY = 5: four passes over the tile's 16 rows.
	"transpose_prefetch":       libraryCase{groups2D, []params{{"n": 40}, {"n": 37}, {"n": 13}, {"n": 1}}}.with(consts{"LX": 16, "LY": 5}),
	"transpose_read_coalesced": {groups2D, []params{{"n": 40}, {"n": 37}, {"n": 1}}},
	// n a multiple of LX, as local_bank assumes, and R <= LX.
	"local_bank": {
		[]consts{{"LX": 64, "S": 2}, {"LX": 32, "S": 32}, {"LX": 16, "R": 8, "S": 4}},
		[]params{{"n": 128}, {"n": 64}},
	},
	"transpose_write_coalesced": {groups2D, []params{{"n": 40}, {"n": 37}, {"n": 1}}},
	// perm's rows are permutations (launch fills index arrays so).
	"gather_f32": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"gather_i32": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	// perm is a permutation (launch fills index arrays so): no two
	// stores go to one cell.
	"scatter_f32": {
		[]consts{{"LX": 16, "S": 1}, {"LX": 64, "S": 4}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"atomic_add_i32": {
		[]consts{{"LX": 16, "K": 1}, {"LX": 64, "K": 32}, {"LX": 256, "K": 256}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"atomic_add_f32": {
		[]consts{{"LX": 16, "K": 4}, {"LX": 256, "K": 256}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"global_int_i32": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}, {"LX": 32, "S": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"global_int_i64": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}, {"LX": 32, "S": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"global_int_u8": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}, {"LX": 32, "S": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"global_int_u16": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}, {"LX": 32, "S": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"global_f16": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}, {"LX": 32, "S": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	// One chain and eight, with nl = 1 a chain of one step.
	"reg_chain_f32": {
		[]consts{{"LX": 16, "K": 1}, {"LX": 64, "K": 8}},
		[]params{{"n": 1000, "nl": 5}, {"n": 37, "nl": 1}, {"n": 1, "nl": 3}},
	},
	"reg_chain_f64": {
		[]consts{{"LX": 16, "K": 2}, {"LX": 64, "K": 4}},
		[]params{{"n": 1000, "nl": 5}, {"n": 37, "nl": 1}, {"n": 1, "nl": 3}},
	},
	// One chain of nl steps, of one step, and a c whose mask and start
	// come from a negative number.
	"scalar_chain_i32": {
		[]consts{{"LX": 16}, {"LX": 64}},
		[]params{{"n": 1000, "nl": 5, "c": 13}, {"n": 37, "nl": 1, "c": -3}, {"n": 1, "nl": 3, "c": 0}},
	},
	"scalar_chain_i64": {
		[]consts{{"LX": 16}, {"LX": 64}},
		[]params{{"n": 1000, "nl": 5, "c": 13}, {"n": 37, "nl": 1, "c": -3}, {"n": 1, "nl": 3, "c": 0}},
	},
	"scalar_sum_f32": {
		[]consts{{"LX": 16}, {"LX": 64}},
		[]params{{"n": 1000, "nl": 5}, {"n": 37, "nl": 1}, {"n": 1, "nl": 3}},
	},
	// one sum a work-item, four and sixteen; n below, at and past a
	// multiple of K*LX, so that the last group's work-items keep fewer
	// sums than K, some none.
	"guarded_lanes_f32": {
		[]consts{{"LX": 16, "K": 1}, {"LX": 16, "K": 4}, {"LX": 8, "K": 16}},
		[]params{{"n": 1000, "nl": 5}, {"n": 37, "nl": 1}, {"n": 128, "nl": 3}},
	},
	// n a multiple of LX, as local_stores assumes; an odd and an even
	// count of rounds leave the mirror image read or not.
	"local_stores": {
		[]consts{{"LX": 16, "S": 1}, {"LX": 64, "S": 4}, {"LX": 32, "S": 16}},
		[]params{{"n": 128, "nr": 3}, {"n": 64, "nr": 2}, {"n": 64, "nr": 1}},
	},
	// n a multiple of LX, as local_tile assumes; a tile of one row, of
	// several, and padded.
	"local_tile": {
		[]consts{{"LX": 16, "C": 1}, {"LX": 64, "C": 5}, {"LX": 32, "C": 3, "PAD": 16}},
		[]params{{"n": 128, "nr": 3}, {"n": 64, "nr": 1}},
	},
	// n a multiple of LX, as local_context assumes; S below, at and
	// above LX (its cells read round the local array more than once),
	// and n < S + LX so that the guard i + s < n stops some additions.
	"local_context": {
		[]consts{{"LX": 16, "S": 4}, {"LX": 16, "S": 16}, {"LX": 64, "S": 100}},
		[]params{{"n": 128, "nr": 3}, {"n": 64, "nr": 1}},
	},
	"uniform_store_u8": {groups1D, []params{{"n": 1000}, {"n": 37}, {"n": 1}}},
	// n a multiple of LX, as local_atomic_i32 assumes; K = 1 every cell
	// its own, K = 4 and 64 shared, and cells above LX/K left at 0.
	"local_atomic_i32": {
		[]consts{{"LX": 16, "K": 1}, {"LX": 64, "K": 4}, {"LX": 64, "K": 64}},
		[]params{{"n": 128, "nr": 3}, {"n": 64, "nr": 2}, {"n": 64, "nr": 1}},
	},
	"global_ldg_f32": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"global_ldg_i32": {
		[]consts{{"LX": 16, "R": 1}, {"LX": 64, "R": 4}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	// Every class the suite measures, and 2/3, which it does not.
	"global_ldg_strided_f32": {
		[]consts{{"LX": 16, "STRIDE": 2, "U": 1}, {"LX": 64, "STRIDE": 2, "U": 2}, {"LX": 16, "STRIDE": 3, "U": 1}, {"LX": 64, "STRIDE": 3, "U": 3}, {"LX": 32, "STRIDE": 3, "U": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"global_ldg_strided_i32": {
		[]consts{{"LX": 16, "STRIDE": 2, "U": 1}, {"LX": 64, "STRIDE": 2, "U": 2}, {"LX": 16, "STRIDE": 3, "U": 1}, {"LX": 64, "STRIDE": 3, "U": 3}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	// n a multiple of LX, as local_int assumes, and R <= LX.
	"local_int_i32": {
		[]consts{{"LX": 64}, {"LX": 16, "R": 8}},
		[]params{{"n": 128}, {"n": 64}},
	},
	"local_int_i64": {
		[]consts{{"LX": 64}, {"LX": 16, "R": 8}},
		[]params{{"n": 128}, {"n": 64}},
	},
	// Both strides, with 4 loads and with 2 stores a work-item; n = 2
	// and 1 leave one work-item.
	"global_strided_i32": {
		[]consts{{"LX": 16, "STRIDE": 2}, {"LX": 64, "STRIDE": 3, "R": 4}, {"LX": 32, "STRIDE": 2, "S": 2}, {"LX": 16, "STRIDE": 3, "S": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}, {"n": 2}},
	},
	"vector_sum_i32": {
		[]consts{{"LX": 16, "D": 2}, {"LX": 64, "D": 3}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"scaled_sum_i32": {
		[]consts{{"LX": 16, "K": 7}, {"LX": 64, "K": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"scaled_sum_ldg": {
		[]consts{{"LX": 16, "K": 7}, {"LX": 64, "K": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"scaled_sum_ldg_i32": {
		[]consts{{"LX": 16, "K": 7}, {"LX": 64, "K": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"transpose_read_coalesced_i32":  {groups2D, []params{{"n": 40}, {"n": 37}, {"n": 1}}},
	"transpose_write_coalesced_i32": {groups2D, []params{{"n": 40}, {"n": 37}, {"n": 1}}},
	"transpose_ldg_f32":             {groups2D, []params{{"n": 40}, {"n": 37}, {"n": 1}}},
	"transpose_ldg_i32":             {groups2D, []params{{"n": 40}, {"n": 37}, {"n": 1}}},
	"global_copy_strided": {
		[]consts{{"LX": 16, "STRIDE": 2}, {"LX": 64, "STRIDE": 3}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}, {"n": 2}},
	},
	"global_store_strided": {
		[]consts{{"LX": 16, "STRIDE": 2}, {"LX": 64, "STRIDE": 3}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}, {"n": 2}},
	},
	"sumsq": {
		[]consts{{"LX": 16, "D": 2}, {"LX": 64, "D": 3}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"inv_norm": {
		[]consts{{"LX": 16, "D": 3}, {"LX": 64, "D": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"scaled_sum": {
		[]consts{{"LX": 16, "K": 7}, {"LX": 64, "K": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"arith_mix": {groups2D, []params{{"n": 37, "na": 5, "nb": 2, "nc": 3, "nd": 4}, {"n": 1, "na": 1, "nb": 1, "nc": 1, "nd": 1}}},
	// c < 0 and c > 15: m = c & 15 either way.
	"arith_int": {groups2D, []params{{"n": 37, "na": 3, "nb": 2, "nc": 4, "nd": 1, "ne": 2, "c": 13},
		{"n": 1, "na": 1, "nb": 1, "nc": 1, "nd": 1, "ne": 1, "c": -3}, {"n": 20, "na": 2, "nb": 5, "nc": 1, "nd": 2, "ne": 3, "c": 1000}}},
	"arith_intspecial": {groups2D, []params{{"n": 37, "ns": 3, "c": 13}, {"n": 1, "ns": 1, "c": -3}, {"n": 20, "ns": 5, "c": 1000}}},
	"fan_out": {
		[]consts{{"LX": 16, "S": 3}, {"LX": 64, "S": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"fan_in": {
		[]consts{{"LX": 16, "S": 4}, {"LX": 64, "S": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	// The memory-hierarchy classes: a window wider than one work-item,
	// a buffer every group re-reads, one read once, and a sum kept in
	// global memory.
	"reuse_group": {
		[]consts{{"LX": 16, "K": 5}, {"LX": 64, "K": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"reread_l2":   {groups1D, []params{{"n": 1000, "nr": 3}, {"n": 37, "nr": 1}, {"n": 1, "nr": 2}}},
	"reread_dram": {groups1D, []params{{"n": 1000, "nr": 3}, {"n": 37, "nr": 1}, {"n": 1, "nr": 2}}},
	// column_walk at a pitch wider than its n columns, and at p = n.
	"column_walk": {groups1D, []params{{"n": 1000, "nr": 3, "p": 1040}, {"n": 37, "nr": 1, "p": 37}, {"n": 1, "nr": 2, "p": 5}}},
	// core_fill at one group and at several.
	"core_fill":         {groups1D, []params{{"ng": 1, "nk": 3}, {"ng": 3, "nk": 1}, {"ng": 2, "nk": 37}}},
	"accumulate_global": {groups1D, []params{{"n": 1000, "nk": 3}, {"n": 37, "nk": 1}, {"n": 1, "nk": 2}}},
	"matvec_t":          {groups1D, []params{{"m": 37, "n": 1000}, {"m": 1, "n": 37}, {"m": 5, "n": 1}}},
	"matvec_t_unrolled": {
		[]consts{{"LX": 16, "M": 37}, {"LX": 64, "M": 1}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"vector_sum": {
		[]consts{{"LX": 16, "D": 3}, {"LX": 64, "D": 2}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}},
	},
	"vector_scale_add": {
		[]consts{{"LX": 16, "STRIDE": 1}, {"LX": 64, "STRIDE": 2}, {"LX": 16, "STRIDE": 3}},
		[]params{{"n": 1000}, {"n": 37}, {"n": 1}, {"n": 2}},
	},
}

func caseOf(name string) (libraryCase, bool) {
	switch {
	case strings.HasPrefix(name, "arith_mix_"):
		name = "arith_mix"
	case strings.HasPrefix(name, "arith_int_"):
		name = "arith_int"
	case strings.HasPrefix(name, "arith_intspecial_"):
		name = "arith_intspecial"
	case strings.HasPrefix(name, "arith_"):
		name = "arith"
	}
	c, ok := libraryCases[name]
	return c, ok
}

func constString(c consts) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, c[k]))
	}
	return strings.Join(parts, ",")
}

// Every library kernel, generated as OpenCL C and built on PoCL, computes
// what the reference interpreter computes, at every work-group size and
// parameter set of its case.
func TestLibraryOnPoCL(t *testing.T) {
	dev := pocltest.Open(t)
	checkLibrary(t, dev)
}

// checkLibrary checks every library kernel on dev at each const binding
// and parameter set of its case.
func checkLibrary(t *testing.T, dev gpu.Device) {
	for _, name := range library.Names() {
		c, ok := caseOf(name)
		if !ok {
			t.Errorf("library kernel %s has no test case", name)
			continue
		}
		for _, cs := range c.consts {
			t.Run(name+"/"+constString(cs), func(t *testing.T) {
				checkCase(t, dev, parse(t, name, cs), c.params)
			})
		}
	}
}

// Every library kernel, generated as CUDA C and built with NVRTC, computes
// what the reference interpreter computes, on a machine with an NVIDIA
// driver. CI has none; the test then stops at the driver's absence, whose
// message TestLoadOrRun in package cuda checks.
func TestLibraryOnCUDA(t *testing.T) {
	dev, err := devices.Open("cuda")
	if err != nil {
		t.Skipf("no CUDA device on this machine: %v", err)
	}
	defer dev.Close()
	checkLibrary(t, dev)
}

// checkCase generates k in dev's language (OpenCL C or CUDA C), builds it
// on dev and compares its results with the reference interpreter's at
// every parameter set.
func checkCase(t *testing.T, dev gpu.Device, k *counts.Kernel, params []params) {
	t.Helper()
	code, err := codegen.Generate(k, dev.Info().Backend)
	if err != nil {
		t.Fatal(err)
	}
	lk := pocltest.Build(t, dev, k, code)
	for _, p := range params {
		if err := lk.Check(p); err != nil {
			t.Errorf("%v\n%s", err, code.Source)
		}
	}
}

// The CUDA C sources use CUDA's forms and none of OpenCL's (cuda_test.go
// compiles them).
func TestLibraryCUDAForms(t *testing.T) {
	for _, name := range library.Names() {
		k := parse(t, name, nil)
		code, err := codegen.Generate(k, gpu.CUDA)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		src := code.Source
		want := []string{`extern "C" __global__ void ` + name + "(", "blockIdx.", "threadIdx."}
		if hasLocal(k) {
			want = append(want, "__shared__ ", "__syncthreads();")
		}
		for _, w := range want {
			if !strings.Contains(src, w) {
				t.Errorf("%s: CUDA source lacks %q:\n%s", name, w, src)
			}
		}
		for _, bad := range []string{"__kernel", "__local", "__global float", "get_group_id", "get_local_id", "barrier(", "CLK_"} {
			if strings.Contains(src, bad) {
				t.Errorf("%s: CUDA source has the OpenCL form %q:\n%s", name, bad, src)
			}
		}
	}
}

func hasLocal(k *counts.Kernel) bool {
	return slices.ContainsFunc(k.Arrays, func(a *counts.Array) bool { return a.Space == counts.Local })
}

// The library check notices a loop bound that is off by one: the tiled
// matmul with its reduction over each tile cut one short.
func TestLibraryCheckCatchesAnOffByOne(t *testing.T) {
	k := parse(t, "matmul_tiled", consts{"LX": 16, "LY": 12})
	code, err := codegen.Generate(k, gpu.OpenCL)
	if err != nil {
		t.Fatal(err)
	}
	const bound, short = "k_in <= imin(11, ", "k_in <= imin(10, "
	if !strings.Contains(code.Source, bound) {
		t.Fatalf("the reduction loop has no bound %q:\n%s", bound, code.Source)
	}
	code.Source = strings.Replace(code.Source, bound, short, 1)
	dev := pocltest.Open(t)
	lk, err := launch.Build(dev, k, code)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Close()
	err = lk.Check(params{"n": 40, "m": 37, "ell": 20})
	if err == nil || !strings.Contains(err.Error(), "array c:") {
		t.Errorf("got %v, want the wrong elements of c reported", err)
	}
}
