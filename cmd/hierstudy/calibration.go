package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// writeCalibration writes the calibration of a form, calibrated on every
// measurement row of the fit tables at paths (and the corpus rows of the
// -train tables among them), to dir/FORM.json in uniperf
// fit --model's format, so that uniperf tune --model hierarchy --weights
// ranks a space with a form that fit does not choose.
func writeCalibration(dir, form string, m models.Model, device string, d *gpus.Device, paths []string) error {
	inputs := make([]fit.Input, len(paths))
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("the calibration of %s: %w", form, err)
		}
		sum := sha256.Sum256(data)
		inputs[i] = fit.Input{Name: filepath.Base(p), SHA256: hex.EncodeToString(sum[:])}
	}
	data, err := models.EncodeCalibration(m, device, d, inputs)
	if err != nil {
		return fmt.Errorf("the calibration of %s: %w", form, err)
	}
	out := filepath.Join(dir, form+".json")
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return fmt.Errorf("the calibration of %s: %w", form, err)
	}
	fmt.Printf("    %s: calibration written to %s\n", form, out)
	return nil
}
