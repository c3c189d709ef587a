package hierarchy

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestContext checks Config.Context against sizes and counts derived by
// hand from examples/matmul_kernel.knl at n = 256, on pocl-cpu.json's
// 49152-byte L1 and 1048576-byte L2 a core (2 MiB over 2 cores).
//
// A work-item's context (counts.Kernel.ContextBytes) is 8 bytes for
// each of TY + TX*ceil(BX/BY) + BX*(TX + TY) addresses and 4 for each of
// its TX*TY sums. 32x32 blocks with 8x8 tiles: 8*(8 + 8 + 32*16) + 256
// = 4480 bytes, 4587520 a 1024-item group, beyond L2. 16x32 blocks with
// 4x8 tiles (TX = 4, TY = 8): 8*(8 + 4 + 16*12) + 128 = 1760 bytes,
// 901120 a 512-item group, beyond L1 and within L2. 16x1 blocks with
// 2x4 tiles: 8*(4 + 32 + 16*6) + 32 = 1088 bytes, 17408 a 16-item group,
// within L1.
//
// The local accesses (TestLocalFootprint derives the first two): 32x32,
// 8x8 stores 131072 and loads 33554432; 16x32, 4x8 stores 327680 and
// loads 33554432; 16x1, 2x4 loads 2n^3 = 33554432 and stores every cell
// of A once per column block, n^2 * n/32, and of B once per row block,
// n^2 * n/4: 524288 + 4194304 = 4718592.
func TestContext(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	const kernel = "../../../examples/matmul_kernel.knl"
	params := map[string]int64{"n": 256}
	big := map[string]int64{"BX": 32, "BY": 32, "TX": 8, "TY": 8}
	mid := map[string]int64{"BX": 16, "BY": 32, "TX": 4, "TY": 8}
	small := map[string]int64{"BX": 16, "BY": 1, "TX": 2, "TY": 4}
	device, err := levelsOf(env, Config{LLC: "l2", Context: ContextL2})
	if err != nil {
		t.Fatal(err)
	}
	if device.L1 != 49152 || device.L2Core != 1048576 {
		t.Fatalf("pocl-cpu levels: L1 %d, L2 a core %d; want 49152, 1048576", device.L1, device.L2Core)
	}
	bigAcc, midAcc, smallAcc := 131072.0+33554432, 327680.0+33554432, 4718592.0+33554432
	for _, c := range []struct {
		name   string
		consts map[string]int64
		level  string
		l1     int64
		tied   bool
		want   map[string]float64 // the local accesses' features, every other absent
	}{
		{"big, two levels", big, ContextL2, device.L1, true, map[string]float64{"local.ctx3.access.f32": bigAcc}},
		{"big, one level", big, ContextL1, device.L1, true, map[string]float64{"local.ctx2.access.f32": bigAcc}},
		{"big, untied", big, ContextL2, device.L1, false, map[string]float64{"local.ctx3.load.f32": 33554432, "local.ctx3.store.f32": 131072}},
		{"mid, two levels", mid, ContextL2, device.L1, true, map[string]float64{"local.ctx2.access.f32": midAcc}},
		{"mid, one level", mid, ContextL1, device.L1, true, map[string]float64{"local.ctx2.access.f32": midAcc}},
		{"small", small, ContextL2, device.L1, true, map[string]float64{"local.access.f32": smallAcc}},
		{"small, L1 exactly its bytes", small, ContextL2, 17408, true, map[string]float64{"local.access.f32": smallAcc}},
		{"small, L1 one byte short", small, ContextL2, 17407, false, map[string]float64{"local.ctx2.load.f32": 33554432, "local.ctx2.store.f32": 4718592}},
		{"small, no L1", small, ContextL2, 0, true, map[string]float64{"local.access.f32": smallAcc}},
	} {
		cs := models.Case{Kernel: kernel, Consts: c.consts, Params: params}
		lv := device
		lv.L1 = c.l1
		cfg := Config{Form: FormMaxGroups, LocalAccesses: c.tied, Context: c.level, LLC: "l2"}
		lf, err := facts(env, cs, cfg, lv)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkLocalFeatures(t, c.name, lf.features, c.want)
	}
}

// TestContextPairs checks that Config.Context names a level and does
// not come with LocalFootprint.
func TestContextPairs(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Context: "l3"}, `config.context "l3"`},
		{Config{Context: ContextL1, LocalFootprint: true}, "config.context and config.local_footprint"},
	} {
		if err := c.cfg.checkPairs(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.cfg, err, c.want)
		}
	}
	for _, level := range []string{"", ContextL1, ContextL2} {
		if err := (Config{Context: level}).checkPairs(); err != nil {
			t.Errorf("context %q: %v", level, err)
		}
	}
}

// TestContextCalibrates: on rows whose groups all keep their context
// within L1 (the shipped hierarchy table's empty and local_tile rows:
// local_tile keeps x alone, 4 bytes a work-item, 1 KiB a group) the
// Context weights cannot be fitted, and Calibrate drops the option, as
// its Summary says.
func TestContextCalibrates(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := hierarchyRows(t, "empty", "local_tile")
	for _, level := range []string{ContextL1, ContextL2} {
		cfg := Chosen("cpu")
		cfg.Context = level
		m := &Model{Config: cfg}
		if err := m.Calibrate(env, rows); err != nil {
			t.Fatal(err)
		}
		if m.Config.Context != "" || !strings.Contains(m.Summary(), `context levels ""`) {
			t.Errorf("context %q: calibrated with %q (%s), want none", level, m.Config.Context, m.Summary())
		}
	}
}
