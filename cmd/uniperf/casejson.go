package main

import (
	"strings"

	"github.com/uniperf/uniperf/fit/report"
)

// caseJSON is one checked prediction as validate --json and compare
// --json print it: the measured row and the predicted time at full
// precision.
type caseJSON struct {
	Model         string           `json:"model,omitempty"`
	Device        string           `json:"device"`
	Class         string           `json:"class"`
	Kernel        string           `json:"kernel"`
	Role          string           `json:"role"`
	Size          string           `json:"size"`
	Params        map[string]int64 `json:"params"`
	Consts        map[string]int64 `json:"consts"`
	LocalSize     []int64          `json:"local_size"`
	MeasuredS     float64          `json:"measured_s"`
	MedianS       *float64         `json:"median_s,omitempty"`
	MaxS          *float64         `json:"max_s,omitempty"`
	PredictedS    *float64         `json:"predicted_s"`
	RelativeError *float64         `json:"relative_error"`
	// WithinNoise, where the runs' spread is known: the error is smaller
	// than it (report.Case.WithinNoise).
	WithinNoise *bool  `json:"within_noise,omitempty"`
	Error       string `json:"error,omitempty"`
}

func casesJSON(cases []report.Case) []caseJSON {
	out := make([]caseJSON, len(cases))
	for i, c := range cases {
		out[i] = caseJSON{Model: c.Model, Device: c.Device, Class: c.Class, Kernel: c.Kernel, Role: c.Role, Size: c.Size,
			Params: c.Params, Consts: c.Consts, LocalSize: c.LocalSize, MeasuredS: c.Measured, Error: c.Err}
		if c.Median > 0 {
			noise := c.WithinNoise()
			out[i].MedianS, out[i].MaxS, out[i].WithinNoise = &c.Median, &c.Max, &noise
		}
		if c.Err == "" {
			p, e := c.Predicted, c.RelErr()
			out[i].PredictedS, out[i].RelativeError = &p, &e
		}
	}
	return out
}

// validationJSON is what validate --json prints.
type validationJSON struct {
	Title        string     `json:"title"`
	Cases        []caseJSON `json:"cases"`
	NotPredicted []string   `json:"not_predicted"`
	Notes        []string   `json:"notes"`
}

// calibratedJSON says what one model's calibration on one device found.
type calibratedJSON struct {
	Model   string `json:"model"`
	Device  string `json:"device"`
	Summary string `json:"summary"`
}

// comparisonJSON is what compare --json prints.
type comparisonJSON struct {
	Models      []string         `json:"models"`
	Calibrated  []calibratedJSON `json:"calibrated"`
	NotCompared []string         `json:"not_compared"`
	Test        []caseJSON       `json:"test"`
	CV          []caseJSON       `json:"cv"`
	CVSkipped   []string         `json:"cv_skipped"`
	Notes       []string         `json:"notes"`
}

// noteLines splits printed notes into lines, dropping empty ones.
func noteLines(s string) []string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// nonNil makes a nil list an empty one, so that JSON says [] rather than
// null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
