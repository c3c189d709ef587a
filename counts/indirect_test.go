package counts

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

const gatherKernel = `kernel gather
const LX = 16
domain [n] -> { [i] : 0 <= i < n }
array perm i32 [n]
array x f32 [n]
array y f32 [n]
array z f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
y[i] = 2*x[perm[i]]
z[perm[i]] = x[i]
`

const histKernel = `kernel hist
const LX = 16
domain [n] -> { [i] : 0 <= i < n }
array a i32 [n]
array w f32 [n]
array hist i32 [16]
array whist f32 [16]
split i LX i_out i_in
tag i_out g.0, i_in l.0
atomic_add(hist[a[i] % 16], 1)
if a[i] >= 8: atomic_add(whist[a[i] // 2 - 4], w[i])
`

// localHistKernel is cuda-samples' histogram64 pattern: a work-group's
// histogram in local memory, added to the global one at the end.
const localHistKernel = `kernel lhist
domain [ng] -> { [g, l] : 0 <= g < ng and 0 <= l < 32 }
domain { [c] : 0 <= c < 8 }
array a i32 [32*ng]
array hist i32 [8]
local lh i32 [8]
tag g g.0, l l.0, c l.0
lh[c] = 0 {inames=g}
barrier
atomic_add(lh[a[32*g + l] % 8], 1)
barrier
atomic_add(hist[c], lh[c]) {inames=g}
`

// spmvKernel is SHOC's scalar CSR kernel with its row loop bounded by
// the longest row, maxrow, and guarded by the row's length.
const spmvKernel = `kernel spmv_csr
const LX = 16
domain [nrows, nnz, ncols, maxrow] -> { [i, k] : 0 <= i < nrows and 0 <= k < maxrow }
array rowptr i32 [nrows + 1]
array col i32 [nnz]
array val f32 [nnz]
array x f32 [ncols]
array y f32 [nrows]
split i LX i_out i_in
tag i_out g.0, i_in l.0
<i32> start = rowptr[i]
<i32> len = rowptr[i + 1] - start
y[i] = sum(k, if(k < len, val[start + k]*x[col[start + k]], 0.0f))
`

