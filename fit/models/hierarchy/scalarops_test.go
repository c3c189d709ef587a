package hierarchy

import (
	"slices"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestScalarOpsClosedForms checks the operations that run one work-item
// at a time against counts derived by hand from the kernels' text.
// adi1's two statements, each a subtraction, a multiplication and a
// division, sit in the loop over i2 at n (n - 1) points: 6 n (n - 1).
// rowscale's one multiplication sits in the loop over k: n m. fan1 has
// no loop: none. gramschmidt1's norm is a reduction of a multiplication
// and an addition a term over ni terms, and its square root belongs to
// the same instruction, run by the one work-item with t = 0: 2 ni + 1.
// scalar_sum_f32 sums x0 + l over nl terms a work-item: two additions a
// term, 2 n nl. scalar_chain_i32's steps are integer operations, which
// the feature leaves out: none.
func TestScalarOpsClosedForms(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	for _, c := range []struct {
		kernel string
		params map[string]int64
		want   int64
	}{
		{"../../../examples/adi1.knl", map[string]int64{"n": 64}, 6 * 64 * 63},
		{"../../../examples/adi1.knl", map[string]int64{"n": 300}, 6 * 300 * 299},
		{"testdata/rowscale.knl", map[string]int64{"n": 128, "m": 10}, 128 * 10},
		{"../../../examples/fan1.knl", map[string]int64{"Size": 256, "t": 1}, 0},
		{"../../../examples/gramschmidt1.knl", map[string]int64{"ni": 1000, "nj": 16, "k": 1}, 2*1000 + 1},
		{"../../../measurekernels/library/scalar_sum_f32.knl", map[string]int64{"n": 1024, "nl": 10}, 2 * 1024 * 10},
		{"../../../measurekernels/library/scalar_chain_i32.knl", map[string]int64{"n": 1024, "nl": 10, "c": 13}, 0},
	} {
		got, err := scalarOpsOf(env, models.Case{Kernel: c.kernel, Params: c.params}, false)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kernel, c.params, err)
		}
		if got != c.want {
			t.Errorf("%s %v: %d scalar operations, want %d", c.kernel, c.params, got, c.want)
		}
	}
}

// TestScalarOpsUnrolledSums checks the form's UnrolledSums: vector_sum's
// sum over its unrolled c (D = 3 terms, an addition each) is scalar
// without it, 3 n operations, and straight-line code with it, none;
// asked again after, the counts cached for the two stay apart.
func TestScalarOpsUnrolledSums(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	const n = 1024
	for _, c := range []struct {
		unrolledSums bool
		want         int64
	}{{false, 3 * n}, {true, 0}, {false, 3 * n}} {
		got, err := scalarOpsOf(env, models.Case{Kernel: "../../../measurekernels/library/vector_sum.knl", Params: map[string]int64{"n": n}}, c.unrolledSums)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("unrolled sums %v: %d scalar operations, want %d", c.unrolledSums, got, c.want)
		}
	}
}

// TestScalarOpsFeature checks that the option adds the feature, in the
// additive part of every form, and that a launch without scalar
// operations has none.
func TestScalarOpsFeature(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "pocl-cpu")}
	lv := Levels{L1: 1 << 15, LLC: 1 << 21}
	for _, c := range []struct {
		kernel string
		params map[string]int64
		want   float64
	}{
		{"../../../examples/adi1.knl", map[string]int64{"n": 128}, 6 * 128 * 127},
		{"../../../examples/fan1.knl", map[string]int64{"Size": 256, "t": 1}, 0},
	} {
		lf, err := facts(env, models.Case{Kernel: c.kernel, Params: c.params}, Config{Form: FormMax, ScalarOps: true, LLC: "l2"}, lv)
		if err != nil {
			t.Fatal(err)
		}
		if got := lf.features[ScalarOps]; got != c.want {
			t.Errorf("%s: %s %g, want %g", c.kernel, ScalarOps, got, c.want)
		}
		if _, ok := lf.features[ScalarOps]; ok != (c.want > 0) {
			t.Errorf("%s: feature present %v, want %v", c.kernel, ok, c.want > 0)
		}
	}
	for _, form := range []string{FormMax, FormMaxGroups} {
		if got := partOf(form, ScalarOps); got != additive {
			t.Errorf("form %s: %s in part %d, want the additive part", form, ScalarOps, got)
		}
	}
}

// TestCalibrateScalarOps calibrates the CPU's chosen form with
// ScalarOps on rows of the shipped PoCL hierarchy table: scalar_chain's
// scalar_sum_f32 rows add in loops run one work-item at a time, so the
// weight is fitted; the empty kernel's rows run no operation, and the
// calibration is the form without, rather than one that refuses such
// kernels.
func TestCalibrateScalarOps(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := epycRows(t)
	for _, c := range []struct {
		rows []models.Row
		want bool
	}{{rows("empty", "scalar_chain"), true}, {rows("empty"), false}} {
		cfg := Chosen("cpu")
		cfg.ScalarOps = true
		m := &Model{Config: cfg}
		if err := m.Calibrate(env, c.rows); err != nil {
			t.Fatal(err)
		}
		if m.Config.ScalarOps != c.want || slices.Contains(m.Properties, ScalarOps) != c.want {
			t.Errorf("%d rows: scalar operations %v, a weight for %s %v, want %v", len(c.rows), m.Config.ScalarOps, ScalarOps, slices.Contains(m.Properties, ScalarOps), c.want)
		}
	}
}
