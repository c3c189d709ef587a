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

// TestWalkPast checks the steps past a walk's knee by hand: 2048 steps
// of 8 KiB are 2048 lines and 2048 pages, 1536 past 512 either way; 4096
// steps of 1 KiB are 4096 lines but 1024 pages (four steps a page), 3584
// and 512 past 512; 300 steps of 1 KiB, 75 pages, none past 512 pages
// and none past 768 lines; a knee of 0 is off. A walk back (stride
// −8 KiB, −1 KiB) has the lines and pages of the walk forward.
func TestWalkPast(t *testing.T) {
	for _, c := range []struct {
		l, s, knee int64
		pages      bool
		want       int64
	}{
		{2048, 8192, 512, false, 1536}, {2048, 8192, 512, true, 1536},
		{4096, 1024, 512, false, 3584}, {4096, 1024, 512, true, 512},
		{300, 1024, 512, true, 0}, {300, 1024, 768, false, 0}, {2048, 8192, 0, false, 0}, {0, 8192, 512, false, 0},
		{2048, -8192, 512, true, 1536}, {4096, -1024, 512, false, 3584}, {4096, -1024, 512, true, 512},
	} {
		if got := WalkPast(c.l, c.s, c.knee, c.pages); got != c.want {
			t.Errorf("%d steps of %d bytes, knee %d (pages %v): %d past, want %d", c.l, c.s, c.knee, c.pages, got, c.want)
		}
	}
}

// TestConflictsLongLRU checks Lost.Long of colwalk against the
// brute-force LRU cache of TestConflictsLRU (64 KiB, 4 ways), which
// counts the lines fetched again at a walk's steps past its knee-th
// (lines) or at the first step on each page past its knee-th (pages):
// 64 steps of 4 KiB or 16 KiB lose every line, and are 64 pages; 256
// steps of 1 KiB lose every line, four steps a page, 64 pages; 16 steps
// of 4 KiB and a pitch padded by a line lose none. Knees of 16 and 40
// fall inside the walks, 300 past all of them.
func TestConflictsLongLRU(t *testing.T) {
	k, err := counts.Count(parseKernel(t, "colwalk.knl", colWalk))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ n, nr, p int64 }{{256, 64, 1024}, {256, 64, 4096}, {64, 256, 256}, {256, 16, 1024}, {512, 64, 1040}} {
		params := map[string]int64{"n": c.n, "nr": c.nr, "p": c.p}
		for _, knee := range []int64{16, 40, 300} {
			sim := lruRefetches(c.n, c.nr, c.p, 64<<10, 4, 1, knee)
			for _, pages := range []bool{false, true} {
				lost, err := conflictsOf(k, params, c.n, Levels{L2Core: 64 << 10, Ways: 4, Knee: knee, KneePages: pages})
				if err != nil {
					t.Fatal(params, err)
				}
				want := sim.pastLine
				if pages {
					want = sim.pastPage
				}
				if lost.Long != float64(LineBytes*want) {
					t.Errorf("%v, knee %d (pages %v): %g bytes past the knee, want %d by LRU", params, knee, pages, lost.Long, LineBytes*want)
				}
			}
		}
	}
}

// TestConflictLongFeature checks the feature with the EPYC's device
// file by hand: column_walk at n = nr = 2048 and an 8 KiB pitch loses
// every line a work-item touches beyond its group's first
// (TestConflictFeature's atax2), 64 (n·nr - n·nr/16) bytes, of which a
// knee of 512 lines or pages leaves 1536 of 2048 steps; padded by a
// line (p = 2064) it loses none. reread_l2 at nr = 4096, LX = 256, walks
// 4096 steps of 1 KiB (TestConflictTLBFeature): past 512 lines, 3584 of
// them; past 512 pages, 512 of its 1024 pages' first steps.
func TestConflictLongFeature(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	colwalk := "../../../measurekernels/library/column_walk.knl"
	reread := "../../../measurekernels/library/reread_l2.knl"
	const n, nr = 2048, 2048
	walkLost := 64.0 * (n*nr - n*nr/16)
	rereadLost := 64.0 * (16384*4096 - 64*4096*16)
	for _, c := range []struct {
		kernel string
		params map[string]int64
		long   string
		want   float64
	}{
		{colwalk, map[string]int64{"n": n, "nr": nr, "p": 2048}, LongLines, walkLost * 1536 / 2048},
		{colwalk, map[string]int64{"n": n, "nr": nr, "p": 2048}, LongPages, walkLost * 1536 / 2048},
		{colwalk, map[string]int64{"n": n, "nr": nr, "p": 2064}, LongLines, 0},
		{reread, map[string]int64{"n": 16384, "nr": 4096}, LongLines, rereadLost * 3584 / 4096},
		{reread, map[string]int64{"n": 16384, "nr": 4096}, LongPages, rereadLost * 512 / 4096},
	} {
		cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, Conflict: true, LongWalk: c.long, LongKnee: 512}
		lv, err := levelsOf(env, cfg)
		if err != nil {
			t.Fatal(err)
		}
		lf, err := facts(env, models.Case{Kernel: c.kernel, Params: c.params}, cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.features[ConflictLongBytes]; got != c.want {
			t.Errorf("%s %v, %s: %s = %g, want %g (%s = %g)", c.kernel, c.params, c.long, ConflictLongBytes, got, c.want, ConflictBytes, lf.features[ConflictBytes])
		}
	}
}

