package counts

import (
	"fmt"
	"strconv"
	"testing"
)

// traceIterFootprints counts, from the global accesses the interpreter
// performs, what Counted.IterFootprints counts: the distinct (work-group,
// iteration, cell) triples of all accesses (in bytes) and of the loads,
// and the distinct (work-group, iteration) pairs. An iteration is the
// values of the sequential inames in scope of the access, with which
// inames they are. Keys are "name array"; "name" alone for the sums.
func traceIterFootprints(t *testing.T, k *Kernel, params map[string]int64) map[string]int64 {
	t.Helper()
	type at struct {
		gid  [3]int64
		iter string
	}
	type cell struct {
		at
		array string
		flat  int64
	}
	touched, loaded := map[cell]bool{}, map[cell]bool{}
	iters := map[at]bool{}
	hook := func(_, array string, store bool, gid [3]int64, iter string, flat int64) {
		c := cell{at{gid, iter}, array, flat}
		touched[c] = true
		if !store {
			loaded[c] = true
		}
		iters[c.at] = true
	}
	if _, err := Run(k, params, randomArrays(t, k, params), &RunOptions{iteration: hook}); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	add := func(name, array string, n int64) {
		out[name+" "+array] += n
		out[name] += n
	}
	for c := range touched {
		add(FootprintGroupIter, c.array, int64(k.arrayIndex[c.array].DType.Size()))
	}
	for c := range loaded {
		add(LoadCellsGroupIter, c.array, 1)
	}
	out[GroupIterations] = int64(len(iters))
	return out
}

// TestIterFootprintsAgainstInterpreter compares the symbolic per-iteration
// counts with those of the accesses the interpreter performs, on the
// kernels of the hierarchy's tests (library kernels, examples, kernels
// counted only at sizes), at sizes the work-groups divide and sizes they
// do not.
func TestIterFootprintsAgainstInterpreter(t *testing.T) {
	for _, hc := range hierarchyCases {
		t.Run(hc.kernel, func(t *testing.T) {
			k := readKernel(t, hc.kernel, hc.consts)
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, params := range hc.params {
				hs, vals, err := c.IterFootprintsAt(params)
				if err != nil {
					t.Fatal(err)
				}
				want := traceIterFootprints(t, k, params)
				checkHierarchyCounts(t, params, hs, vals, want)
			}
		})
	}
}

