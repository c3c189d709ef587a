package hierarchy

import (
	"fmt"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

const localTile = "../../../measurekernels/library/local_tile.knl"

// TestLocalWalks checks the local walks by hand: local_tile stores
// t[c, i_in] along c and loads t[k, LX - 1 - i_in] along k, each a row
// of (LX + PAD)*4 bytes a step, C steps, the next work-item a float
// along; matmul_kernel unrolls kb, ti and tj (as the original's
// #pragma unroll does) and its stores' ra, rb and rt, so that no loop
// of its own walks sA or sB: no walks; matmul_tiled's
// reduction walks ta along k_in, 4 bytes, and tb a row of LX floats.
func TestLocalWalks(t *testing.T) {
	for _, c := range []struct {
		file   string
		consts map[string]int64
		want   string
	}{
		{localTile, map[string]int64{"C": 64, "PAD": 16}, "[{st true local.store.f32 1088 64 4} {ld false local.load.f32 1088 64 4}]"},
		{"../../../examples/matmul_kernel.knl", map[string]int64{"BX": 64, "BY": 16, "TX": 4, "TY": 8},
			"[]"},
		{"../../../measurekernels/library/matmul_tiled.knl", nil, "[{insn_5 false local.load.f32 4 16 0} {insn_5 false local.load.f32 64 16 4}]"},
	} {
		_, src, err := models.Files(c.file)
		if err != nil {
			t.Fatal(err)
		}
		k, err := counts.ParseKernel(c.file, src, c.consts)
		if err != nil {
			t.Fatal(err)
		}
		walks, _, err := LocalWalks(k, map[string]int64{"n": 1024, "nr": 2, "m": 64, "ell": 64})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(walks); got != c.want {
			t.Errorf("%s %v: walks %s, want %s", c.file, c.consts, got, c.want)
		}
	}
}

// TestLocalConflictFeature checks the feature with the EPYC's device
// file (48 KiB L1, 12 ways: 64 sets) by hand on local_tile at n =
// 16384, nr = 4: rows 1 KiB apart step 16 sets, so that a column's C
// lines fall in 4 sets, C/4 a set; beyond 12 a set (C = 52, 64, 512)
// each walk loses all its C lines, and 15 of the 16 work-items that
// share a line fetch it again: 64·n·C·(nr + 1)·15/16 bytes, the stores'
// n·C of the accesses apart with LocalConflictStores. At C = 48 (12 a
// set) and with a row padded by a line (every set) nothing is lost.
func TestLocalConflictFeature(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	cfg := Config{Form: FormMaxGroups, LocalAccesses: true, LocalConflict: true, LLC: "l2"}
	lv, err := levelsOf(env, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if lv.L1 != 48<<10 || lv.L1Ways != 12 {
		t.Fatalf("levels %+v, want a 48 KiB L1 of 12 ways", lv)
	}
	const n, nr = 16384, 4
	for _, c := range []struct{ C, pad, lostC int64 }{{16, 0, 0}, {48, 0, 0}, {52, 0, 52}, {64, 0, 64}, {512, 0, 512}, {64, 16, 0}, {256, 16, 0}} {
		cs := models.Case{Kernel: localTile, Consts: map[string]int64{"C": c.C, "PAD": c.pad}, Params: map[string]int64{"n": n, "nr": nr}}
		for _, apart := range []bool{false, true} {
			cfg.LocalConflictStores = apart
			lf, err := facts(env, cs, cfg, lv)
			if err != nil {
				t.Fatal(err)
			}
			loads, stores := 64*float64(n*c.lostC*nr)*15/16, 64*float64(n*c.lostC)*15/16
			if !apart {
				loads, stores = loads+stores, 0
			}
			if lf.features[LocalConflictBytes] != loads || lf.features[LocalConflictStoreBytes] != stores {
				t.Errorf("C = %d, PAD = %d, stores apart %v: %s = %g, %s = %g; want %g and %g", c.C, c.pad, apart,
					LocalConflictBytes, lf.features[LocalConflictBytes], LocalConflictStoreBytes, lf.features[LocalConflictStoreBytes], loads, stores)
			}
		}
	}
}

// TestLocalConflictsLRU checks the local walks' lost lines of
// local_tile against a brute-force oracle: an LRU set-associative cache
// fed the tile's addresses as PoCL runs them on one core (a group's
// work-items one after the other between barriers, each walking its
// column to the end), whose misses at a line already touched since the
// last barrier are the lines fetched again. Caches of the EPYC's L1 (48
// KiB, 12 ways) and of 8 KiB, 4 ways (32 sets), groups of 256 and 64
// work-items, rows a power of two apart, or beyond it by a line or two
// (rows that start within a line, PAD = 8, are not counted exactly:
// LocalWalk.Lost).
func TestLocalConflictsLRU(t *testing.T) {
	for _, cache := range []struct{ size, ways int64 }{{48 << 10, 12}, {8 << 10, 4}} {
		for _, c := range []struct{ lx, C, pad int64 }{
			{256, 16, 0}, {256, 48, 0}, {256, 49, 0}, {256, 64, 0}, {256, 64, 16}, {256, 128, 32}, {64, 32, 0}, {64, 17, 0}, {64, 80, 16}, {64, 64, 32},
		} {
			_, src, err := models.Files(localTile)
			if err != nil {
				t.Fatal(err)
			}
			kernel, err := counts.ParseKernel(localTile, src, map[string]int64{"LX": c.lx, "C": c.C, "PAD": c.pad})
			if err != nil {
				t.Fatal(err)
			}
			k, err := counts.Count(kernel)
			if err != nil {
				t.Fatal(err)
			}
			const nr = 2
			n := 2 * c.lx
			loads, stores, err := LocalConflicts(k, map[string]int64{"n": n, "nr": nr}, Levels{L1: cache.size, L1Ways: cache.ways})
			if err != nil {
				t.Fatal(err)
			}
			want := 64 * float64(n/c.lx*localTileRefetches(c.lx, c.C, c.pad, nr, cache.size, cache.ways))
			if loads+stores != want {
				t.Errorf("cache %v, LX = %d, C = %d, PAD = %d: lost %g bytes (%g loads', %g stores'), want %g by LRU", cache, c.lx, c.C, c.pad, loads+stores, loads, stores, want)
			}
		}
	}
}

// localTileRefetches simulates one group of local_tile's accesses to t
// (C rows of lx + pad floats) in an LRU cache of size bytes and ways
// ways with 64-byte lines: the stores, work-item by work-item, each
// along its column, then nr rounds of the loads of the mirror-image
// column; it returns the misses at lines touched before since the last
// barrier.
func localTileRefetches(lx, C, pad, nr, size, ways int64) int64 {
	cache := newLRU(size, ways)
	var refetched int64
	seen := map[int64]bool{}
	touch := func(cell int64) {
		line := cell * 4 / 64
		if !cache.touch(line) && seen[line] {
			refetched++
		}
		seen[line] = true
	}
	for l := range lx {
		for c := range C {
			touch(c*(lx+pad) + l)
		}
	}
	for range nr {
		clear(seen)
		for l := range lx {
			for k := range C {
				touch(k*(lx+pad) + lx - 1 - l)
			}
		}
	}
	return refetched
}

// TestLocalWalkLostBack checks LocalWalk.Lost by hand for local_tile's
// column at C = 64 in the EPYC's L1 (48 KiB, 12 ways, 64 sets), walked
// forward and back: 64 rows 1 KiB apart step over 16 sets at a time, so
// the walk's 64 lines share 4 sets, 16 each, past 12 ways: it loses all
// 64; of the 16 work-items 4 bytes apart that share each line, 15
// fetch it again: 60 lines for one walk (64 executions of 64 steps).
func TestLocalWalkLostBack(t *testing.T) {
	for _, stride := range []int64{1024, -1024} {
		w := LocalWalk{Stride: stride, Steps: 64, Across: 4}
		if got := w.Lost(64, 256, 48<<10, 12); got != 60 {
			t.Errorf("stride %d: %g lines lost, want 60", stride, got)
		}
	}
}
