package hierarchy

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestTrafficWarm checks Levels.Warm on hand-made footprints. In bytes:
// a launch of 120 distinct bytes, 300 over its 3 groups, 400 streamed,
// beyond a last cache of 119 (DRAM the groups' 300): a warm cache of
// 120 holds it and leaves DRAM 0, one of 119 does not. In lines: 640
// bytes of lines a launch, 1280 over 2 groups, 2560 over the
// work-items; a group's 640 exceed L1 (500), so L2 is the items' 2560,
// and the launch exceeds the last cache (600) while a group exceeds a
// core's share (300), so DRAM is L2's 2560, 1280 of it refetched; a
// warm cache of 640 takes DRAM and the refetched lines to 0, one of 639
// leaves them. L2 is the same either way.
func TestTrafficWarm(t *testing.T) {
	cs := map[string]int64{"global.load.f32.stride=1": 100, "global.store.f64.stride=0": 10}
	bytes := &Footprints{Launch: 120, Group: 300, ReusedBytes: 80, ReusedLoads: 20}
	lines := &Footprints{Launch: 120, Group: 300, Lines: true, LaunchLines: 640, GroupLines: 1280, ItemLines: 2560}
	for _, c := range []struct {
		name                string
		f                   *Footprints
		groups              int64
		lv                  Levels
		dram, l2, refetched float64
	}{
		{"bytes, no warm cache", bytes, 3, Levels{L1: 100, LLC: 119}, 300, 300, 0},
		{"bytes, fits the warm cache", bytes, 3, Levels{L1: 100, LLC: 119, Warm: 120}, 0, 300, 0},
		{"bytes, a byte beyond it", bytes, 3, Levels{L1: 100, LLC: 119, Warm: 119}, 300, 300, 0},
		{"lines, no warm cache", lines, 2, Levels{L1: 500, LLC: 600, Core: 300}, 2560, 2560, 1280},
		{"lines, fits the warm cache", lines, 2, Levels{L1: 500, LLC: 600, Core: 300, Warm: 640}, 0, 2560, 0},
		{"lines, a byte beyond it", lines, 2, Levels{L1: 500, LLC: 600, Core: 300, Warm: 639}, 2560, 2560, 1280},
	} {
		tr := TrafficOf(cs, c.f, c.groups, c.lv)
		if tr.DRAM != c.dram || tr.L2 != c.l2 || tr.Refetched != c.refetched {
			t.Errorf("%s: DRAM %g, L2 %g, refetched %g; want %g, %g, %g", c.name, tr.DRAM, tr.L2, tr.Refetched, c.dram, c.l2, c.refetched)
		}
	}
}

// TestWarmFeature checks mem.dram.bytes of global_copy (one f32 load
// and one store a work-item, 8n bytes in 8n/64 whole lines, every
// level alike) on pocl-cpu.json: its L3 a core complex shares is
// 33554432 bytes, n = 2^22 exactly; its last cache, the 2 MiB L2,
// n = 2^18. At a size that fits, the warm cache leaves no DRAM bytes;
// 256 work-items more (a group, 2 KiB) and it gives all 8n, as the form
// without it does at every size.
func TestWarmFeature(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	for _, c := range []struct {
		warm string
		n    int64
		want float64
	}{
		{"", 1 << 22, 8 << 22},
		{"", 1 << 18, 8 << 18},
		{WarmL3, 1 << 22, 0},
		{WarmL3, 1<<22 + 256, 8 * (1<<22 + 256)},
		{WarmL3, 1 << 18, 0},
		{WarmLLC, 1 << 18, 0},
		{WarmLLC, 1<<18 + 256, 8 * (1<<18 + 256)},
		{WarmLLC, 1 << 22, 8 << 22},
	} {
		cfg := Config{Form: FormMaxGroups, Levels: true, Reuse: true, Lines: true, LLC: "l2", Warm: c.warm}
		lv, err := levelsOf(env, cfg)
		if err != nil {
			t.Fatal(err)
		}
		lf, err := facts(env, models.Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": c.n}}, cfg, lv)
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.features[DRAMBytes]; got != c.want || lf.features[L2Bytes] != float64(8*c.n) {
			t.Errorf("warm %q, n = %d: %s %g, %s %g; want %g, %d", c.warm, c.n, DRAMBytes, got, L2Bytes, lf.features[L2Bytes], c.want, 8*c.n)
		}
	}
}

// TestWarmRefused checks that Config.Warm names a cache, comes with
// Levels, and that WarmL3 needs the device file's l3_shared_bytes,
// which the H100's file does not give.
func TestWarmRefused(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Levels: true, Warm: "l2"}, `config.warm "l2"`},
		{Config{Warm: WarmL3}, "config.warm without config.levels"},
	} {
		if err := c.cfg.checkPairs(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.cfg, err, c.want)
		}
	}
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "h100-sxm5")}
	if _, err := levelsOf(env, Config{Levels: true, LLC: "l2", Warm: WarmL3}); err == nil || !strings.Contains(err.Error(), "caches.l3_shared_bytes") {
		t.Errorf("h100-sxm5 with warm l3: %v, want an error naming caches.l3_shared_bytes", err)
	}
	if lv, err := levelsOf(env, Config{Levels: true, LLC: "l2", Warm: WarmLLC}); err != nil || lv.Warm != lv.LLC || lv.LLC != 52428800 {
		t.Errorf("h100-sxm5 with warm llc: %+v, %v; want the 52428800-byte L2", lv, err)
	}
}
