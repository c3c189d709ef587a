package hierarchy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestConflictsLong2LRU checks Lost.Long2 of colwalk against the
// brute-force LRU cache of TestConflictsLongLRU: with a first knee of 16
// and a second of 40 (inside the walks) or 300 (past them all), Long
// counts the refetches past 16 and Long2 those past the second knee, in
// lines or pages as the LRU walk counts them.
func TestConflictsLong2LRU(t *testing.T) {
	k, err := counts.Count(parseKernel(t, "colwalk.knl", colWalk))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ n, nr, p int64 }{{256, 64, 1024}, {256, 64, 4096}, {64, 256, 256}, {512, 64, 1040}} {
		params := map[string]int64{"n": c.n, "nr": c.nr, "p": c.p}
		first := lruRefetches(c.n, c.nr, c.p, 64<<10, 4, 1, 16)
		for _, knee2 := range []int64{40, 300} {
			sim := lruRefetches(c.n, c.nr, c.p, 64<<10, 4, 1, knee2)
			for _, pages := range []bool{false, true} {
				lost, err := conflictsOf(k, params, c.n, Levels{L2Core: 64 << 10, Ways: 4, Knee: 16, KneePages: pages, Knee2: knee2})
				if err != nil {
					t.Fatal(params, err)
				}
				want, want2 := first.pastLine, sim.pastLine
				if pages {
					want, want2 = first.pastPage, sim.pastPage
				}
				if lost.Long != float64(LineBytes*want) || lost.Long2 != float64(LineBytes*want2) {
					t.Errorf("%v, knees 16 and %d (pages %v): %g and %g bytes past them, want %d and %d by LRU", params, knee2, pages, lost.Long, lost.Long2, LineBytes*want, LineBytes*want2)
				}
			}
		}
	}
}

// TestConflictLong2Feature checks the second knee's feature with the
// EPYC's device file by hand: column_walk at n = nr = 2048 and an 8 KiB
// pitch loses 64 (n·nr - n·nr/16) bytes (TestConflictLongFeature), of
// 2048 steps a page each: past 512 pages 1536 of them, past 1024 pages
// 1024. Without LongSecond there is no second feature.
func TestConflictLong2Feature(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	c := models.Case{Kernel: "../../../measurekernels/library/column_walk.knl", Params: map[string]int64{"n": 2048, "nr": 2048, "p": 2048}}
	const lost = 64.0 * (2048*2048 - 2048*2048/16)
	for _, second := range []bool{true, false} {
		cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, Conflict: true, LongWalk: LongPages, LongKnee: 512, LongSecond: second, LongKnee2: 1024}
		lv, err := levelsOf(env, cfg)
		if err != nil {
			t.Fatal(err)
		}
		lf, err := facts(env, c, cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		want2 := 0.0
		if second {
			want2 = lost * 1024 / 2048
		}
		if got, got2 := lf.features[ConflictLongBytes], lf.features[ConflictLong2Bytes]; got != lost*1536/2048 || got2 != want2 {
			t.Errorf("second knee %v: %s = %g, %s = %g; want %g, %g", second, ConflictLongBytes, got, ConflictLong2Bytes, got2, lost*1536/2048, want2)
		}
	}
}

// TestCalibrateKnees checks that a form with LongSecond and no knees
// keeps, of the pairs of KneeGrid (the first below the second), the
// calibration of least squared relative error, against every pair
// calibrated on its own, on the shipped EPYC table's empty and
// column_walk rows (walks of up to 2048 pages, past every knee), and
// that its Summary names both knees. A calibration whose second knee is
// not above its first is refused.
func TestCalibrateKnees(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := epycRows(t)("empty", "column_walk")
	cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, ScalarLoops: true, Conflict: true, LongWalk: LongPages, LongSecond: true, LLC: "l2", Saturation: FillNone}
	m := &Model{Config: cfg}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	k1, k2 := m.Config.LongKnee, m.Config.LongKnee2
	if !m.Config.LongSecond || !slices.Contains(KneeGrid, k1) || !slices.Contains(KneeGrid, k2) || k1 >= k2 {
		t.Fatalf("long walks past %d and %d (second %v): want two knees of %v, the first below", k1, k2, m.Config.LongSecond, KneeGrid)
	}
	objs := map[[2]int64]float64{}
	for i, a := range KneeGrid {
		for _, b := range KneeGrid[i+1:] {
			c := &Model{Config: cfg}
			c.Config.LongKnee, c.Config.LongKnee2 = a, b
			o, err := c.calibrate(env, rows)
			if err != nil {
				t.Fatal(err)
			}
			objs[[2]int64{a, b}] = o
		}
	}
	got := objs[[2]int64{k1, k2}]
	for ks, o := range objs {
		if o < got {
			t.Errorf("knees %v: squared relative error %g, below the chosen calibration's %g (past %d and %d)", ks, o, got, k1, k2)
		}
	}
	if s := m.Summary(); !strings.Contains(s, fmt.Sprintf("long walks past %d and %d pages", k1, k2)) {
		t.Errorf("summary %q does not name both knees", s)
	}
	bad := m.Config
	bad.LongKnee2 = bad.LongKnee
	if err := bad.checkLong(true); err == nil || !strings.Contains(err.Error(), "the second knee is above the first") {
		t.Errorf("knees %d and %d: %v, want the second knee refused", bad.LongKnee, bad.LongKnee2, err)
	}
}
