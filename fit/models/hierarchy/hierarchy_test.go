package hierarchy

import (
	"errors"
	"testing"

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
