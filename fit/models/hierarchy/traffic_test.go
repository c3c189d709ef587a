package hierarchy

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestTrafficOfLevels checks each branch of TrafficOf on hand-made
// counts: 100 f32 loads (400 B), 10 f64 stores (80 B), 20 loads
// reused (80 B), so 400 streamed bytes.
func TestTrafficOfLevels(t *testing.T) {
	cs := map[string]int64{"global.load.f32.stride=1": 100, "global.store.f64.stride=0": 10,
		"global.minldst.f32.stride=1": 10, "flop.f32.add": 7}
	f := &Footprints{Launch: 120, Group: 300, ReusedBytes: 80, ReusedLoads: 20}
	for _, c := range []struct {
		name        string
		f           *Footprints
		groups      int64
		lv          Levels
		dram, l2, s float64
	}{
		{"fits both", f, 3, Levels{L1: 100, LLC: 120}, 120, 300, 400},
		{"launch beyond LLC", f, 3, Levels{L1: 100, LLC: 119}, 300, 300, 400},
		{"group beyond L1", f, 3, Levels{L1: 99, LLC: 120}, 120, 400, 400},
		{"beyond both", f, 3, Levels{L1: 99, LLC: 119}, 300, 400, 400},
		{"groups beyond streamed", &Footprints{Launch: 120, Group: 450, ReusedBytes: 80}, 3, Levels{L1: 150, LLC: 100}, 400, 400, 400},
		{"no hierarchy counts", nil, 3, Levels{L1: 1 << 20, LLC: 1 << 30}, 480, 480, 480},
	} {
		tr := TrafficOf(cs, c.f, c.groups, c.lv)
		if tr.DRAM != c.dram || tr.L2 != c.l2 || tr.Streamed != c.s || tr.Loads != 100 || tr.Counted != (c.f != nil) {
			t.Errorf("%s: got %+v, want DRAM %g, L2 %g, streamed %g, 100 loads", c.name, tr, c.dram, c.l2, c.s)
		}
	}
}

// TestAccessesNarrowAndReadOnly checks the bytes of every element width
// counts names and of loads through the read-only path, by hand: 7 b8
// loads (7 B), 5 b16 stores (10 B), 3 f16 loads (6 B), 2 f16 stores
// (4 B), 11 ldg i32 loads (44 B), 1 f64 load (8 B); gathers have their
// own properties and move no counted bytes here.
func TestAccessesNarrowAndReadOnly(t *testing.T) {
	cs := map[string]int64{"global.load.b8.stride=1": 7, "global.store.b16.stride=0": 5,
		"global.load.f16.stride=1": 3, "global.store.f16.stride=1": 2, "global.ldg.i32.stride=1": 11,
		"global.load.f64.stride=2": 1, "global.load.indirect.f32": 13, "local.load.f32": 17}
	loads, lb, sb := Accesses(cs)
	if loads != 7+3+11+1 || lb != 7+6+44+8 || sb != 10+4 {
		t.Errorf("got %g loads, %g load bytes, %g store bytes; want 22, 65, 14", loads, lb, sb)
	}
}

