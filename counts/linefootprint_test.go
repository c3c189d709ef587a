package counts

import (
	"slices"
	"strings"
	"testing"
)

// traceLines runs k in the interpreter and counts, from the global
// accesses it performs, what Counted.LinesAt counts: the distinct lines
// (element offset times element size, divided by lineBytes) of the
// launch, of each work-group and of each work-item. Keys are "name
// array"; "name" alone for the sums. The arrays hold data, or where that
// is nil randomArrays'.
func traceLines(t *testing.T, k *Kernel, params map[string]int64, lineBytes int64, data map[string]any) map[string]int64 {
	t.Helper()
	type line struct {
		array string
		n     int64
	}
	type placed struct {
		l        line
		gid, lid [3]int64
	}
	launch := map[line]bool{}
	group := map[placed]bool{}
	item := map[placed]bool{}
	hook := func(array string, _ bool, gid, lid [3]int64, flat int64) {
		l := line{array, flat * int64(k.arrayIndex[array].DType.Size()) / lineBytes}
		launch[l] = true
		group[placed{l, gid, [3]int64{}}] = true
		item[placed{l, gid, lid}] = true
	}
	traceRun(t, k, params, data, hook)
	out := map[string]int64{}
	for name, set := range map[string][]line{
		LinesLaunch:   keysOf(launch, func(l line) line { return l }),
		LinesGroup:    keysOf(group, func(p placed) line { return p.l }),
		LinesWorkItem: keysOf(item, func(p placed) line { return p.l }),
	} {
		for _, l := range set {
			out[name+" "+l.array]++
			out[name]++
		}
	}
	return out
}

// keysOf lists f of each key of m.
func keysOf[K comparable, V any](m map[K]bool, f func(K) V) []V {
	var out []V
	for k := range m {
		out = append(out, f(k))
	}
	return out
}

// lineCases are kernels whose lines and bytes part ways (column walks,
// a column-major array, 8-byte elements, strides that skip lines), and
// the hierarchy's kernels at sizes whose rows are whole 64-byte lines
// (LinesAt refuses rows that straddle lines; the others are counted at
// the hierarchy's own sizes, odd ones included, in
// TestLinesAgainstInterpreter).
var lineCases = []hierarchyCase{
	{"atax2.knl", nil, []map[string]int64{{"nx": 37, "ny": 64}, {"nx": 16, "ny": 32}}},
	{"mvt2.knl", nil, []map[string]int64{{"n": 48}}},
	{"gemver2.knl", nil, []map[string]int64{{"n": 32}}},
	{"bicg.knl", nil, []map[string]int64{{"nx": 21, "ny": 48}}},
	{"atax1.knl", nil, []map[string]int64{{"nx": 37, "ny": 16}}},
	{"syrk.knl", nil, []map[string]int64{{"ni": 16, "nj": 6}}},
	{"reread_dram", map[string]int64{"LX": 8}, []map[string]int64{{"n": 32, "nr": 3}}},
	{"column_walk", map[string]int64{"LX": 8}, []map[string]int64{{"n": 32, "nr": 3, "p": 48}, {"n": 16, "nr": 5, "p": 64}}},
	{"accumulate_global", map[string]int64{"LX": 8}, []map[string]int64{{"n": 32, "nk": 4}}},
	{"stride2_filled", map[string]int64{"LX": 8}, []map[string]int64{{"n": 21}}},
	{"testdata/lines/walks.knl", nil, []map[string]int64{{"n": 37, "m": 8}, {"n": 32, "m": 16}, {"n": 1, "m": 8}}},
	{"gemm.knl", nil, []map[string]int64{{"ni": 9, "nj": 32, "nk": 16}, {"ni": 16, "nj": 64, "nk": 16}}},
	{"jacobi2d.knl", nil, []map[string]int64{{"n": 32}}},
	{"matmul_tiled", nil, []map[string]int64{{"n": 16, "m": 32, "ell": 16}}},
	{"matmul_naive", nil, []map[string]int64{{"n": 32}}},
	{"transpose_prefetch", nil, []map[string]int64{{"n": 32}}},
	{"matvec_t_unrolled", nil, []map[string]int64{{"n": 48}}},
	{"conv3d.knl", nil, []map[string]int64{{"ni": 5, "nj": 11, "nk": 32, "i": 2}}},
	{"doitgen1.knl", nil, []map[string]int64{{"nr": 3, "nq": 11, "np": 32, "r": 1}}},
	{"doitgen2.knl", nil, []map[string]int64{{"nr": 3, "nq": 11, "np": 32, "r": 1}}},
	{"gramschmidt3.knl", nil, []map[string]int64{{"ni": 13, "nj": 304, "k": 3}}},
	{"lu2.knl", nil, []map[string]int64{{"n": 48, "k": 3}}},
	{"lud_perimeter.knl", nil, []map[string]int64{{"matrix_dim": 64, "offset": 16}}},
	// The tuning spaces' tiles, some overhanging the edges; the
	// convolution's filter one column wide, so that the input's rows
	// are whole lines where the output's are (the shipped 17 columns
	// give the filter rows that straddle lines).
	{"matmul_kernel.knl", map[string]int64{"BX": 8, "BY": 4, "TX": 2, "TY": 2}, []map[string]int64{{"n": 32}, {"n": 48}}},
	{"convolution_kernel.knl", map[string]int64{"BX": 4, "BY": 2, "TX": 5, "TY": 3, "FH": 3, "FW": 1, "PAD": 0}, []map[string]int64{{"h": 13, "w": 48}, {"h": 16, "w": 16}}},
}

