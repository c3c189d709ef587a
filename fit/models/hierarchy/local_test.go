package hierarchy

import (
	"maps"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// localCount is a kernel's local accesses at params, derived by hand.
type localCount struct {
	kernel string
	params map[string]int64
	want   float64
}

// TestLocalAccesses checks the feature of Config.LocalAccesses against
// closed forms derived by hand from the kernels' text, and against the
// local loads and stores the reference interpreter executed.
//
// lud_diagonal (one group of 16 work-items t) stores its 16 x 16 tile
// once (256), then for i < 15 updates shadow[t, i] at every j < i for
// t > i (sum over i of (15 - i) i = 560 stores, each with three loads:
// 1680), divides it once (120 stores, 240 loads), and updates
// shadow[i + 1, t] at every j2 <= i (sum of (15 - i)(i + 1) = 680 stores,
// 2040 loads); the 15 x 16 results are loaded back once (240): 1616
// stores and 4200 loads, whatever the matrix. local_bank (R = 32) stores
// every work-item's element, and 32 more a group, then loads 32 a
// work-item: n + n/8 stores and 32 n loads. jacobi1d1 has no local
// memory.
func TestLocalAccesses(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	lv := Levels{L1: 1 << 15, LLC: 1 << 21}
	for _, c := range []localCount{
		{"../../../examples/lud_diagonal.knl", map[string]int64{"matrix_dim": 64, "offset": 16}, 1616 + 4200},
		{"../../../examples/lud_diagonal.knl", map[string]int64{"matrix_dim": 256, "offset": 48}, 1616 + 4200},
		{"../../../measurekernels/library/local_bank.knl", map[string]int64{"n": 1024}, 1024 + 1024/8 + 32*1024},
		{"../../../measurekernels/library/local_bank.knl", map[string]int64{"n": 2560}, 2560 + 2560/8 + 32*2560},
		{"../../../examples/jacobi1d1.knl", map[string]int64{"n": 1000}, 0},
	} {
		cs := models.Case{Kernel: c.kernel, Params: c.params}
		lf, err := facts(env, cs, Config{Form: FormMaxGroups, LocalAccesses: true, LLC: "l2"}, lv)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kernel, c.params, err)
		}
		for p, v := range lf.features {
			if p == LocalAccessPrefix+"f32" {
				continue
			}
			if strings.HasPrefix(p, "local.load.") || strings.HasPrefix(p, "local.store.") || (strings.HasPrefix(p, LocalAccessPrefix) && v != 0) {
				t.Errorf("%s %v: feature %s = %g left beside %sf32", c.kernel, c.params, p, v, LocalAccessPrefix)
			}
		}
		if got := lf.features[LocalAccessPrefix+"f32"]; got != c.want {
			t.Errorf("%s %v: %sf32 = %g, want %g", c.kernel, c.params, LocalAccessPrefix, got, c.want)
		}
		k, err := env.Counter.Kernel(c.kernel, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ran int64
		for _, n := range runFilled(t, k.Kernel(), c.params).Local {
			ran += n
		}
		if float64(ran) != c.want {
			t.Errorf("%s %v: the interpreter made %d local accesses, want %g", c.kernel, c.params, ran, c.want)
		}
	}
}