// TestTrafficClosedForms checks the traffic of three corpus-like
// kernels, counted, against closed forms derived by hand from their
// text (bytes of f32 cells):
//
//	gemm (groups of 32 x 8, c[i][j] scaled then accumulated over k):
//	  streamed 4(4 ni nj nk + 2 ni nj), launch 4(ni nk + nk nj + ni nj),
//	  groups' 4(ni nk ceil(nj/32) + nk nj ceil(ni/8) + ni nj); the loads
//	  of c repeat at cells it stores, which stay priced.
//	transpose (16 x 16 tiles through local memory): streamed, launch
//	  and groups' all 8 w h.
//	rowscale (x[i] loaded for every k): m - 1 of work-item i's loads of
//	  x[i] are reused, streamed 4(2 n m + n), launch 4(n + m + n m),
//	  groups' (n/64) 4(64 + m + 64 m).
func TestTrafficClosedForms(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	ceil := func(a, b float64) float64 { return float64(int64((a + b - 1) / b)) }
	type want struct{ streamed, launch, group, groups, reused float64 }
	cases := []struct {
		kernel string
		params map[string]int64
		want   want
	}{}
	for _, s := range [][3]float64{{64, 64, 64}, {40, 100, 7}, {256, 512, 128}} {
		ni, nj, nk := s[0], s[1], s[2]
		cases = append(cases, struct {
			kernel string
			params map[string]int64
			want   want
		}{"../../../examples/gemm.knl", map[string]int64{"ni": int64(ni), "nj": int64(nj), "nk": int64(nk)}, want{
			4 * (4*ni*nj*nk + 2*ni*nj), 4 * (ni*nk + nk*nj + ni*nj),
			4 * (ni*nk*ceil(nj, 32) + nk*nj*ceil(ni, 8) + ni*nj), ceil(ni, 8) * ceil(nj, 32), 0}})
	}
	for _, s := range [][2]float64{{64, 64}, {256, 1024}} {
		w, h := s[0], s[1]
		cases = append(cases, struct {
			kernel string
			params map[string]int64
			want   want
		}{"../../../examples/transpose.knl", map[string]int64{"width": int64(w), "height": int64(h)}, want{8 * w * h, 8 * w * h, 8 * w * h, w * h / 256, 0}})
	}
	for _, s := range [][2]float64{{64, 1}, {128, 10}, {4096, 333}} {
		n, m := s[0], s[1]
		cases = append(cases, struct {
			kernel string
			params map[string]int64
			want   want
		}{"testdata/rowscale.knl", map[string]int64{"n": int64(n), "m": int64(m)}, want{
			4 * (2*n*m + n), 4 * (n + m + n*m), n / 64 * 4 * (64 + m + 64*m), n / 64, n * (m - 1)}})
	}
	for _, c := range cases {
		w := c.want
		// Capacities either side of each footprint take every branch.
		for _, lv := range []Levels{
			{L1: 1 << 40, LLC: 1 << 40},
			{L1: int64(w.group/w.groups) - 1, LLC: int64(w.launch) - 1},
		} {
			lf, err := facts(env, models.Case{Kernel: c.kernel, Params: c.params}, Config{Form: FormSum, Levels: true, Reuse: true}, lv)
			if err != nil {
				t.Fatalf("%s %v: %v", c.kernel, c.params, err)
			}
			dram, l2 := w.launch, min(w.group, w.streamed)
			if w.launch > float64(lv.LLC) {
				dram = min(w.group, w.streamed)
			}
			if w.group/w.groups > float64(lv.L1) {
				l2 = w.streamed
			}
			tr := lf.traffic
			if !tr.Counted || tr.Streamed != w.streamed || tr.DRAM != min(dram, l2) || tr.L2 != l2 || tr.Reused != w.reused || float64(lf.groups) != w.groups {
				t.Errorf("%s %v at %+v: got %+v with %d groups, want streamed %g, DRAM %g, L2 %g, reused %g, %g groups",
					c.kernel, c.params, lv, tr, lf.groups, w.streamed, min(dram, l2), l2, w.reused, w.groups)
			}
			if lf.features[DRAMBytes] != tr.DRAM || lf.features[L2Bytes] != tr.L2 {
				t.Errorf("%s %v: features %v do not carry the traffic %+v", c.kernel, c.params, lf.features, tr)
			}
		}
	}
}

