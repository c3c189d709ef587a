package models_test

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/cycles"
)

func TestDecodeCalibration(t *testing.T) {
	const file = `{"schema": "uniperf-calibration/1", "model": "cycles", "device": "GeForce GTX 460",
		"device_file": "devices/gtx460.json", "uniperf_version": "v", "inputs": [],
		"calibration": {"device": "GeForce GTX 460", "weights": {"f32.add": 4}, "weights_from": "device file"}}`
	f, m, err := models.DecodeCalibration("c.json", []byte(file), "cycles")
	if err != nil {
		t.Fatal(err)
	}
	c, ok := m.(*cycles.Model)
	if !ok || f.Device != "GeForce GTX 460" || c.Device != "GeForce GTX 460" || c.Weights["f32.add"] != 4 {
		t.Errorf("file %+v, model %#v", f, m)
	}
	for _, bad := range []struct{ text, model, want string }{
		{file, "hongkim", "c.json holds a calibration of the cycles model, not of hongkim (give --model cycles)"},
		{strings.Replace(file, "/1", "/2", 1), "cycles", "c.json is not a calibration file"},
		{strings.Replace(file, `"weights_from"`, `"weights_form"`, 1), "cycles", `unknown field "weights_form"`},
		{file + "{}", "cycles", "unexpected data after the JSON value"},
	} {
		if _, _, err := models.DecodeCalibration("c.json", []byte(bad.text), bad.model); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("got %v, want an error containing %q", err, bad.want)
		}
	}
}

// TestDecodeCalibrationShapes: a calibration whose weights do not match its
// properties one to one, which Predict would index past, is refused when
// read (inputs FuzzDecodeCalibration's seeds linear-short and
// hierarchy-short hold).
func TestDecodeCalibrationShapes(t *testing.T) {
	for _, c := range []struct{ model, calibration, want string }{
		{"linear", `{"Weights": {"Model": "unified", "Properties": ["flop.f32.add", "launch.const"], "Values": [1e-12]}}`,
			"c.json: the linear calibration: weights for the calibrated device: 1 weights for 2 properties"},
		{"hierarchy", `{"config": {"form": "sum"}, "properties": ["flop.f32.add", "launch.const"], "values": [1e-12]}`,
			"c.json: the hierarchy calibration: 1 weights for 2 features"},
	} {
		file := `{"schema": "uniperf-calibration/1", "model": "` + c.model + `", "device": "d", "calibration": ` + c.calibration + `}`
		if _, _, err := models.DecodeCalibration("c.json", []byte(file), c.model); err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", c.model, err, c.want)
		}
	}
}