// TestIterFootprintsGemmTile checks gemm's per-iteration counts against
// closed forms derived by hand. Its groups are 8 rows by 32 columns of c;
// a group of r rows and q columns (fewer at the edges) scales its tile of
// c (r·q cells, outside the k loop), then at each of the nk values of k
// touches r cells of a (a column of its rows), q of b (a row of its
// columns) and its r·q cells of c. Summed over the groups, the rows of
// each column of groups add up to ni and the columns of each row of
// groups to nj:
//
//	a: 4·nk·ni·⌈nj/32⌉ bytes, b: 4·nk·nj·⌈ni/8⌉, c: 4·(nk+1)·ni·nj,
//
// every access a load, and ⌈ni/8⌉·⌈nj/32⌉·(nk + 1) group iterations.
// Of the r·q loads of a at each k, r·q − r repeat a cell of the group's
// iteration (a is read at stride 0 along l.0), and r·q − q of b's (stride
// 1): nk·ni·(nj − ⌈nj/32⌉) and nk·nj·(ni − ⌈ni/8⌉) shared loads; c's
// loads repeat none within an iteration.
// The whole-group footprint, by contrast, holds a group's rows of a for
// every k: 4·nk·ni·⌈nj/32⌉ too, but reached at once, not 32 cells at a
// time.
func TestIterFootprintsGemmTile(t *testing.T) {
	k := readKernel(t, "gemm.knl", nil)
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := c.IterFootprints()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hs {
		if h.AtSizes {
			t.Errorf("%s %s: counted at sizes, want a symbolic count", h.Name, h.Array)
		}
	}
	ceil := func(a, b int64) int64 { return (a + b - 1) / b }
	for _, p := range []map[string]int64{
		{"ni": 8, "nj": 32, "nk": 1},
		{"ni": 2048, "nj": 2048, "nk": 2048},
		{"ni": 1000, "nj": 77, "nk": 13},
		{"ni": 3, "nj": 5000, "nk": 40},
	} {
		ni, nj, nk := p["ni"], p["nj"], p["nk"]
		cells := map[string]int64{
			"a": nk * ni * ceil(nj, 32),
			"b": nk * nj * ceil(ni, 8),
			"c": (nk + 1) * ni * nj,
		}
		want := map[string]int64{GroupIterations + " ": ceil(ni, 8) * ceil(nj, 32) * (nk + 1)}
		for a, n := range cells {
			want[FootprintGroupIter+" "+a] = 4 * n
			want[LoadCellsGroupIter+" "+a] = n
			want[FootprintGroupIter+" "] += 4 * n
			want[LoadCellsGroupIter+" "] += n
		}
		hs, vals, err := c.IterFootprintsAt(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(hs) != len(want) {
			t.Errorf("%v: %d counts, want %d", p, len(hs), len(want))
		}
		for i, h := range hs {
			if w, ok := want[h.Name+" "+h.Array]; !ok || vals[i] != w {
				t.Errorf("%v: %s %s = %d, want %d", p, h.Name, arrayOrAll(h.Array), vals[i], w)
			}
		}
		shared, err := c.SharedLoadsAt(p)
		if err != nil {
			t.Fatal(err)
		}
		wantShared := map[string]int64{
			"global.load.f32.stride=0": nk * ni * (nj - ceil(nj, 32)),
			"global.load.f32.stride=1": nk * nj * (ni - ceil(ni, 8)),
		}
		if len(shared) != len(wantShared) {
			t.Errorf("%v: shared loads %v, want %v", p, shared, wantShared)
		}
		for prop, w := range wantShared {
			if shared[prop] != w {
				t.Errorf("%v: %s: %d shared loads, want %d", p, prop, shared[prop], w)
			}
		}
	}
}

// traceSharedLoads counts, from the interpreter's accesses, the loads of
// each site that repeat a cell the site loaded in the same work-group
// and iteration, by the property of the site's stride as the
// interpreter observes it (the flattened distance between work-items
// adjacent along l.0); sites whose observed strides are not all 0 or
// all 1 are left out, as SharedLoadsAt leaves them out.
func traceSharedLoads(t *testing.T, k *Kernel, params map[string]int64) map[string]int64 {
	t.Helper()
	type at struct {
		gid  [3]int64
		iter string
		flat int64
	}
	seen := map[string]map[at]bool{}
	count := map[string]int64{}
	hook := func(site, _ string, store bool, gid [3]int64, iter string, flat int64) {
		if store {
			return
		}
		if seen[site] == nil {
			seen[site] = map[at]bool{}
		}
		seen[site][at{gid, iter, flat}] = true
		count[site]++
	}
	tl, err := Run(k, params, randomArrays(t, k, params), &RunOptions{Trace: true, iteration: hook})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, s := range tl.Sites {
		key := s.Instruction + "/" + strconv.Itoa(s.Site)
		if s.Store || count[key] == 0 {
			continue
		}
		stride := int64(-1)
		for d := range s.Strides {
			if stride >= 0 && d != stride || d != 0 && d != 1 {
				stride = -2
				break
			}
			stride = d
		}
		if stride < 0 {
			continue
		}
		a := k.arrayIndex[s.Array]
		out[globalProperty(false, a.ReadOnly, a.DType, stride, 0)] += count[key] - int64(len(seen[key]))
	}
	return out
}

// TestSharedLoadsAgainstInterpreter compares SharedLoadsAt with the
// loads the interpreter's sites repeat within a group's iteration.
func TestSharedLoadsAgainstInterpreter(t *testing.T) {
	for _, hc := range hierarchyCases {
		t.Run(hc.kernel, func(t *testing.T) {
			k := readKernel(t, hc.kernel, hc.consts)
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, params := range hc.params {
				got, err := c.SharedLoadsAt(params)
				if err != nil {
					t.Fatal(err)
				}
				want := traceSharedLoads(t, k, params)
				for p, w := range want {
					if got[p] != w {
						t.Errorf("%v: %s: %d shared loads, the interpreter's accesses give %d", params, p, got[p], w)
					}
				}
				for p, g := range got {
					if _, ok := want[p]; !ok && g != 0 {
						t.Errorf("%v: %s: %d shared loads, the interpreter's accesses give 0", params, p, g)
					}
				}
			}
		})
	}
}

// ExampleCounted_IterFootprintsAt counts the per-iteration counts of a
// matrix-vector product y = A x with a work-item per row, 64 rows a
// work-group, at n = 256: at each j a group touches a column of its 64
// rows of A and one cell of x, which its 64 work-items share; it stores
// its 64 cells of y after the loop. Four groups, 256 iterations each and
// one outside the loop: 1028 group iterations.
func ExampleCounted_IterFootprintsAt() {
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
	hs, vals, err := c.IterFootprintsAt(map[string]int64{"n": 256})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, h := range hs {
		fmt.Printf("%-34s %-5s %d\n", h.Name, arrayOrAll(h.Array), vals[i])
	}
	// Output:
	// global.footprint.group.iter.bytes  a     262144
	// global.load.cells.group.iter       a     65536
	// global.footprint.group.iter.bytes  x     4096
	// global.load.cells.group.iter       x     1024
	// global.footprint.group.iter.bytes  y     1024
	// global.footprint.group.iter.bytes  all arrays 267264
	// global.load.cells.group.iter       all arrays 66560
	// global.group.iterations            all arrays 1028
}