// TestTrafficOfLines checks TrafficOf in whole lines and LineScale on
// hand-made counts: 100 f32 loads (400 B) in 2 work-groups whose lines
// are 640 B for the launch, 1280 B over the groups and 6400 B over the
// work-items (a column walk: each work-item's element on its own line).
func TestTrafficOfLines(t *testing.T) {
	cs := map[string]int64{"global.load.f32.stride=1": 100}
	walk := &Footprints{Launch: 400, Group: 400, Lines: true, LaunchLines: 640, GroupLines: 1280, ItemLines: 6400}
	for _, c := range []struct {
		name            string
		f               *Footprints
		lv              Levels
		dram, l2, scale float64
	}{
		// A group's 640 B fit L1: its lines come in once; the launch's
		// fit the last cache: DRAM moves each line once.
		{"groups fit L1", walk, Levels{L1: 640, LLC: 640}, 640, 1280, 3.2},
		// Neither fits: each work-item's lines come into L1, and from
		// DRAM each group's.
		{"nothing fits", walk, Levels{L1: 639, LLC: 639}, 1280, 6400, 16},
		// A group's 640 B of lines fit the core's share of the last
		// cache: each comes from DRAM once; they do not: every line
		// that comes into L1 comes from DRAM.
		{"groups fit the core's share", walk, Levels{L1: 639, LLC: 639, Core: 640}, 1280, 6400, 16},
		{"groups beyond the core's share", walk, Levels{L1: 639, LLC: 639, Core: 639}, 6400, 6400, 16},
		{"launch fits the last cache", walk, Levels{L1: 639, LLC: 640, Core: 1}, 640, 6400, 16},
		// Fewer line bytes than used bytes (every line used in full and
		// reused): the accesses keep their price.
		{"lines used in full", &Footprints{Launch: 400, Group: 400, Lines: true, LaunchLines: 320, GroupLines: 320, ItemLines: 320}, Levels{L1: 1 << 20, LLC: 1 << 30}, 320, 320, 1},
		{"no line counts", &Footprints{Launch: 400, Group: 400}, Levels{L1: 1 << 20, LLC: 1 << 30}, 400, 400, 1},
	} {
		tr := TrafficOf(cs, c.f, 2, c.lv)
		if tr.DRAM != c.dram || tr.L2 != c.l2 || tr.Streamed != 400 || tr.LineScale() != c.scale || tr.Lines != c.f.Lines {
			t.Errorf("%s: got %+v (line scale %g), want DRAM %g, L2 %g, streamed 400, line scale %g", c.name, tr, tr.LineScale(), c.dram, c.l2, c.scale)
		}
	}
}

// TestTrafficLinesColumnWalk checks the line traffic of atax2 (y = A^T
// tmp, a work-item per column, 256 a group, each walking its column of
// the nx x ny matrix a) against closed forms, in 64-byte lines of 16
// floats: a work-item touches a line of a in each row, nx/16 lines of tmp
// and one of y; a group's 256 columns are 16 lines of each row, and it
// reads all of tmp; the launch touches each line once. Where nothing
// fits, the global accesses cost LineScale times their price without
// lines.
func TestTrafficLinesColumnWalk(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	for _, s := range [][2]float64{{512, 256}, {256, 1024}} {
		nx, ny := s[0], s[1]
		c := models.Case{Kernel: "../../../examples/atax2.knl", Params: map[string]int64{"nx": int64(nx), "ny": int64(ny)}}
		item := 64 * (nx*ny + ny*nx/16 + ny)
		group := 64 * (nx*ny/16 + ny/256*nx/16 + ny/16)
		launch := 64 * (nx*ny/16 + nx/16 + ny/16)
		for _, lv := range []Levels{{L1: 1 << 40, LLC: 1 << 40}, {L1: int64(group*256/ny) - 1, LLC: int64(launch) - 1}} {
			lines, err := facts(env, c, Config{Form: FormMax, Levels: true, Reuse: true, Lines: true, LineScale: true}, lv)
			if err != nil {
				t.Fatal(err)
			}
			bytes, err := facts(env, c, Config{Form: FormMax, Levels: true, Reuse: true}, lv)
			if err != nil {
				t.Fatal(err)
			}
			dram, l2 := launch, group
			if lv.L1 < 1<<40 {
				dram, l2 = group, item
			}
			tr := lines.traffic
			if !tr.Lines || tr.DRAM != dram || tr.L2 != l2 {
				t.Errorf("%v at %+v: got %+v, want DRAM %g, L2 %g in lines", c.Params, lv, tr, dram, l2)
			}
			scale := max(1, l2/tr.Streamed)
			for name, v := range bytes.features {
				want := v
				if isGlobalAccess(name) {
					want *= scale
				}
				if name != DRAMBytes && name != L2Bytes && lines.features[name] != want {
					t.Errorf("%v at %+v: %s = %g with lines, want %g (%g without, scaled by %g)", c.Params, lv, name, lines.features[name], want, v, scale)
				}
			}
		}
	}
}

