package counts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// hierarchyCase is a kernel (a library kernel, or a file of examples/) at
// several parameter points.
type hierarchyCase struct {
	kernel string
	consts map[string]int64
	params []map[string]int64
}

var hierarchyCases = []hierarchyCase{
	{"finite_diff", nil, []map[string]int64{{"n": 37}, {"n": 40}, {"n": 16}}},
	{"testdata/lang/block256.knl", nil, []map[string]int64{{"n": 100}, {"n": 300}}},
	{"testdata/lang/box16.knl", nil, []map[string]int64{{"w": 32, "h": 20}, {"w": 16, "h": 5}}}, // rows of whole 64-byte lines
	{"testdata/hierarchy/stencil.knl", nil, []map[string]int64{{"n": 37}, {"n": 16}}},
	{"testdata/hierarchy/redundant.knl", nil, []map[string]int64{{"n": 21}, {"n": 8}}},
	{"testdata/hierarchy/pitches.knl", nil, []map[string]int64{{"n": 7, "m": 5}, {"n": 12, "m": 3}, {"n": 1, "m": 1}}},
	{"covariance3.knl", nil, []map[string]int64{{"m": 37, "n": 5}, {"m": 300, "n": 2}}},
	{"gemm.knl", nil, []map[string]int64{{"ni": 9, "nj": 33, "nk": 5}, {"ni": 16, "nj": 64, "nk": 3}, {"ni": 1, "nj": 1, "nk": 1}}},
	{"atax1.knl", nil, []map[string]int64{{"nx": 37, "ny": 11}, {"nx": 64, "ny": 4}}},
	{"atax2.knl", nil, []map[string]int64{{"nx": 13, "ny": 70}}},
	{"bicg.knl", nil, []map[string]int64{{"nx": 21, "ny": 40}}},
	{"transpose.knl", nil, []map[string]int64{{"width": 48, "height": 16}, {"width": 32, "height": 32}}},
	{"jacobi2d.knl", nil, []map[string]int64{{"n": 19}, {"n": 34}}},
	{"syrk.knl", nil, []map[string]int64{{"ni": 13, "nj": 6}}},
	{"reduction.knl", nil, []map[string]int64{{"n": 1000}}},
	{"matmul_tiled", nil, []map[string]int64{{"n": 20, "m": 37, "ell": 18}, {"n": 16, "m": 16, "ell": 16}}},
	{"matmul_naive", nil, []map[string]int64{{"n": 21}}},
	{"transpose_prefetch", nil, []map[string]int64{{"n": 35}}},
	{"convolution", nil, []map[string]int64{{"n": 23}}},
	{"matvec_t_unrolled", nil, []map[string]int64{{"n": 45}}},
	{"reuse_group", map[string]int64{"LX": 8, "K": 5}, []map[string]int64{{"n": 21}, {"n": 16}}},
	{"reread_l2", map[string]int64{"LX": 8}, []map[string]int64{{"n": 21, "nr": 3}, {"n": 5, "nr": 2}}},
	{"reread_dram", map[string]int64{"LX": 8}, []map[string]int64{{"n": 21, "nr": 3}}},
	{"column_walk", map[string]int64{"LX": 8}, []map[string]int64{{"n": 21, "nr": 3, "p": 40}}},
	{"accumulate_global", map[string]int64{"LX": 8}, []map[string]int64{{"n": 21, "nk": 4}}},
	// Flattened subscripts whose pitch is not a chain of parameters, and
	// sum_floats, whose union is past the symbolic counter's budget:
	// counted at the sizes given (HierarchyAt's AtSizes), but for the
	// bpnn kernels' hid + 1 and convolution_naive's w + FW - 1, affine
	// factors of their extents, which split symbolically.
	{"adi4.knl", nil, []map[string]int64{{"n": 300, "i1": 5}, {"n": 37, "i1": 36}}},
	{"adi6.knl", nil, []map[string]int64{{"n": 300, "i1": 5}, {"n": 37, "i1": 0}}},
	{"bpnn_adjust_weights.knl", nil, []map[string]int64{{"nb": 3, "hid": 16}, {"nb": 1, "hid": 16}}},
	{"bpnn_layerforward.knl", nil, []map[string]int64{{"nb": 3, "hid": 16}, {"nb": 1, "hid": 16}}},
	{"conv3d.knl", nil, []map[string]int64{{"ni": 5, "nj": 11, "nk": 37, "i": 2}, {"ni": 3, "nj": 9, "nk": 40, "i": 1}}},
	{"convolution_kernel.knl", nil, []map[string]int64{{"h": 32, "w": 48}, {"h": 16, "w": 16}}},
	{"convolution_naive.knl", nil, []map[string]int64{{"h": 37, "w": 45}, {"h": 16, "w": 20}}},
	{"doitgen1.knl", nil, []map[string]int64{{"nr": 3, "nq": 11, "np": 37, "r": 1}, {"nr": 2, "nq": 5, "np": 16, "r": 0}}},
	{"doitgen2.knl", nil, []map[string]int64{{"nr": 3, "nq": 11, "np": 37, "r": 1}, {"nr": 2, "nq": 5, "np": 16, "r": 0}}},
	{"gramschmidt1.knl", nil, []map[string]int64{{"ni": 300, "nj": 7, "k": 3}, {"ni": 20, "nj": 5, "k": 0}}},
	{"gramschmidt2.knl", nil, []map[string]int64{{"ni": 300, "nj": 7, "k": 3}, {"ni": 20, "nj": 5, "k": 0}}},
	{"gramschmidt3.knl", nil, []map[string]int64{{"ni": 13, "nj": 300, "k": 3}, {"ni": 5, "nj": 20, "k": 4}}},
	{"lu1.knl", nil, []map[string]int64{{"n": 300, "k": 3}, {"n": 40, "k": 0}}},
	{"lu2.knl", nil, []map[string]int64{{"n": 45, "k": 3}, {"n": 20, "k": 7}}},
	{"lud_diagonal.knl", nil, []map[string]int64{{"matrix_dim": 48, "offset": 16}, {"matrix_dim": 32, "offset": 0}}},
	{"lud_internal.knl", nil, []map[string]int64{{"matrix_dim": 64, "offset": 16}, {"matrix_dim": 48, "offset": 0}}},
	{"lud_perimeter.knl", nil, []map[string]int64{{"matrix_dim": 64, "offset": 16}, {"matrix_dim": 48, "offset": 0}}},
	{"pathfinder.knl", nil, []map[string]int64{{"cols": 300, "rows": 3, "row": 1}, {"cols": 70, "rows": 3, "row": 1}}},
	{"sum_floats.knl", nil, []map[string]int64{{"n": 5000}, {"n": 100}}},
	{"transpose_finegrained.knl", nil, []map[string]int64{{"width": 64, "height": 64}, {"width": 32, "height": 32}}},
}

