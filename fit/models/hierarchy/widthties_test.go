package hierarchy

import (
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestWidthTies checks the ties of Config.WidthTies against a table
// written by hand: every integer access feature goes to the float one of
// its width, the atomics, the operations, the chains and the float
// features stay, and a filled stride's tie to an i32 stride-1 load ends
// at the f32 one.
func TestWidthTies(t *testing.T) {
	props := []string{
		"global.load.i32.stride=1", "global.ldg.i32.stride=3/3", "global.store.i64.stride=1", "global.minldst.i32.stride=1",
		"global.load.indirect.i32", "global.store.indirect.i64", "local.access.i32", "local.load.i64", "local.i32.conflict=2",
		"local.access.indirect.i32",
		"global.load.f32.stride=1", "global.load.b8.stride=1", "global.atomic.i32.add", "local.atomic.i32.add", "int.i32.add",
		"chain.global.i32", "local.l1.conflict.bytes", "launch.groups",
	}
	want := map[string]string{
		"global.load.i32.stride=1":    "global.load.f32.stride=1",
		"global.ldg.i32.stride=3/3":   "global.ldg.f32.stride=3/3",
		"global.store.i64.stride=1":   "global.store.f64.stride=1",
		"global.minldst.i32.stride=1": "global.minldst.f32.stride=1",
		"global.load.indirect.i32":    "global.load.indirect.f32",
		"global.store.indirect.i64":   "global.store.indirect.f64",
		"local.access.i32":            "local.access.f32",
		"local.load.i64":              "local.load.f64",
		"local.i32.conflict=2":        "local.f32.conflict=2",
		"local.access.indirect.i32":   "local.access.indirect.f32",
	}
	if got := widthTies(props); !maps.Equal(got, want) {
		t.Errorf("widthTies:\n got %v\nwant %v", got, want)
	}
	got := withWidthTies(map[string]string{"global.load.i32.stride=2/2": "global.load.i32.stride=1"}, []string{"global.load.i32.stride=2/2", "global.load.i32.stride=1"})
	if w := map[string]string{"global.load.i32.stride=2/2": "global.load.f32.stride=1", "global.load.i32.stride=1": "global.load.f32.stride=1"}; !maps.Equal(got, w) {
		t.Errorf("withWidthTies: %v, want %v", got, w)
	}
}

// TestWidthTiesPredict prices global_int_i32 at n = 4096 (16 groups of
// 256 work-items, each loading a[0, i] and storing b[0, i]: 4096 i32
// loads and stores, their 4096 min(loads, stores), 4096 i32 additions,
// the sum's) with weights of f32 accesses only, in the sum form: with
// the option its i32 accesses take the f32 weights, 4096 × (2 + 3 + 5) ps
// + 4096 × 1 ps + 1 µs + 16 × 7 ns; without it the model has no weight
// for them and refuses the kernel.
func TestWidthTiesPredict(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	c := models.Case{Kernel: "../../../measurekernels/library/global_int_i32.knl", Params: map[string]int64{"n": 4096}}
	for _, tied := range []bool{true, false} {
		m := &Model{Config: Config{Form: FormSum, WidthTies: tied, LLC: "l2", Saturation: FillNone},
			Properties: []string{"global.load.f32.stride=1", "global.store.f32.stride=1", "global.minldst.f32.stride=1", "int.i32.add", "launch.const", "launch.groups"},
			Values:     []float64{2e-12, 3e-12, 5e-12, 1e-12, 1e-6, 7e-9}}
		p, err := m.Predict(env, c)
		if !tied {
			if err == nil || !strings.Contains(err.Error(), "global.load.i32.stride=1") {
				t.Errorf("without the ties: %v, want a refusal naming global.load.i32.stride=1", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := 4096*(2+3+5+1)*1e-12 + 1e-6 + 16*7e-9; math.Abs(p.Seconds-want) > 1e-12*want {
			t.Errorf("with the ties: predicted %.9g s, want %.9g", p.Seconds, want)
		}
	}
}

// TestWidthTiesPredictThroughTie prices global_ldg_strided_i32 at
// STRIDE = U = 2, n = 4096 (8192 i32 readonly loads of class 2/2, 4096
// i32 stores and additions, 16 groups) with a calibration on f32 rows,
// whose ldg 2/2 feature is tied to the ldg stride-1 one (a filled
// stride): the i32 loads go to the f32 ldg 2/2 feature by width and on to
// its target, 8192 × 2 ps + 4096 × (3 + 1) ps + 1 µs + 16 × 7 ns, where
// they were refused as global.ldg.f32.stride=2/2, a column the tie had
// merged away.
func TestWidthTiesPredictThroughTie(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	c := models.Case{Kernel: "../../../measurekernels/library/global_ldg_strided_i32.knl", Consts: map[string]int64{"STRIDE": 2, "U": 2}, Params: map[string]int64{"n": 4096}}
	m := &Model{Config: Config{Form: FormSum, WidthTies: true, LLC: "l2", Saturation: FillNone},
		Ties:       map[string]string{"global.ldg.f32.stride=2/2": "global.ldg.f32.stride=1"},
		Properties: []string{"global.ldg.f32.stride=1", "global.store.f32.stride=1", "int.i32.add", "launch.const", "launch.groups"},
		Values:     []float64{2e-12, 3e-12, 1e-12, 1e-6, 7e-9}}
	p, err := m.Predict(env, c)
	if err != nil {
		t.Fatal(err)
	}
	if want := 8192*2e-12 + 4096*(3+1)*1e-12 + 1e-6 + 16*7e-9; math.Abs(p.Seconds-want) > 1e-12*want {
		t.Errorf("predicted %.9g s, want %.9g", p.Seconds, want)
	}
}
