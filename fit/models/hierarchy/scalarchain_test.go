package hierarchy

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestScalarChainSteps checks the steps of the chains PoCL runs one
// work-item at a time through one accumulator against closed forms
// derived by hand from the kernels' text:
//
//   - reg_chain_f32 at K = 1: one chain of nl steps a work-item, n nl
//     (the final sum over the unrolled j is straight-line code); the
//     interpreter's multiplications in the step statement agree; at K =
//     2, 4 and 8 the K accumulators' chains overlap: none;
//   - kmeans_kernel_c: ans += over l, nfeatures steps for each point and
//     cluster, npoints nclusters nfeatures;
//   - sum_floats: the sum over s visits each element of array_ below n
//     once, n steps, whatever the barriers after it;
//   - gramschmidt1: the sum over i in the one work-item t = 0, ni;
//   - cn_pnpoly: the flip of c over the 600 vertices, i32, n 600;
//   - testdata/scalarchains.knl: t's chain over k runs in a loop that
//     holds barriers, and the sum over the unrolled j alone is unrolled:
//     neither counts; the sum over k and j does, 4 m points a work-item.
//   - testdata/twochains.knl and arith_int_i32: several privates carried
//     through one loop (x0 and x1; x0 to x3), whose steps overlap: none.
//   - scalar_chain_i32 and _i64 (the scalar_chain class): one chain of
//     nl steps x = (x*m + 1) & 4095 a work-item, n nl in the chain's
//     type (m is assigned once, before the loop, and carries nothing);
//     scalar_sum_f32: one sum of nl terms a work-item, n nl.
func TestScalarChainSteps(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files)}
	const chain = "../../../measurekernels/library/reg_chain_f32.knl"
	for _, c := range []struct {
		kernel string
		consts map[string]int64
		params map[string]int64
		want   map[string]int64
	}{
		{chain, map[string]int64{"K": 1}, map[string]int64{"n": 300, "nl": 16}, map[string]int64{"f32": 300 * 16}},
		{chain, map[string]int64{"K": 2}, map[string]int64{"n": 300, "nl": 16}, nil},
		{chain, map[string]int64{"K": 4}, map[string]int64{"n": 300, "nl": 16}, nil},
		{chain, map[string]int64{"K": 8}, map[string]int64{"n": 300, "nl": 16}, nil},
		{"../../../examples/kmeans_kernel_c.knl", nil, map[string]int64{"npoints": 1000, "nclusters": 5, "nfeatures": 7},
			map[string]int64{"f32": 1000 * 5 * 7}},
		{"../../../examples/sum_floats.knl", nil, map[string]int64{"n": 100003}, map[string]int64{"f32": 100003}},
		{"../../../examples/gramschmidt1.knl", nil, map[string]int64{"ni": 100, "nj": 50, "k": 3}, map[string]int64{"f32": 100}},
		{"../../../examples/cn_pnpoly.knl", nil, map[string]int64{"n": 512}, map[string]int64{"i32": 512 * 600}},
		{"testdata/scalarchains.knl", nil, map[string]int64{"n": 128, "m": 10}, map[string]int64{"f32": 128 * 4 * 10}},
		{"testdata/twochains.knl", nil, map[string]int64{"n": 128, "m": 10}, nil},
		{"../../../measurekernels/library/scalar_chain_i32.knl", nil, map[string]int64{"n": 300, "nl": 16, "c": 13}, map[string]int64{"i32": 300 * 16}},
		{"../../../measurekernels/library/scalar_chain_i64.knl", nil, map[string]int64{"n": 257, "nl": 5, "c": -4}, map[string]int64{"i64": 257 * 5}},
		{"../../../measurekernels/library/scalar_sum_f32.knl", nil, map[string]int64{"n": 300, "nl": 7}, map[string]int64{"f32": 300 * 7}},
		{"../../../measurekernels/library/arith_int_i32.knl", nil, map[string]int64{"n": 16, "na": 2, "nb": 3, "nc": 1, "nd": 2, "ne": 1, "c": 5}, nil},
	} {
		k, err := env.Counter.Kernel(c.kernel, c.consts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := regChainSteps(k, c.params, scalarChains)
		if err != nil {
			t.Fatalf("%s %v: %v", c.kernel, c.consts, err)
		}
		want := map[string]int64{}
		for ty, n := range c.want {
			want[ScalarChainPrefix+ty] = n
		}
		if !mapsEqual(got, want) {
			t.Errorf("%s %v %v: scalar chain steps %v, want %v", c.kernel, c.consts, c.params, got, want)
		}
	}
	k, err := env.Counter.Kernel(chain, map[string]int64{"K": 1})
	if err != nil {
		t.Fatal(err)
	}
	if ran := runFilled(t, k.Kernel(), map[string]int64{"n": 300, "nl": 16}).Statements["step"]["flop.f32.mul"]; ran != 300*16 {
		t.Errorf("reg_chain_f32 K=1: the interpreter ran %d steps, want %d", ran, 300*16)
	}
}

// TestScalarChainCalibration: on rows of the shipped PoCL tables with
// reg_chain's (its K = 1 rows are single-accumulator chains) the scalar
// chains are priced; on the hierarchy suite's reuse_group's alone (no
// loop carries a value) the calibration is the form without them. RegChain and
// ScalarChain together are refused, calibrating or restoring: the one's
// steps are among the other's.
func TestScalarChainCalibration(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows, paper := epycRows(t), tableRows(t, "../../../datasets/pocl-epyc-paper.arrow")
	cfg := Chosen("cpu")
	cfg.ScalarChain = true
	chains := append(rows("empty"), paper("reg_chain")...)
	for _, c := range []struct {
		rows  []models.Row
		chain bool
	}{{chains, true}, {rows("empty", "reuse_group"), false}} {
		m := &Model{Config: cfg}
		if err := m.Calibrate(env, c.rows); err != nil {
			t.Fatal(err)
		}
		priced := false
		for _, p := range m.Properties {
			priced = priced || strings.HasPrefix(p, ScalarChainPrefix)
		}
		if m.Config.ScalarChain != c.chain || priced != c.chain {
			t.Errorf("%d rows: scalar chains %v, a weight %v, want %v", len(c.rows), m.Config.ScalarChain, priced, c.chain)
		}
	}
	both := cfg
	both.RegChain = true
	const want = "config.reg_chain and config.scalar_chain"
	if err := (&Model{Config: both}).Calibrate(env, chains); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("both chain sets: calibrate: %v, want %q", err, want)
	}
	if err := (&Model{Config: both}).CheckCalibration(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("both chain sets: restored: %v, want %q", err, want)
	}
	alone := Config{Form: cfg.Form, UnrolledSums: true}
	const wantAlone = "config.unrolled_sums without config.scalar_loops"
	if err := (&Model{Config: alone}).CheckCalibration(); err == nil || !strings.Contains(err.Error(), wantAlone) {
		t.Errorf("unrolled sums alone: restored: %v, want %q", err, wantAlone)
	}
}