// readKernel parses a library kernel, a file of examples/, or a path.
func readKernel(t *testing.T, name string, consts map[string]int64) *Kernel {
	t.Helper()
	var src []byte
	file := name
	if strings.HasSuffix(name, ".knl") {
		file = filepath.Join("..", "examples", name)
		if strings.Contains(name, "/") {
			file = name
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src = b
	} else {
		s, err := library.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		src, file = []byte(s), library.FileName(name)
	}
	k, err := ParseKernel(file, src, consts)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// traceHierarchy runs k in the interpreter and counts, from the global
// accesses it performs, what Counted.Hierarchy counts: distinct bytes of
// the launch and of each work-group, and the loads that repeat a cell
// their work-item loaded before, at cells some store touches and at the
// others. Keys are "name array"; "name" alone for the sums. The arrays
// hold data, or where that is nil randomArrays'.
func traceHierarchy(t *testing.T, k *Kernel, params map[string]int64, data map[string]any) map[string]int64 {
	t.Helper()
	type cell struct {
		array string
		flat  int64
	}
	type placed struct {
		c        cell
		gid, lid [3]int64
	}
	launch := map[cell]bool{}
	group := map[placed]bool{}
	stored := map[cell]bool{}
	loads := map[placed]int64{}
	hook := func(array string, store bool, gid, lid [3]int64, flat int64) {
		c := cell{array, flat}
		launch[c] = true
		group[placed{c, gid, [3]int64{}}] = true
		if store {
			stored[c] = true
		} else {
			loads[placed{c, gid, lid}]++
		}
	}
	traceRun(t, k, params, data, hook)
	out := map[string]int64{}
	add := func(name, array string, n int64) {
		out[name+" "+array] += n
		out[name] += n
	}
	size := func(a string) int64 { return int64(k.arrayIndex[a].DType.Size()) }
	for c := range launch {
		add(FootprintLaunch, c.array, size(c.array))
	}
	for p := range group {
		add(FootprintGroup, p.c.array, size(p.c.array))
	}
	for p, n := range loads {
		name := ReuseWorkItem
		if stored[p.c] {
			name = ReuseWorkItemStored
		}
		add(name, p.c.array, n-1)
	}
	return out
}

// traceRun runs k at params on data, or where that is nil on
// randomArrays, calling hook at each global access.
func traceRun(t *testing.T, k *Kernel, params map[string]int64, data map[string]any, hook func(array string, store bool, gid, lid [3]int64, flat int64)) {
	t.Helper()
	if data == nil {
		data = randomArrays(t, k, params)
	}
	if _, err := Run(k, params, data, &RunOptions{global: hook}); err != nil {
		t.Fatal(err)
	}
}

// TestHierarchyAgainstInterpreter compares the symbolic memory-hierarchy
// counts with those of the accesses the interpreter performs, on library
// kernels and the examples, at sizes the work-groups divide and sizes
// they do not.
func TestHierarchyAgainstInterpreter(t *testing.T) {
	for _, hc := range hierarchyCases {
		t.Run(hc.kernel, func(t *testing.T) {
			k := readKernel(t, hc.kernel, hc.consts)
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, params := range hc.params {
				hs, vals, err := c.HierarchyAt(params)
				if err != nil {
					t.Fatal(err)
				}
				want := traceHierarchy(t, k, params, nil)
				checkHierarchyCounts(t, params, hs, vals, want)
			}
		})
	}
}

// checkHierarchyCounts compares counts at params, keyed "name array",
// with want, the same counts taken from the interpreter's accesses: every
// count exact and equal to want's, and none that want lacks but zero.
func checkHierarchyCounts(t *testing.T, params map[string]int64, hs []HierarchyCount, vals []int64, want map[string]int64) {
	t.Helper()
	got := map[string]int64{}
	for i, h := range hs {
		key := h.Name
		if h.Array != "" {
			key += " " + h.Array
		}
		got[key] = vals[i]
		if h.Approximate {
			t.Errorf("%v: %s %s marked approximate", params, h.Name, h.Array)
		}
	}
	for key, w := range want {
		if got[key] != w {
			t.Errorf("%v: %s = %d, the interpreter's accesses give %d", params, key, got[key], w)
		}
	}
	for key, g := range got {
		if _, ok := want[key]; !ok && g != 0 {
			t.Errorf("%v: %s = %d, the interpreter's accesses give 0", params, key, g)
		}
	}
}

// TestHierarchyRefusals checks that what the hierarchy cannot count
// exactly is an error naming the array and the cause, and that a count
// with no symbolic form says to give the sizes and is marked AtSizes
// when they are given.
func TestHierarchyRefusals(t *testing.T) {
	for _, tc := range []struct {
		kernel string
		params map[string]int64
		want   string
	}{
		// wall[row*cols + c]: a pitch that is a product of parameters.
		{"pathfinder.knl", map[string]int64{"cols": 70, "rows": 3, "row": 1}, "memory hierarchy of wall: "},
		// b[i*(n + 1) + k]: rows of pitch n + 1 that overlap (k reaches
		// n + 4); a and r, of pitch n + 2, split.
		{"testdata/hierarchy/pitches.knl", map[string]int64{"n": 7, "m": 5}, "memory hierarchy of b: "},
	} {
		c, err := Count(readKernel(t, tc.kernel, nil))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Hierarchy(); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "--param") {
			t.Errorf("%s: error %v, want one containing %q and --param", tc.kernel, err, tc.want)
		}
		hs, vals, err := c.HierarchyAt(tc.params)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range hs {
			if !h.AtSizes || h.Expression != fmt.Sprint(vals[i]) {
				t.Errorf("%s: %s %s: AtSizes %v, expression %q, value %d", tc.kernel, h.Name, h.Array, h.AtSizes, h.Expression, vals[i])
			}
		}
	}
	for _, tc := range []struct {
		kernel string
		params map[string]int64
		want   string
	}{
		// Two local inames of one axis, each bounded by itself, one
		// from 0, the other from 1.
		{shiftedLanes, map[string]int64{"n": 4}, "inames a and b share axis l.0 but start at 0 and 1"},
	} {
		k, err := ParseKernel("shifted.knl", []byte(tc.kernel), nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Count(k)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.HierarchyAt(tc.params); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.kernel, err, tc.want)
		}
	}
}