// TestRefetch checks the lines a column walk fetches again, on atax2 at
// nx = ny = 2048 with the EPYC's capacities (48 KiB of L1, 2 MiB of L2,
// 1 MiB a core): from the closed forms of TestTrafficLinesColumnWalk,
// each of the 8 groups has 64 (nx ny/16 + nx/16 + ny/16)/8 bytes of
// lines, 2.1 MB, beyond the core's share, so DRAM moves every line into
// L1, the work-items' 64 (nx ny + ny nx/16 + ny) bytes, of which all but
// the groups' lines are refetched; with Refetch they are a feature of
// their own and the DRAM feature keeps the groups' lines. At nx = ny =
// 512 (a group's lines 0.5 MB, the launch's 1 MB) nothing is refetched.
func TestRefetch(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	lv := Levels{L1: 48 << 10, LLC: 2 << 20, Core: 1 << 20}
	cfg := Config{Form: FormMaxGroups, Levels: true, Lines: true, CoreShare: true, Refetch: true}
	for _, n := range []float64{2048, 512} {
		c := models.Case{Kernel: "../../../examples/atax2.knl", Params: map[string]int64{"nx": int64(n), "ny": int64(n)}}
		lf, err := facts(env, c, cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		item := 64 * (n*n + n*n/16 + n)
		group := 64 * (n*n/16 + n/256*n/16 + n/16)
		launch := 64 * (n*n/16 + n/16 + n/16)
		dram, refetch := group, item-group
		if n == 512 {
			dram, refetch = launch, 0
		}
		if tr := lf.traffic; tr.Refetched != refetch || tr.DRAM != dram+refetch {
			t.Errorf("n = %g: traffic %+v, want DRAM %g of which %g refetched", n, tr, dram+refetch, refetch)
		}
		if lf.features[DRAMBytes] != dram || lf.features[RefetchBytes] != refetch {
			t.Errorf("n = %g: features DRAM %g, refetch %g, want %g and %g", n, lf.features[DRAMBytes], lf.features[RefetchBytes], dram, refetch)
		}
	}
}

// TestFootprintsOfCached checks that a launch asked for twice gets its
// closed-form footprints both times (the second from the cache), each in
// a Footprints of its own: facts sets Iter on the one it is given.
func TestFootprintsOfCached(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	c := models.Case{Kernel: "../../../examples/gemm.knl", Params: map[string]int64{"ni": 40, "nj": 100, "nk": 7}}
	const launch = 4 * (40*7 + 7*100 + 40*100)
	first, err := FootprintsOf(env, c, false, false)
	if err != nil {
		t.Fatal(err)
	}
	first.Iter = &IterFootprints{Bytes: 1}
	second, err := FootprintsOf(env, c, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if first == second || second.Iter != nil || first.Launch != launch || second.Launch != launch {
		t.Errorf("second call %p %+v after first %p %+v, want launch footprint %d in each, and no Iter in the second", second, *second, first, *first, launch)
	}
}

// TestFootprintsOfIndirect checks that a kernel with an indirect access
// is refused without Config.Indirect, as other models that read
// FootprintsOf expect, and with it gets its counts: spmv_ellpackr at
// dim = 256, maxrl = 4 (2 groups of 128 rows) touches val and cols,
// 1024 cells of 4 bytes each, all of them a group's own, rowLengths and
// out 256 each, exactly; vec, gathered 1024 times (the row loop counted
// at maxrl trips), at most its 256 cells for the launch and 2 × 256
// summed over the groups.
func TestFootprintsOfIndirect(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	c := models.Case{Kernel: "../../../examples/spmv_ellpackr.knl", Params: map[string]int64{"dim": 256, "maxrl": 4}}
	if _, err := FootprintsOf(env, c, false, false); err == nil || !strings.Contains(err.Error(), "accesses to vec read their subscripts from data") {
		t.Errorf("without indirect: err = %v, want a refusal naming vec", err)
	}
	f, err := FootprintsOf(env, c, false, true)
	if err != nil {
		t.Fatal(err)
	}
	const exact = 4 * (1024 + 1024 + 256 + 256)
	if f.Launch != exact+4*256 || f.Group != exact+4*512 || f.ReusedLoads != 0 {
		t.Errorf("footprints %+v, want launch %d, group %d and no reuse", *f, exact+4*256, exact+4*512)
	}
}