// TestCalibrateKnee checks that a form with LongWalk and no knee keeps,
// of KneeGrid and the form without the feature, the calibration of least
// squared relative error, against every knee calibrated on its own, on
// the shipped EPYC table's empty rows and its column_walk rows: all of
// them (walks of up to 2048 lines, past every knee), and those of walks
// of at most 512 lines (past 256 only: at 512 and later knees the
// calibration is the one without the feature, a candidate like the
// others). On rows with no long walk (reuse_group's) the feature is left
// off.
func TestCalibrateKnee(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := epycRows(t)
	cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, ScalarLoops: true, Conflict: true, LongWalk: LongLines, LLC: "l2", Saturation: FillNone}
	walks := rows("empty", "column_walk")
	short := slices.DeleteFunc(slices.Clone(walks), func(r models.Row) bool { return r.Params["nr"] > 512 })
	for _, set := range []struct {
		name string
		rows []models.Row
	}{{"all", walks}, {"up to 512 lines", short}} {
		m := &Model{Config: cfg}
		if err := m.Calibrate(env, set.rows); err != nil {
			t.Fatal(err)
		}
		objs := map[int64]float64{}
		var err error
		for _, k := range KneeGrid {
			c := &Model{Config: cfg}
			c.Config.LongKnee = k
			if objs[k], err = c.calibrate(env, set.rows); err != nil {
				t.Fatal(err)
			}
		}
		got, ok := objs[m.Config.LongKnee]
		if m.Config.LongWalk == "" {
			got, ok = objs[KneeGrid[len(KneeGrid)-1]], set.name != "all"
		}
		if !ok || (m.Config.LongWalk != LongLines && m.Config.LongWalk != "") {
			t.Fatalf("%s: long walks %q past %d: want lines, a knee of %v", set.name, m.Config.LongWalk, m.Config.LongKnee, KneeGrid)
		}
		for k, o := range objs {
			if o < got {
				t.Errorf("%s: knee %d: squared relative error %g, below the chosen calibration's %g (long walks %q past %d)", set.name, k, o, got, m.Config.LongWalk, m.Config.LongKnee)
			}
		}
	}
	m := &Model{Config: cfg}
	if err := m.Calibrate(env, rows("empty", "reuse_group")); err != nil {
		t.Fatal(err)
	}
	if m.Config.LongWalk != "" || m.Config.LongKnee != 0 || slices.Contains(m.Properties, ConflictLongBytes) {
		t.Errorf("no long walk in the rows: long walks %q past %d, properties %v; want it off", m.Config.LongWalk, m.Config.LongKnee, m.Properties)
	}
}

// TestCalibrationKnee checks that a calibration file keeps the knee that
// Calibrate fitted: written and read back, the model predicts column_walk
// at 2048 lines as the calibrated one does, its long walks priced past
// the same knee. A file written before long walks (no long_walk) loads
// with them off; one whose long_walk names no measure, or has no knee
// (edited by hand), is refused, naming the file and the field.
func TestCalibrationKnee(t *testing.T) {
	dev := modeltest.Device(t, "pocl-cpu")
	env := &models.Env{Counter: models.NewCounter(nil), Device: dev}
	m := &Model{Config: Chosen("cpu")}
	if err := m.Calibrate(env, epycRows(t)("empty", "column_walk")); err != nil {
		t.Fatal(err)
	}
	if m.Config.LongWalk != LongPages || !slices.Contains(KneeGrid, m.Config.LongKnee) {
		t.Fatalf("long walks %q past %d: want pages past a knee of %v", m.Config.LongWalk, m.Config.LongKnee, KneeGrid)
	}
	data, err := models.EncodeCalibration(m, "epyc", dev, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, back, err := models.DecodeCalibration("c.json", data, "hierarchy")
	if err != nil {
		t.Fatal(err)
	}
	c := models.Case{Kernel: "column_walk", Params: map[string]int64{"n": 2048, "nr": 2048, "p": 2048}}
	want, err := m.Predict(env, c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.Predict(env, c)
	if err != nil {
		t.Fatal(err)
	}
	if k := back.(*Model).Config.LongKnee; got.Seconds != want.Seconds || k != m.Config.LongKnee {
		t.Errorf("read back: knee %d, %g s; want knee %d, %g s", k, got.Seconds, m.Config.LongKnee, want.Seconds)
	}
	walk, knee := `"long_walk": "pages",`, fmt.Sprintf(`"long_knee": %d,`, m.Config.LongKnee)
	edit := func(pairs ...string) []byte {
		return []byte(strings.NewReplacer(pairs...).Replace(string(data)))
	}
	if _, old, err := models.DecodeCalibration("c.json", edit(walk, "", knee, ""), "hierarchy"); err != nil || old.(*Model).Config.LongWalk != "" {
		t.Errorf("without long_walk and long_knee: %v, want long walks off", err)
	}
	for _, c := range []struct {
		file []byte
		want string
	}{
		{edit(knee, ""), `c.json: the hierarchy calibration: config.long_walk "pages" with long_knee 0: the knee is a walk's pages past which`},
		{edit(knee, `"long_knee": -5,`), `config.long_walk "pages" with long_knee -5`},
		{edit(walk, `"long_walk": "page",`), `c.json: the hierarchy calibration: config.long_walk "page": want "lines" or "pages", or leave it out`},
	} {
		if _, _, err := models.DecodeCalibration("c.json", c.file, "hierarchy"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want an error containing %q", err, c.want)
		}
	}
}