func parseSrc(t *testing.T, name, src string) *Kernel {
	t.Helper()
	k, err := ParseKernel(name+".knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// indirectCounts counts a kernel and runs it on data, checking the counts
// against hand counts (classes summed) and, where exact, against the
// interpreter's totals; upper bounds must be at least the run's.
func indirectCounts(t *testing.T, k *Kernel, params map[string]int64, data map[string]any, hand map[string]int64, upper []string) {
	t.Helper()
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	compareProps(t, sumClasses(got), hand)
	for _, name := range c.Names() {
		want := false
		for _, u := range upper {
			want = want || u == name
		}
		if c.UpperBound(name) != want {
			t.Errorf("%s: upper bound %v, want %v", name, c.UpperBound(name), want)
		}
	}
	tl, err := Run(k, params, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	compareBounded(t, c, sumClasses(got), tl.Totals())
}

func TestIndirectGatherScatter(t *testing.T) {
	k := parseSrc(t, "gather", gatherKernel)
	for _, n := range []int64{37, 16, 1} {
		perm := make([]int32, n)
		for i, p := range rand.New(rand.NewPCG(uint64(n), 7)).Perm(int(n)) {
			perm[i] = int32(p)
		}
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(i) + 0.5
		}
		y, z := make([]float32, n), make([]float32, n)
		// Per i: perm[i] twice, x[perm[i]] and x[i], y[i] and z[perm[i]].
		hand := map[string]int64{"global.load.i32": 2 * n, "global.load.indirect.f32": n, "global.load.f32": n,
			"global.store.f32": n, "global.store.indirect.f32": n, "flop.f32.mul": n,
			"launch.groups": (n + 15) / 16, "launch.const": 1}
		indirectCounts(t, k, map[string]int64{"n": n}, map[string]any{"perm": perm, "x": x, "y": y, "z": z}, hand, nil)
		for i := range n {
			if y[i] != 2*x[perm[i]] || z[perm[i]] != x[i] {
				t.Fatalf("n=%d, i=%d: y %g, z[perm] %g, want %g and %g", n, i, y[i], z[perm[i]], 2*x[perm[i]], x[i])
			}
		}
	}
}

func TestIndirectAtomicHistogram(t *testing.T) {
	k := parseSrc(t, "hist", histKernel)
	for _, n := range []int64{100, 16, 1} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		a, w := make([]int32, n), make([]float32, n)
		wantHist, wantW := make([]int32, 16), make([]float64, 16)
		above := int64(0)
		for i := range a {
			a[i], w[i] = int32(rng.IntN(40)), float32(rng.IntN(100))/8
			wantHist[a[i]%16]++
			if a[i] >= 8 {
				above++
				wantW[a[i]/2-4] += float64(w[i])
			}
		}
		hist, whist := make([]int32, 16), make([]float32, 16)
		// Per i: a[i] for the bin, a[i] for the test; where the test
		// holds (counted everywhere: it reads data) a[i] and w[i], the
		// shift, the subtraction and the atomic.
		hand := map[string]int64{"global.load.i32": 3 * n, "global.load.f32": n, "global.atomic.i32.add": n,
			"global.atomic.f32.add": n, "int.i32.bitwise": n, "int.i32.shift": n, "int.i32.add": n,
			"launch.groups": (n + 15) / 16, "launch.const": 1}
		data := map[string]any{"a": a, "w": w, "hist": hist, "whist": whist}
		indirectCounts(t, k, map[string]int64{"n": n}, data, hand,
			[]string{"global.load.i32.stride=1", "global.load.f32.stride=1", "global.atomic.f32.add", "int.i32.shift", "int.i32.add"})
		for b := range 16 {
			if hist[b] != wantHist[b] {
				t.Errorf("n=%d: hist[%d] = %d, want %d", n, b, hist[b], wantHist[b])
			}
			// f32 sums in another order: within a few ulps of the sum.
			if d := math.Abs(float64(whist[b]) - wantW[b]); d > 1e-5*wantW[b] {
				t.Errorf("n=%d: whist[%d] = %g, want %g", n, b, whist[b], wantW[b])
			}
		}
		// The interpreter performed what the exact counts say, and at
		// most the bounds: above of the n conditional atomics.
		tl, err := Run(k, map[string]int64{"n": n}, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := tl.Totals()["global.atomic.f32.add"]; got != above {
			t.Errorf("n=%d: %d f32 atomics run, want %d", n, got, above)
		}
	}
}

func TestIndirectLocalHistogram(t *testing.T) {
	k := parseSrc(t, "lhist", localHistKernel)
	for _, ng := range []int64{3, 1} {
		a := make([]int32, 32*ng)
		want := make([]int32, 8)
		for i := range a {
			a[i] = int32(i*i*7+3) % 50
			want[a[i]%8]++
		}
		hist := make([]int32, 8)
		// Per group: 8 local zeroings, 32 local atomics, 8 local loads
		// and 8 global atomics; 2 barriers for each of its 32 work-items.
		hand := map[string]int64{"local.store.i32": 8 * ng, "local.atomic.i32.add": 32 * ng, "local.load.i32": 8 * ng,
			"global.atomic.i32.add": 8 * ng, "global.load.i32": 32 * ng, "int.i32.bitwise": 32 * ng,
			"sync.barrier": 64 * ng, "launch.groups": ng, "launch.const": 1}
		indirectCounts(t, k, map[string]int64{"ng": ng}, map[string]any{"a": a, "hist": hist}, hand, nil)
		for b := range 8 {
			if hist[b] != want[b] {
				t.Errorf("ng=%d: hist[%d] = %d, want %d", ng, b, hist[b], want[b])
			}
		}
	}
}

func TestIndirectSpMV(t *testing.T) {
	k := parseSrc(t, "spmv", spmvKernel)
	const nrows, ncols = 21, 13
	rng := rand.New(rand.NewPCG(5, 5))
	rowptr := []int32{0}
	var col []int32
	var val []float32
	maxrow := int64(0)
	for range nrows {
		n := rng.IntN(6)
		maxrow = max(maxrow, int64(n))
		for range n {
			col = append(col, int32(rng.IntN(ncols)))
			val = append(val, float32(rng.IntN(9))-4)
		}
		rowptr = append(rowptr, int32(len(col)))
	}
	x := make([]float32, ncols)
	for i := range x {
		x[i] = float32(i%5) + 0.25
	}
	y := make([]float32, nrows)
	nnz := int64(len(col))
	params := map[string]int64{"nrows": nrows, "nnz": nnz, "ncols": ncols, "maxrow": maxrow}
	m := nrows * maxrow
	// Per row: rowptr twice, a subtraction, a store; per k < maxrow the
	// sum's addition, and where k < len (counted everywhere) col, val and
	// x, a multiplication and start + k twice.
	hand := map[string]int64{"global.load.i32": 2 * nrows, "global.store.f32": nrows, "flop.f32.add": m,
		"global.load.indirect.i32": m, "global.load.indirect.f32": 2 * m, "flop.f32.mul": m, "int.i32.add": nrows + 2*m,
		"launch.groups": (nrows + 15) / 16, "launch.const": 1}
	indirectCounts(t, k, params, map[string]any{"rowptr": rowptr, "col": col, "val": val, "x": x, "y": y}, hand,
		[]string{"global.load.indirect.i32", "global.load.indirect.f32", "flop.f32.mul", "int.i32.add"})
	for r := range nrows {
		want := float32(0)
		for j := rowptr[r]; j < rowptr[r+1]; j++ {
			want += val[j] * x[col[j]]
		}
		if y[r] != want {
			t.Errorf("y[%d] = %g, want %g", r, y[r], want)
		}
	}
}

// TestIndirectOutOfBounds: a gathered index outside the array stops the
// interpreter with the subscripts' values.
func TestIndirectOutOfBounds(t *testing.T) {
	k := parseSrc(t, "gather", gatherKernel)
	perm := []int32{0, 1, 7}
	_, err := Run(k, map[string]int64{"n": 3}, map[string]any{"perm": perm, "x": make([]float32, 3),
		"y": make([]float32, 3), "z": make([]float32, 3)}, nil)
	if err == nil || !strings.Contains(err.Error(), "x[7] is out of bounds for shape [3]") {
		t.Fatalf("err = %v", err)
	}
}

// TestIndirectRefusals: what cannot be counted or generated is refused
// with what to write instead.
func TestIndirectRefusals(t *testing.T) {
	head := "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a i32 [n]\narray x f32 [n]\narray d f64 [n]\nprivate p f32 [4]\nlocal l f32 [4]\n"
	for _, c := range []struct{ body, want string }{
		{"x[i] = p[a[i]]", "declare p with 'local'"},
		{"x[i] = x[x[i]]", "convert it with (int)(...)"},
		{"atomic_add(p[0], 1.0f)", "write p[0] = p[0] + VALUE"},
		{"atomic_add(d[a[i]], 1.0)", "declare d as f32, i32 or u32"},
		{"atomic_add(x[i])", "write atomic_add(hist[b], 1)"},
		{"atomic_add(x[i] + 1, 2)", "written without the &"},
	} {
		_, err := ParseKernel("k.knl", []byte(head+c.body+"\n"), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.body, err, c.want)
		}
	}
	c, err := Count(parseSrc(t, "gather", gatherKernel))
	if err != nil {
		t.Fatal(err)
	}
	for what, f := range map[string]func() error{
		"footprint":        func() error { _, err := c.Footprints(); return err },
		"memory hierarchy": func() error { _, err := c.Hierarchy(); return err },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), what+" of x: x[perm[16*i_out + i_in]] reads its subscripts from data") ||
			!strings.Contains(err.Error(), "RunOptions{Trace: true}") {
			t.Errorf("%s: err = %v", what, err)
		}
	}
}

