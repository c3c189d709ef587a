package hierarchy

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestLocalFootprint checks Config.LocalFootprint against sizes and
// counts derived by hand from examples/matmul_kernel.knl at n = 256.
//
// Its local arrays are sA f32 [BY*TY, BX] and sB f32 [BX, BX*TX]. At
// 32x32 blocks with 8x8 tiles that is 256*32*4 + 32*256*4 = 65536 bytes,
// beyond pocl-cpu.json's 49152-byte L1; at 16x32 blocks with 8x4 tiles
// (TY = 8, TX = 4) 256*16*4 + 16*64*4 = 20480 bytes, within it.
//
// The accesses: 32x32, 8x8 is one group of 1024 work-items over 8 slabs
// (kk), each work-item storing 8 cells of sA and 8 of sB (rb = 0 only)
// and loading 2 a multiply-add, 8*8*32 of them: 1024*8*16 = 131072
// stores, 1024*8*4096 = 33554432 loads. 16x32, 8x4 is 4 groups of 512
// over 16 slabs, each work-item storing 8 cells of sA and the 16 with
// ty < 16 4 of sB: (2048*8 + 1024*4)*16 = 327680 stores, 2048*16*8*4*16*2
// = 33554432 loads. The bank-conflict properties stay as they are.
func TestLocalFootprint(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	const kernel = "../../../examples/matmul_kernel.knl"
	params := map[string]int64{"n": 256}
	big := map[string]int64{"BX": 32, "BY": 32, "TX": 8, "TY": 8}
	small := map[string]int64{"BX": 16, "BY": 32, "TX": 4, "TY": 8}
	device, err := levelsOf(env, Config{LLC: "l2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		consts map[string]int64
		l1     int64
		tied   bool
		want   map[string]float64 // the local accesses' features, every other absent
	}{
		{"big, device L1", big, device.L1, true, map[string]float64{"local.l2.access.f32": 131072 + 33554432}},
		{"big, untied", big, device.L1, false, map[string]float64{"local.l2.load.f32": 33554432, "local.l2.store.f32": 131072}},
		{"big, L1 one byte short", big, 65535, true, map[string]float64{"local.l2.access.f32": 131072 + 33554432}},
		{"big, L1 exactly its bytes", big, 65536, true, map[string]float64{"local.access.f32": 131072 + 33554432}},
		{"small, device L1", small, device.L1, true, map[string]float64{"local.access.f32": 327680 + 33554432}},
		{"small, L1 one byte short", small, 20479, false, map[string]float64{"local.l2.load.f32": 33554432, "local.l2.store.f32": 327680}},
	} {
		cs := models.Case{Kernel: kernel, Consts: c.consts, Params: params}
		lv := device
		lv.L1 = c.l1
		cfg := Config{Form: FormMaxGroups, LocalAccesses: c.tied, LocalFootprint: true, LLC: "l2"}
		lf, err := facts(env, cs, cfg, lv)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkLocalFeatures(t, c.name, lf.features, c.want)
	}
}

// checkLocalFeatures checks that a launch's local access features
// (local.*, the bank-conflict ones aside) are want's, every other absent.
func checkLocalFeatures(t *testing.T, name string, features, want map[string]float64) {
	t.Helper()
	for p, v := range features {
		if strings.HasPrefix(p, "local.") && !strings.Contains(p, ".conflict=") && want[p] != v {
			t.Errorf("%s: feature %s = %g, want %g", name, p, v, want[p])
		}
	}
	for p, v := range want {
		if features[p] != v {
			t.Errorf("%s: feature %s = %g, want %g", name, p, features[p], v)
		}
	}
}
