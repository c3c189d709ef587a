package hierarchy

import (
	"fmt"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// colWalk sums each column of an nr x p matrix (row pitch p floats),
// a work-item per column: the walk Config.Conflict prices.
const colWalk = `kernel colwalk
const LX = 256
domain [n, nr, p] -> { [i, r] : 0 <= i < n and 0 <= r < nr }
assume n >= 1 and nr >= 1 and p >= n
array a f32 [nr, p]
array out f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
out[i] = sum(r, a[r, i])
`

// TestWalkMisses checks the lines a strided walk loses, by hand, in a
// 1 MiB 8-way cache (2048 sets of 64-byte lines, 128 KiB a way): a
// stride of 8 KiB steps 128 sets, reaching 16, 8 lines each at 128
// lines, one more in 1 and 8 of them at 129 and 136 (at 16 ways, 8
// sets of 16); 4 MiB or 128 KiB reaches one set, 64 KiB two; 12 KiB (3 x 4 KiB) reaches 32; a stride of 4 bytes or
// with no power of two above a line (8256 = 64 x 129, 8224) every set;
// unknown ways lose nothing.
func TestWalkMisses(t *testing.T) {
	for _, c := range []struct{ l, s, ways, want int64 }{
		{2048, 8192, 8, 2048}, {128, 8192, 8, 0}, {129, 8192, 8, 9}, {136, 8192, 8, 72}, {2048, 8192, 16, 2048}, {128, 8192, 16, 0}, {256, 8192, 16, 256},
		{8, 4 << 20, 8, 0}, {9, 4 << 20, 8, 9}, {9, 128 << 10, 8, 9}, {9, 64 << 10, 8, 0}, {17, 64 << 10, 8, 9}, {18, 64 << 10, 8, 18},
		{256, 12288, 8, 0}, {257, 12288, 8, 9}, {2048, 12288, 8, 2048},
		{16384, 4, 8, 0}, {16385, 4, 8, 9}, {2048, 8256, 8, 0}, {2048, 8224, 8, 0},
		{2048, 8192, 0, 0}, {0, 8192, 8, 0},
	} {
		if got := WalkMisses(c.l, c.s, 1<<20, c.ways); got != c.want {
			t.Errorf("%d lines at stride %d, %d ways: %d missed, want %d", c.l, c.s, c.ways, got, c.want)
		}
	}
}

// TestWalks checks the walks' strides by hand: colwalk's a moves a row,
// 4p bytes, a step of its reduction, and out is stored outside it;
// atax2's a[i*ny + j] moves 4 ny bytes and tmp[i] 4 along the loop over
// i, and y[j] stays; gemm's loop over k walks b by its row, 4 nj bytes,
// and a by 4; a kernel whose loop holds a barrier runs vectorised, no
// walk, and so does one whose reduction is unrolled (matvec_t_unrolled),
// where matvec_t's walks a's column, 4n bytes a row, and v, 4.
func TestWalks(t *testing.T) {
	params := map[string]int64{"n": 300, "nr": 7, "p": 333, "nx": 40, "ny": 24, "ni": 8, "nj": 72, "nk": 5}
	for _, c := range []struct {
		file string
		src  string
		want map[string][]int64
	}{
		{"colwalk.knl", colWalk, map[string][]int64{"a": {4 * 333}}},
		{"../../../examples/atax2.knl", "", map[string][]int64{"a": {4 * 24}, "tmp": {4}}},
		{"../../../examples/gemm.knl", "", map[string][]int64{"a": {4}, "b": {4 * 72}}},
		{"../../../measurekernels/library/matmul_tiled.knl", "", map[string][]int64{}},
		{"../../../measurekernels/library/matvec_t_unrolled.knl", "", map[string][]int64{}},
		{"../../../measurekernels/library/matvec_t.knl", "", map[string][]int64{"a": {4 * 300}, "v": {4}}},
	} {
		k := parseKernel(t, c.file, c.src)
		got, err := Walks(k, params)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: walks %v, want %v", c.file, got, c.want)
		}
	}
}