// TestIndirectTrace: the traced run records the cells a gather touched,
// the footprint the counts cannot know.
func TestIndirectTrace(t *testing.T) {
	k := parseSrc(t, "gather", gatherKernel)
	perm := []int32{4, 4, 0, 2, 2}
	_, err := Run(k, map[string]int64{"n": 5}, map[string]any{"perm": perm, "x": []float32{1, 2, 3, 4, 5},
		"y": make([]float32, 5), "z": make([]float32, 5)}, &RunOptions{Trace: true})
	if err == nil || !strings.Contains(err.Error(), "write-write race") {
		t.Fatal("perm is no permutation: z[perm[i]] = x[i] races, and the run should say so")
	}
	perm = []int32{4, 3, 0, 1, 2}
	tl, err := Run(k, map[string]int64{"n": 5}, map[string]any{"perm": perm, "x": make([]float32, 5),
		"y": make([]float32, 5), "z": make([]float32, 5)}, &RunOptions{Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Loaded["x"]) != 5 || len(tl.Stored["z"]) != 5 || len(tl.Sites) != 4 {
		t.Errorf("loaded x %v, stored z %v, %d sites (want 5, 5 and the 4 affine ones)", tl.Loaded["x"], tl.Stored["z"], len(tl.Sites))
	}
}

// TestIndirectRaceHint: a histogram written with += races, and the
// error says to use atomic_add.
func TestIndirectRaceHint(t *testing.T) {
	k := parseSrc(t, "h", strings.Replace(histKernel, "atomic_add(hist[a[i] % 16], 1)", "hist[a[i] % 16] += 1", 1))
	_, err := Run(k, map[string]int64{"n": 2}, map[string]any{"a": []int32{3, 3}, "w": make([]float32, 2),
		"hist": make([]int32, 16), "whist": make([]float32, 16)}, nil)
	if err == nil || !strings.Contains(err.Error(), "write atomic_add(hist[(a[16*i_out + i_in] % 16)], 1)") {
		t.Fatalf("err = %v", err)
	}
}