// lineKernels are lineCases and the hierarchy's cases of the kernels
// lineCases does not name, less those LinesAt refuses at every size
// (filters of 7 and 17 floats a row, pitches.knl's odd pitches, two
// arrays whose pitches differ by 2, covariance3's mirror store
// symmat[(j1 + dj)*m + j1], which steps by m elements along dj and by
// m + 1 along j1, never both whole lines) or
// whose lines are past the counter's budget (the convolution and
// transpose_finegrained tiles; see docs/accuracy.md).
func lineKernels() []hierarchyCase {
	out := slices.Clone(lineCases)
	skip := []string{"finite_diff", "testdata/hierarchy/stencil.knl", "convolution", "convolution_kernel.knl", "convolution_naive.knl", "transpose_finegrained.knl", "bpnn_adjust_weights.knl", "bpnn_layerforward.knl", "testdata/hierarchy/pitches.knl", "covariance3.knl"}
	for _, hc := range hierarchyCases {
		if !slices.Contains(skip, hc.kernel) && !slices.ContainsFunc(lineCases, func(l hierarchyCase) bool { return l.kernel == hc.kernel }) {
			out = append(out, hc)
		}
	}
	return out
}

// TestLinesAgainstInterpreter compares LinesAt with the lines of the
// accesses the interpreter performs, for 64- and 32-byte lines, on the
// hierarchy's kernels and on kernels whose lines and bytes part ways.
func TestLinesAgainstInterpreter(t *testing.T) {
	for _, hc := range lineKernels() {
		t.Run(hc.kernel, func(t *testing.T) {
			k := readKernel(t, hc.kernel, hc.consts)
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, params := range hc.params {
				for _, lineBytes := range []int64{64, 32} {
					ls, vals, err := c.LinesAt(params, lineBytes)
					if err != nil {
						t.Fatal(err)
					}
					want := traceLines(t, k, params, lineBytes, nil)
					got := map[string]int64{}
					for i, l := range ls {
						key := l.Name
						if l.Array != "" {
							key += " " + l.Array
						}
						got[key] = vals[i]
						if l.Approximate {
							t.Errorf("%v: %s %s marked approximate", params, l.Name, l.Array)
						}
					}
					for key, w := range want {
						if got[key] != w {
							t.Errorf("%v, %d-byte lines: %s = %d, the interpreter's accesses give %d", params, lineBytes, key, got[key], w)
						}
					}
					for key, g := range got {
						if _, ok := want[key]; !ok && g != 0 {
							t.Errorf("%v, %d-byte lines: %s = %d, the interpreter's accesses give 0", params, lineBytes, key, g)
						}
					}
				}
			}
		})
	}
}

// TestLinesClosedForms checks LinesAt on a column walk against counts
// derived by hand: y[j] = sum(i, a[i, j]) over an n x n f32 matrix, a
// work-item per column, 64 columns a group, n = 256. A work-item touches
// one line of a in each of the n rows (n*n lines over the work-items);
// the 64 columns of a group span 4 lines of each row (4n lines a group,
// 4 groups); the launch touches all n*n/16 lines of a once.
func TestLinesClosedForms(t *testing.T) {
	k, err := ParseKernel("colsum.knl", []byte(`kernel colsum
domain [n] -> { [j, i] : 0 <= j < n and 0 <= i < n }
array a f32 [n, n]
array y f32 [n]
split j 64 j_out j_in
tag j_out g.0, j_in l.0
y[j] = sum(i, a[i, j])
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	const n = 256
	ls, vals, err := c.LinesAt(map[string]int64{"n": n}, 64)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		LinesLaunch + " a": n * n / 16, LinesGroup + " a": 4 * (4 * n), LinesWorkItem + " a": n * n,
		// y: 16 lines; each group's 64 elements are 4 lines; each
		// work-item stores one element, one line.
		LinesLaunch + " y": n / 16, LinesGroup + " y": n / 16, LinesWorkItem + " y": n,
		LinesLaunch: n*n/16 + n/16, LinesGroup: 16*n + n/16, LinesWorkItem: n*n + n,
	}
	for i, l := range ls {
		key := strings.TrimSpace(l.Name + " " + l.Array)
		if vals[i] != want[key] {
			t.Errorf("%s = %d, want %d", key, vals[i], want[key])
		}
	}
	if len(ls) != len(want) {
		t.Errorf("%d counts, want %d", len(ls), len(want))
	}
	if _, _, err := c.LinesAt(map[string]int64{"n": n}, 48); err == nil || !strings.Contains(err.Error(), "power of two") {
		t.Errorf("48-byte lines: error %v, want one saying a line is a power of two bytes", err)
	}
}

// TestLinesRefusal checks that an array whose rows straddle lines is
// refused with the array, the layout and what to do instead, not after
// exhausting the counter's budget.
func TestLinesRefusal(t *testing.T) {
	c, err := Count(readKernel(t, "atax2.knl", nil))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.LinesAt(map[string]int64{"nx": 13, "ny": 70}, 64)
	for _, want := range []string{"cache lines of a", "do not start on 64-byte line boundaries", "a step of 280 bytes", "multiple of 64 bytes"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want one containing %q", err, want)
		}
	}
}
