package hierarchy

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// TestRefusals: a device file without caches is a missing section (which
// uniperf compare and demo report as not compared), no device file is
// ErrNoDeviceFile, and a model predicts only once calibrated.
func TestRefusals(t *testing.T) {
	d := *modeltest.Device(t, "pocl-cpu")
	d.Caches = nil
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: &d}
	rows := []models.Row{{Units: 2}}
	var missing *gpus.MissingError
	if err := (&Model{}).Calibrate(env, rows); !errors.As(err, &missing) || missing.Field != "caches" {
		t.Errorf("device without caches: %v, want a missing caches section", err)
	}
	env.Device = nil
	if err := (&Model{Config: Config{Form: FormSum}}).Calibrate(env, rows); !errors.Is(err, models.ErrNoDeviceFile) {
		t.Errorf("no device file: %v", err)
	}
	if _, err := (&Model{}).Predict(env, models.Case{Kernel: "testdata/rowscale.knl"}); !errors.Is(err, models.ErrNotCalibrated) {
		t.Errorf("uncalibrated: %v", err)
	}
}

// TestCalibrateLeavesOffUnpriced calibrates the CPU's chosen form, and
// the form with refetched lines, on rows of the shipped PoCL hierarchy
// table: with reread_dram's (its column walks lose lines to the L2's
// sets, and a group's lines exceed a core's share) and
// accumulate_global's, the conflict lines (or the refetched lines) and
// the chains are priced; on reuse_group's alone (a group's window fits
// L1, no loop stores what it loads) neither has a row, and the
// calibration is the form without them rather than one that refuses
// such kernels. The empty kernel's rows are in both.
func TestCalibrateLeavesOffUnpriced(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := epycRows(t)
	// reread_dram's launches fit the EPYC's 32 MiB L3, so the refetch
	// option (not chosen) is tried on the form before the warm L3, where
	// they read DRAM again.
	refetch := Chosen("cpu")
	refetch.Conflict, refetch.Refetch, refetch.Warm = false, true, ""
	for _, cfg := range []Config{{}, refetch} {
		feature := ConflictBytes
		if cfg.Refetch {
			feature = RefetchBytes
		}
		for _, c := range []struct {
			rows          []models.Row
			priced, chain bool
		}{{rows("empty", "reread_dram", "accumulate_global"), true, true}, {rows("empty", "reuse_group"), false, false}} {
			m := &Model{Config: cfg}
			if err := m.Calibrate(env, c.rows); err != nil {
				t.Fatal(err)
			}
			wantConflict, wantRefetch := c.priced && !cfg.Refetch, c.priced && cfg.Refetch
			if m.Config.Conflict != wantConflict || m.Config.Refetch != wantRefetch || m.Config.Chain != c.chain || !m.Config.CoreShare {
				t.Errorf("%s, %d rows: conflict %v, refetch %v, chains %v, want %v, %v and %v", feature, len(c.rows), m.Config.Conflict, m.Config.Refetch, m.Config.Chain, wantConflict, wantRefetch, c.chain)
			}
			if got := slices.Contains(m.Properties, feature); got != c.priced {
				t.Errorf("%d rows: a weight for %s: %v, want %v", len(c.rows), feature, got, c.priced)
			}
		}
	}
}

// epycRows returns a function giving the measurement rows of the given
// classes in the shipped PoCL hierarchy table.
func epycRows(t *testing.T) func(classes ...string) []models.Row {
	t.Helper()
	return tableRows(t, "../../../datasets/hierarchy/pocl-epyc.arrow")
}

// tableRows returns a function giving the measurement rows of the given
// classes in the table at path.
func tableRows(t *testing.T, path string) func(classes ...string) []models.Row {
	t.Helper()
	tab, err := datasets.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return func(classes ...string) []models.Row {
		var out []models.Row
		for _, r := range models.Rows(map[string]*datasets.Table{"h": tab}, datasets.RoleMeasurement) {
			if slices.Contains(classes, r.Class) {
				out = append(out, r)
			}
		}
		return out
	}
}

// TestReadOnlyTies calibrates the CPU's chosen form on the shipped PoCL
// rows of global_strided (plain stride-2 and stride-3 loads of 1 of every
// STRIDE elements), global_stride1 (stride-1 loads and stores) and the
// empty kernel, which have no readonly loads: a
// stride-2 readonly load of global_ldg_strided_f32 (1 of every 2, f32)
// has no weight then, and the prediction is refused, unless ReadOnlyTies
// prices it by global.load.f32.stride=1/2's weight.
func TestReadOnlyTies(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}
	rows := tableRows(t, "../../../datasets/pocl-epyc-paper.arrow")("global_strided", "global_stride1", "empty")
	c := models.Case{Kernel: "global_ldg_strided_f32", Consts: map[string]int64{"LX": 256, "STRIDE": 2, "U": 1}, Params: map[string]int64{"n": 1 << 20}}
	const ldg, load = "global.ldg.f32.stride=1/2", "global.load.f32.stride=1/2"
	for _, tie := range []bool{false, true} {
		cfg := Chosen("cpu")
		cfg.ReadOnlyTies = tie
		m := &Model{Config: cfg}
		if err := m.Calibrate(env, rows); err != nil {
			t.Fatal(err)
		}
		if got := m.Ties[ldg]; tie && got != load || !tie && got != "" {
			t.Errorf("ReadOnlyTies %v: %s tied to %q", tie, ldg, got)
		}
		p, err := m.Predict(env, c)
		if tie && (err != nil || !(p.Seconds > 0)) {
			t.Errorf("with the tie: %v, %v; want a prediction", p, err)
		}
		if !tie && (err == nil || !strings.Contains(err.Error(), ldg)) {
			t.Errorf("without the tie: %v, %v; want a refusal naming %s", p, err, ldg)
		}
	}
}