func parseKernel(t *testing.T, file, src string) *counts.Kernel {
	t.Helper()
	var data []byte
	if src != "" {
		data = []byte(src)
	} else {
		_, b, err := models.Files(file)
		if err != nil {
			t.Fatal(err)
		}
		data = b
	}
	k, err := counts.ParseKernel(file, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestConflictsLRU checks the conflict lines of colwalk against a
// brute-force oracle: an LRU cache of 64 KiB, 4 ways and 64-byte lines
// (256 sets), fed a's addresses as PoCL runs them on one core (the
// groups in turn, a group's work-items one after the other, each walking
// its column to the end), whose misses beyond each line's first are the
// lines fetched again. Strides of 4 KiB keep 16 lines, 256 KiB 4 (one
// set), 4160 bytes every set; 17 lines at 4 KiB put 5 in one set, which
// misses them all.
func TestConflictsLRU(t *testing.T) {
	k, err := counts.Count(parseKernel(t, "colwalk.knl", colWalk))
	if err != nil {
		t.Fatal(err)
	}
	lv := Levels{L2Core: 64 << 10, Ways: 4}
	cases := []struct{ n, nr, p int64 }{
		{256, 64, 1024}, {256, 16, 1024}, {256, 17, 1024}, {512, 64, 1040}, {1 << 16, 4, 1 << 16}, {1 << 16, 5, 1 << 16}, {512, 40, 1<<16 + 16},
	}
	for _, c := range cases {
		params := map[string]int64{"n": c.n, "nr": c.nr, "p": c.p}
		lost, err := conflictsOf(k, params, c.n, lv)
		if err != nil {
			t.Error(params, err)
			continue
		}
		want := LineBytes * lruRefetches(c.n, c.nr, c.p, 64<<10, 4, 1, 0).refetched
		if lost.Lines != float64(want) {
			t.Errorf("%v: conflicts %g bytes, want %d by LRU", params, lost.Lines, want)
		}
	}
}

// TestConflictFeature checks the feature on atax2 with the EPYC's L2 (1
// MiB, 16 ways a core), by hand: at nx = ny = 2048 a walks a column at 8
// KiB a step, reaching 8 of the 1024 sets, 128 lines, and each work-item touches 2048: every
// line of a a work-item touches beyond its group's first is fetched
// again, 64 (n^2 - n^2/16) bytes; tmp, walked at 4 bytes, fits. At
// 512 the walk's 512 lines fit the 512 its 2 KiB stride keeps: none.
func TestConflictFeature(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, Conflict: true}
	lv, err := levelsOf(env, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if lv.L2Core != 1<<20 || lv.Ways != 16 {
		t.Fatalf("levels %+v, want a core's 1 MiB of L2, 16 ways", lv)
	}
	for _, n := range []float64{2048, 512} {
		c := models.Case{Kernel: "../../../examples/atax2.knl", Params: map[string]int64{"nx": int64(n), "ny": int64(n)}}
		lf, err := facts(env, c, cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		want := 64 * (n*n - n*n/16)
		if n == 512 {
			want = 0
		}
		if got := lf.features[ConflictBytes]; got != want {
			t.Errorf("n = %g: %s = %g, want %g", n, ConflictBytes, got, want)
		}
	}
}

// TestWalkPageMisses checks the TLB misses of a walk by hand: at a
// stride of a page or more each of l steps is a page of its own (2048
// steps of 8 KiB: 2048 pages, past 96 entries; 64 steps of 1 MiB: 64
// pages, within them); at 1 KiB four steps share a page (4096 steps:
// 1024 pages; 300 steps: 75, within 96; 385 steps: 97); at 1536 bytes,
// which does not divide a page, ⌈l·s/4096⌉; unknown entries miss
// nothing. A walk back (−8 KiB, −1 KiB) misses as the walk forward.
func TestWalkPageMisses(t *testing.T) {
	for _, c := range []struct{ l, s, entries, want int64 }{
		{2048, 8192, 96, 2048}, {96, 8192, 96, 0}, {97, 8192, 96, 97}, {64, 1 << 20, 96, 0}, {32, 4 << 20, 16, 32},
		{4096, 1024, 96, 1024}, {300, 1024, 96, 0}, {385, 1024, 96, 97}, {4096, 1536, 96, 1536},
		{2048, 8192, 0, 0}, {0, 8192, 96, 0}, {2048, -8192, 96, 2048}, {4096, -1024, 96, 1024}, {300, -1024, 96, 0},
	} {
		if got := WalkPageMisses(c.l, c.s, c.entries); got != c.want {
			t.Errorf("%d steps of %d bytes, %d entries: %d misses, want %d", c.l, c.s, c.entries, got, c.want)
		}
	}
}

// TestConflictsTLBLRU checks both conflict features of colwalk against
// a brute-force oracle: the LRU cache of TestConflictsLRU (64 KiB, 4
// ways) and a fully associative LRU TLB of 8 entries of 4 KiB pages, fed
// a's addresses in PoCL's order; the lines fetched again whose access
// also missed the TLB are ConflictTLBBytes. Walks of 16 pages or more
// at 4 KiB and 16 KiB lose every line and every page; 6 lines at 4
// KiB fit the 16 lines of the 4 sets they reach, and their 6 pages the
// TLB; 256 steps of 1 KiB lose their lines (64 fit the 16 sets they
// reach) and share 64 pages four steps each, of which the first misses;
// 64 such steps fit both; 17 lines at 4 KiB lose their lines (5 in one
// set) and their 17 pages; a pitch padded by a line loses no line, so
// that none is counted though its 64 pages miss the TLB.
func TestConflictsTLBLRU(t *testing.T) {
	k, err := counts.Count(parseKernel(t, "colwalk.knl", colWalk))
	if err != nil {
		t.Fatal(err)
	}
	lv := Levels{L2Core: 64 << 10, Ways: 4, DTLB: 8}
	cases := []struct{ n, nr, p int64 }{
		{256, 64, 1024}, {256, 16, 1024}, {256, 17, 1024}, {256, 6, 1024}, {256, 64, 4096}, {64, 256, 256}, {64, 64, 256}, {512, 64, 1040},
	}
	for _, c := range cases {
		params := map[string]int64{"n": c.n, "nr": c.nr, "p": c.p}
		lost, err := conflictsOf(k, params, c.n, lv)
		if err != nil {
			t.Error(params, err)
			continue
		}
		sim := lruRefetches(c.n, c.nr, c.p, 64<<10, 4, 8, 0)
		if lost.Lines != float64(LineBytes*sim.refetched) || lost.TLB != float64(LineBytes*sim.tlb) {
			t.Errorf("%v: conflicts %g bytes, %g of them with a TLB miss; want %d and %d by LRU", params, lost.Lines, lost.TLB, LineBytes*sim.refetched, LineBytes*sim.tlb)
		}
	}
}

// lruCounts are what lruRefetches counts of colwalk's loads of a.
type lruCounts struct {
	// refetched is the misses at lines the cache held before, tlb
	// those of them that also missed the TLB.
	refetched, tlb int64
	// pastLine is the refetches at a walk's steps past its knee-th
	// (0-based step knee on), pastPage those at the first step on
	// each of its pages past its knee-th.
	pastLine, pastPage int64
}

// lruRefetches simulates colwalk's loads of a at n, nr, p in an LRU
// cache of size bytes and ways ways with 64-byte lines, the work-items
// in order, beside a fully associative LRU TLB of entries 4 KiB pages,
// and counts the refetches (lruCounts) against a walk's knee.
func lruRefetches(n, nr, p, size, ways, entries, knee int64) lruCounts {
	var out lruCounts
	cache := newLRU(size, ways)
	var tlb []int64 // pages, most recent last
	seen := map[int64]bool{}
	for i := range n {
		prevPage, ordinal := int64(-1), int64(-1) // the walk's last page and how many it left before it
		for r := range nr {
			addr := (r*p + i) * 4
			page, line := addr/PageBytes, addr/64
			newPage := page != prevPage
			if newPage {
				prevPage, ordinal = page, ordinal+1
			}
			tlbMiss := true
			if j := slices.Index(tlb, page); j >= 0 {
				tlb, tlbMiss = slices.Delete(tlb, j, j+1), false
			} else if int64(len(tlb)) == entries {
				tlb = tlb[1:]
			}
			tlb = append(tlb, page)
			if cache.touch(line) {
				continue
			}
			if seen[line] {
				out.refetched++
				if tlbMiss {
					out.tlb++
				}
				if r >= knee {
					out.pastLine++
				}
				if newPage && ordinal >= knee {
					out.pastPage++
				}
			}
			seen[line] = true
		}
	}
	return out
}

// lru is a set-associative LRU cache of 64-byte lines, its sets indexed
// by consecutive lines: the oracle of the conflict tests.
type lru struct {
	sets [][]int64 // each set's lines, most recent last
	ways int64
}

func newLRU(size, ways int64) *lru { return &lru{sets: make([][]int64, size/64/ways), ways: ways} }

// touch reports whether the cache held line, which it holds after as its
// set's most recent, the least recent evicted where the set was full.
func (c *lru) touch(line int64) bool {
	s := line % int64(len(c.sets))
	set := c.sets[s]
	if j := slices.Index(set, line); j >= 0 {
		c.sets[s] = append(slices.Delete(set, j, j+1), line)
		return true
	}
	if int64(len(set)) == c.ways {
		set = set[1:]
	}
	c.sets[s] = append(set, line)
	return false
}

// TestConflictTLBFeature checks the TLB feature with the EPYC's device
// file (96 entries) by hand: atax2 at nx = ny = 2048 walks a 2048 steps
// of 8 KiB, 2048 pages, and loses every line (TestConflictFeature), so
// that every lost line misses the TLB too; at 1024 its 1024 steps of 4
// KiB reach 16 sets, 256 lines, and lose all 1024 lines and pages,
// 64 (n^2 - n^2/16) bytes both. reread_l2 at nr = 4096, LX = 256 walks
// 4096 steps of 1 KiB (1024 lines in its 64 sets: it loses them all),
// 1024 pages, one step in four on a new page: a quarter of its lost
// lines, 64·(n·nr - (n/256)·nr·16)/4 bytes.
func TestConflictTLBFeature(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, Conflict: true, ConflictTLB: true}
	lv, err := levelsOf(env, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if lv.DTLB != 96 {
		t.Fatalf("levels %+v, want a TLB of 96 pages", lv)
	}
	for _, c := range []struct {
		kernel string
		params map[string]int64
		want   float64
	}{
		{"../../../examples/atax2.knl", map[string]int64{"nx": 2048, "ny": 2048}, 64 * (2048*2048 - 2048*2048/16)},
		{"../../../examples/atax2.knl", map[string]int64{"nx": 1024, "ny": 1024}, 64 * (1024*1024 - 1024*1024/16)},
		{"../../../measurekernels/library/reread_l2.knl", map[string]int64{"n": 16384, "nr": 4096}, 64 * (16384*4096 - 64*4096*16) / 4},
	} {
		lf, err := facts(env, models.Case{Kernel: c.kernel, Params: c.params}, cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.features[ConflictTLBBytes]; got != c.want {
			t.Errorf("%s %v: %s = %g, want %g (%s = %g)", c.kernel, c.params, ConflictTLBBytes, got, c.want, ConflictBytes, lf.features[ConflictBytes])
		}
	}
}

// TestConflictTLBUnknown checks that a device file without the TLB's
// entries counts no TLB-missing lines (so that Calibrate leaves
// ConflictTLB off) and still the conflict lines.
func TestConflictTLBUnknown(t *testing.T) {
	dev := *modeltest.Device(t, "pocl-cpu")
	caches := *dev.Caches
	caches.DTLBEntries = 0
	dev.Caches = &caches
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: &dev}
	cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, Conflict: true, ConflictTLB: true}
	lv, err := levelsOf(env, cfg)
	if err != nil {
		t.Fatal(err)
	}
	lf, err := facts(env, models.Case{Kernel: "../../../examples/atax2.knl", Params: map[string]int64{"nx": 2048, "ny": 2048}}, cfg, lv)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := lf.features[ConflictTLBBytes]; ok || lf.features[ConflictBytes] == 0 {
		t.Errorf("no TLB in the device file: %s = %g (present %v), %s = %g; want none, and the conflict lines", ConflictTLBBytes, v, ok, ConflictBytes, lf.features[ConflictBytes])
	}
}
