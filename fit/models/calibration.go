package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
)

// CalibrationSchema names the JSON file that uniperf fit --model NAME
// writes for the models other than linear (whose weights are an Arrow
// weight table).
const CalibrationSchema = "uniperf-calibration/1"

// CalibrationFile is a calibrated model on disk: which model, for which
// device (as the measurement tables name it) and parameter file, from which
// tables, and the model's calibrated state as its type defines it
// (the Model type of packages hongkim, cycles, resios and xu).
type CalibrationFile struct {
	Schema      string          `json:"schema"`
	Model       string          `json:"model"`
	Device      string          `json:"device"`
	DeviceFile  string          `json:"device_file"`
	Version     string          `json:"uniperf_version"`
	Inputs      []fit.Input     `json:"inputs"`
	Calibration json.RawMessage `json:"calibration"`
}

// EncodeCalibration returns the calibration file of m, calibrated for
// device with parameter file d on the inputs, ending in a newline.
func EncodeCalibration(m Model, device string, d *gpus.Device, inputs []fit.Input) ([]byte, error) {
	state, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	f := CalibrationFile{Schema: CalibrationSchema, Model: m.Name(), Device: device, DeviceFile: d.File,
		Version: datasets.Version, Inputs: inputs, Calibration: state}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// DecodeCalibration reads the calibration file data, named path in
// messages, and restores the model, which must be the one named model.
func DecodeCalibration(path string, data []byte, model string) (*CalibrationFile, Model, error) {
	var f CalibrationFile
	if err := strictJSON(data, &f); err != nil || f.Schema != CalibrationSchema {
		return nil, nil, fmt.Errorf("%s is not a calibration file written by uniperf fit --model (schema %s): %v", path, CalibrationSchema, err)
	}
	if f.Model != model {
		return nil, nil, fmt.Errorf("%s holds a calibration of the %s model, not of %s (give --model %s)", path, f.Model, model, f.Model)
	}
	m, err := New(f.Model)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := strictJSON(f.Calibration, m); err != nil {
		return nil, nil, fmt.Errorf("%s: the %s calibration: %w", path, f.Model, err)
	}
	if c, ok := m.(CalibrationChecker); ok {
		if err := c.CheckCalibration(); err != nil {
			return nil, nil, fmt.Errorf("%s: the %s calibration: %w", path, f.Model, err)
		}
	}
	return &f, m, nil
}

// CalibrationChecker is implemented by a model whose restored state can
// hold values its calibration never writes (a file edited by hand, or
// written by another version), which DecodeCalibration refuses rather
// than predict from.
type CalibrationChecker interface {
	CheckCalibration() error
}

// strictJSON decodes one JSON value, refusing unknown fields, so that a
// file of another version or a misspelt field is an error rather than a
// model with zero constants.
func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}