// TestNoBanks checks Config.NoBanks against counts derived by hand from
// local_bank's text at S = 32 and n = 1024 (LX = 256, R = 32). Every local
// access is at a multiple of 32 words, so that a GPU warp's 32 lanes meet
// one bank of 32 and every access has degree 32: the n stores of t[32 i_in],
// the 32 a group of t[32 (LX + i_in)] (n/8 in all) and the 32 n loads
// t[32 (i_in + k)], 265n/8 = 33920 accesses. Without the option they are
// counted a second time as local.f32.conflict=32; with it that feature
// is gone and the accesses stay, tied into local.access.f32. A name that
// merely contains "conflict" (the L1 conflicts' local.l1.conflict.bytes)
// is not a bank's.
func TestNoBanks(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	lv := Levels{L1: 1 << 15, LLC: 1 << 21}
	cs := models.Case{Kernel: "../../../measurekernels/library/local_bank.knl", Consts: map[string]int64{"S": 32}, Params: map[string]int64{"n": 1024}}
	const accesses = 32*1024 + 1024 + 1024/8
	for _, noBanks := range []bool{false, true} {
		lf, err := facts(env, cs, Config{Form: FormMaxGroups, LocalAccesses: true, NoBanks: noBanks, LLC: "l2"}, lv)
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.features[LocalAccessPrefix+"f32"]; got != accesses {
			t.Errorf("no banks %v: %sf32 = %g, want %d", noBanks, LocalAccessPrefix, got, accesses)
		}
		want := float64(accesses)
		if noBanks {
			want = 0
		}
		if got := lf.features["local.f32.conflict=32"]; got != want {
			t.Errorf("no banks %v: local.f32.conflict=32 = %g, want %g", noBanks, got, want)
		}
		for p := range lf.features {
			if p != "local.f32.conflict=32" && strings.Contains(p, ".conflict=") {
				t.Errorf("no banks %v: unexpected feature %s", noBanks, p)
			}
		}
	}
	for p, want := range map[string]bool{"local.f32.conflict=32": true, "local.b16.conflict=2": true, LocalConflictBytes: false, "local.access.f32": false, "global.load.f32.stride=1": false} {
		if got := isBankConflict(p); got != want {
			t.Errorf("isBankConflict(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestLocalAnyType checks Config.LocalAnyType against counts derived by
// hand from the kernels' text: local_int_i64 at n = 1024 (LX = 256,
// R = 32) stores every work-item's element and 32 more a group (n + n/8)
// and loads 32 a work-item (32 n), 33920 i64 accesses that go to
// local.access.any; lud_diagonal's 1616 stores and 4200 loads of f32
// (TestLocalAccesses) go there too, its bank conflicts staying apart. A
// calibration file that asks for it without LocalAccesses is refused.
func TestLocalAnyType(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	lv := Levels{L1: 1 << 15, LLC: 1 << 21}
	for _, c := range []localCount{
		{"../../../measurekernels/library/local_int_i64.knl", map[string]int64{"n": 1024}, 1024 + 1024/8 + 32*1024},
		{"../../../examples/lud_diagonal.knl", map[string]int64{"matrix_dim": 64, "offset": 16}, 1616 + 4200},
	} {
		lf, err := facts(env, models.Case{Kernel: c.kernel, Params: c.params}, Config{Form: FormMaxGroups, LocalAccesses: true, LocalAnyType: true, LLC: "l2"}, lv)
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.features[LocalAnyAccess]; got != c.want {
			t.Errorf("%s: %s = %g, want %g", c.kernel, LocalAnyAccess, got, c.want)
		}
		for p := range lf.features {
			if strings.HasPrefix(p, "local.") && p != LocalAnyAccess && !isBankConflict(p) {
				t.Errorf("%s: feature %s left beside %s", c.kernel, p, LocalAnyAccess)
			}
		}
	}
	features := map[string]float64{LocalAccessPrefix + "f32": 3, LocalAccessPrefix + "i64": 4, LocalAccessPrefix + "indirect.f32": 5}
	anyTypeAccesses(features)
	if want := map[string]float64{LocalAnyAccess: 7, LocalAccessPrefix + "indirect.f32": 5}; !maps.Equal(features, want) {
		t.Errorf("anyTypeAccesses: %v, want %v", features, want)
	}
	if err := (Config{LocalAnyType: true}).checkPairs(); err == nil || !strings.Contains(err.Error(), "config.local_any_type without config.local_accesses") {
		t.Errorf("LocalAnyType alone: %v, want a refusal naming both", err)
	}
}