// shiftedLanes runs two local inames on axis l.0 whose own ranges start
// at different values.
const shiftedLanes = `kernel shifted
domain [n] -> { [g, a, b] : 0 <= g < n and 0 <= a < 16 and 1 <= b <= 16 }
array x f32 [16*n + 17]
array y f32 [16*n + 17]
array z f32 [16*n + 17]
tag g g.0, a l.0, b l.0
y[16*g + a] = x[16*g + a]
z[16*g + b] = x[16*g + b]
`

// ExampleCounted_HierarchyAt counts the memory-hierarchy counts of a
// matrix-vector product y = A x with a work-item per row, 64 rows a
// work-group: the launch reads A once and x once, but each of the four
// work-groups reads x in full; no work-item loads a cell twice.
func ExampleCounted_HierarchyAt() {
	k, err := ParseKernel("matvec.knl", []byte(`kernel matvec
domain [n] -> { [i, j] : 0 <= i < n and 0 <= j < n }
array a f32 [n, n]
array x f32 [n]
array y f32 [n]
split i 64 i_out i_in
tag i_out g.0, i_in l.0
y[i] = sum(j, a[i, j]*x[j])
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	hs, vals, err := c.HierarchyAt(map[string]int64{"n": 256})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, h := range hs {
		fmt.Printf("%-34s %-5s %d\n", h.Name, arrayOrAll(h.Array), vals[i])
	}
	// Output:
	// global.footprint.launch.bytes      a     262144
	// global.footprint.group.bytes       a     262144
	// global.load.reuse.workitem         a     0
	// global.footprint.launch.bytes      x     1024
	// global.footprint.group.bytes       x     4096
	// global.load.reuse.workitem         x     0
	// global.footprint.launch.bytes      y     1024
	// global.footprint.group.bytes       y     1024
	// global.footprint.launch.bytes      all arrays 264192
	// global.footprint.group.bytes       all arrays 267264
	// global.load.reuse.workitem         all arrays 0
}

// TestHierarchyApproximate checks that an array whose references run
// under a condition that reads data has its counts marked approximate,
// and the sums with it, while the others stay exact; its footprint is
// then the upper bound of every reference running.
func TestHierarchyApproximate(t *testing.T) {
	k, err := ParseKernel("cond.knl", []byte(`kernel cond
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array b f32 [n]
array c f32 [n]
split i 8 i_out i_in
tag i_out g.0, i_in l.0
if a[i] > 0.0f: c[i] = b[i]
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	hs, vals, err := c.HierarchyAt(map[string]int64{"n": 20})
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hs {
		// b and c run under the condition on a; the sums hold them.
		if want := h.Array != "a"; h.Approximate != want {
			t.Errorf("%s %s: approximate %v, want %v", h.Name, h.Array, h.Approximate, want)
		}
		if h.Name == FootprintLaunch && h.Array != "" && vals[i] != 80 {
			t.Errorf("%s %s = %d, want 80 (20 elements of 4 bytes)", h.Name, h.Array, vals[i])
		}
	}
}

// TestHierarchyComplexPitch: the hierarchy sets of overlappingRows'
// flattened input, whose rows of pitch w + 14 overlap, are too complex to
// count even at sizes; the error names the cause and what to write
// without printing the set. paddedRows, whose rows do not overlap,
// counts as the kernel written as the hint says does, its input's launch
// footprint the padded image's 78*78 cells less the diagonal's two
// unread corners of 14*15/2 cells, 4 bytes each, at w = h = 64.
func TestHierarchyComplexPitch(t *testing.T) {
	params := map[string]int64{"w": 64, "h": 64}
	hierarchyAt := func(src string) ([]HierarchyCount, []int64, error) {
		return countedSrc(t, "w14.knl", src).HierarchyAt(params)
	}
	_, _, err := hierarchyAt(overlappingRows)
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "memory hierarchy of in: a set too complex to count exactly") || !strings.Contains(err.Error(), "in[y + k, x + k] of an array [h + 14, w + 14]") {
		t.Fatalf("error of %d bytes: %.400v", len(fmt.Sprint(err)), err)
	}
	for _, src := range []string{paddedRows, paddedRows2d} {
		hs, vals, err := hierarchyAt(src)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for i, h := range hs {
			if h.Name == FootprintLaunch && h.Array == "in" {
				found = true
				if want := int64(4 * (78*78 - 2*14*15/2)); vals[i] != want {
					t.Errorf("in's launch footprint %d bytes, want %d", vals[i], want)
				}
			}
		}
		if !found {
			t.Error("no launch footprint of in")
		}
	}
}

// A kernel without parameters whose hierarchy counts fail (a flattened
// subscript, a[(y + k)*70 + x + k], too complex to count) is told where
// and why, and that counting at sizes would not help, since it has no
// sizes to fix: the hint for kernels with parameters (--param) would
// send its user to count the same sets again, which fail alike.
func TestHierarchyNoParametersRefusal(t *testing.T) {
	k := parseSrc(t, "np", `kernel np
domain { [y, x, k] : 0 <= y < 60 and 0 <= x < 60 and 0 <= k < 3 }
array a f32 [70*70]
array b f32 [60, 60]
split x 16 x_out x_in
tag x_out g.0, x_in l.0, y g.1, k unr
b[y, x] = sum(k, a[(y + k)*70 + x + k])
`)
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Hierarchy()
	if err == nil {
		t.Fatal("Hierarchy counted np; want its refusal")
	}
	msg := err.Error()
	for _, want := range []string{"np.knl:3:7: kernel np: memory hierarchy of a: a set too complex",
		"declare the array with a dimension per pitch", "kernel np has no parameters, so counting at given sizes would count these same sets"} {
		if !strings.Contains(msg, want) {
			t.Errorf("Hierarchy: %q\nwant it to say %q", msg, want)
		}
	}
	if strings.Contains(msg, "--param") {
		t.Errorf("Hierarchy: %q\nsends a kernel without parameters to --param", msg)
	}
	if _, _, err := c.HierarchyAt(map[string]int64{}); err == nil {
		t.Error("HierarchyAt counted np, which the refusal says it cannot")
	}
}
