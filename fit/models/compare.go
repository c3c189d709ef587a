package models

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/report"
)

// DeviceRows are the measured rows of one device and the Env that models
// them.
type DeviceRows struct {
	Device string
	Env    *Env
	Rows   []Row
}

// CompareOptions select the models Compare runs and how.
type CompareOptions struct {
	Models []string
	// CV adds leave-one-kernel-class-out errors on the measurement rows.
	CV bool
	// New makes a model by name; nil means the package's New. Callers
	// that configure models (the linear model's fit options, say) pass
	// their own.
	New func(name string) (Model, error)
}

// Calibrated is one model calibrated on one device's measurement rows.
type Calibrated struct {
	Device string
	Model  Model
}

// Comparison is what Compare found.
type Comparison struct {
	Models []string
	// Measurement and TestRows count the rows calibrated on and predicted.
	MeasurementRows, TestRows int
	// Calibrated holds every model calibrated on each device's
	// measurement rows, in the order of Models.
	Calibrated []Calibrated
	// Test are the predictions of the test rows by those models.
	Test []report.Case
	// CV are the leave-one-class-out predictions of the measurement rows
	// (with CompareOptions.CV); CVSkipped says which model could not be
	// calibrated without a class, and why (the class's rows are then
	// outcomes with Err set).
	CV        []report.Case
	CVSkipped []string
	// Sensitivity is the error against the calibration size of the
	// models that are SizeSensitive (the cycle-weighted model), over all
	// rows; SensitivitySkipped lists kernels they cannot price.
	Sensitivity        []SizeSensitivity
	SensitivitySkipped []string
	// NotCompared says, per model and device, why the model could not be
	// calibrated there (a device file without its constants, say); the
	// model has no outcomes on that device.
	NotCompared []string
}

// Compare calibrates every model on the same measurement rows of each
// device and predicts the same test rows; with CV it also leaves out one
// kernel class of the measurement rows at a time, calibrates on the rest
// and predicts the class left out. A model that cannot be calibrated on
// a device's measurement rows is listed in NotCompared while the others
// are compared, and it is an error only when no model could be
// calibrated anywhere; a row a model cannot predict is a report.Case
// with Err set.
func Compare(devices []DeviceRows, opts CompareOptions) (*Comparison, error) {
	if len(opts.Models) == 0 {
		return nil, fmt.Errorf("compare: no models")
	}
	newModel := opts.New
	if newModel == nil {
		newModel = New
	}
	for _, name := range opts.Models {
		if _, err := newModel(name); err != nil {
			return nil, err
		}
	}
	c := &Comparison{Models: opts.Models}
	var firstErr error
	for _, d := range devices {
		meas, test := byRole(d.Rows)
		if len(meas) == 0 {
			return nil, fmt.Errorf("device %s: no measurement rows to calibrate on", d.Device)
		}
		c.MeasurementRows += len(meas)
		c.TestRows += len(test)
		var sensitive []Model
		for _, name := range opts.Models {
			m, _ := newModel(name)
			if err := m.Calibrate(d.Env, meas); err != nil {
				err = fmt.Errorf("model %s on device %s: %w", name, d.Device, err)
				firstErr = cmp.Or(firstErr, err)
				c.NotCompared = append(c.NotCompared, err.Error())
				continue
			}
			c.Calibrated = append(c.Calibrated, Calibrated{d.Device, m})
			c.Test = append(c.Test, predictRows(m, d, test)...)
			if opts.CV {
				out, skipped := CrossValidateFrom(d, m, newModel)
				c.CV, c.CVSkipped = append(c.CV, out...), append(c.CVSkipped, skipped...)
			}
			if _, ok := m.(SizeSensitive); ok {
				sensitive = append(sensitive, m)
			}
		}
		for _, m := range sensitive {
			s, skipped, err := m.(SizeSensitive).SizeSensitivity(d.Env, d.Rows)
			if err != nil {
				return nil, fmt.Errorf("%s on device %s: %w", m.Name(), d.Device, err)
			}
			for i := range s {
				s[i].Device = d.Device
			}
			c.Sensitivity = append(c.Sensitivity, s...)
			c.SensitivitySkipped = append(c.SensitivitySkipped, skipped...)
		}
	}
	if len(c.Calibrated) == 0 {
		return nil, firstErr
	}
	return c, nil
}

// byRole splits rows into measurement and test rows.
func byRole(rows []Row) (meas, test []Row) {
	for _, r := range rows {
		switch r.Role {
		case datasets.RoleMeasurement:
			meas = append(meas, r)
		case datasets.RoleTest:
			test = append(test, r)
		}
	}
	return meas, test
}

// predictRows predicts rows with a calibrated model.
func predictRows(m Model, d DeviceRows, rows []Row) []report.Case {
	out := make([]report.Case, len(rows))
	for i, r := range rows {
		o := ReportCase(r.Row)
		o.Model, o.Device = m.Name(), d.Device
		p, err := m.Predict(d.Env, CaseOf(r))
		if err != nil {
			o.Err = err.Error()
		} else {
			o.Predicted = p.Seconds
		}
		out[i] = o
	}
	return out
}

// CrossValidate leaves out each kernel class of the device's measurement
// rows in turn, calibrates a new model (newModel(name)) on the other
// classes and predicts the class left out. A class the model cannot be
// calibrated without is listed in skipped with the reason, and its rows
// are outcomes with Err set. A model that is a FoldCalibrator is first
// calibrated on every measurement row, and each fold from it
// (CrossValidateFrom).
func CrossValidate(d DeviceRows, name string, newModel func(string) (Model, error)) (out []report.Case, skipped []string) {
	meas, _ := byRole(d.Rows)
	m, err := newModel(name)
	if _, ok := m.(FoldCalibrator); err != nil || !ok || m.Calibrate(d.Env, meas) != nil {
		return crossValidate(d, name, nil, newModel)
	}
	return crossValidate(d, name, m, newModel)
}

// CrossValidateFrom is CrossValidate for full, a model calibrated on
// every measurement row of d: where it is a FoldCalibrator, each fold is
// calibrated from it.
func CrossValidateFrom(d DeviceRows, full Model, newModel func(string) (Model, error)) (out []report.Case, skipped []string) {
	return crossValidate(d, full.Name(), full, newModel)
}

func crossValidate(d DeviceRows, name string, full Model, newModel func(string) (Model, error)) (out []report.Case, skipped []string) {
	meas, _ := byRole(d.Rows)
	for _, f := range Folds(meas) {
		m, err := newModel(name)
		switch {
		case err != nil:
		case len(f.Rest) == 0:
			err = fmt.Errorf("no other class to calibrate on")
		default:
			err = calibrateFold(d.Env, m, f.Rest, full)
		}
		if err == nil {
			out = append(out, predictRows(m, d, f.Held)...)
			continue
		}
		skipped = append(skipped, fmt.Sprintf("%s, %s, class %s: %v", name, d.Device, f.Class, err))
		for _, r := range f.Held {
			o := ReportCase(r.Row)
			o.Model, o.Device, o.Err = name, d.Device, fmt.Sprintf("not calibrated without class %s (see below)", f.Class)
			out = append(out, o)
		}
	}
	return out, skipped
}

// Fold is a class of measurement rows held out of a calibration, and the
// rows of the other classes that calibrate without it.
type Fold struct {
	Class      string
	Held, Rest []Row
}

// Folds splits rows into the folds of leave-one-class-out
// cross-validation, one a class, in the classes' sorted order.
func Folds(rows []Row) []Fold {
	classes := map[string][]Row{}
	for _, r := range rows {
		classes[r.Class] = append(classes[r.Class], r)
	}
	var out []Fold
	for _, class := range slices.Sorted(maps.Keys(classes)) {
		f := Fold{Class: class, Held: classes[class]}
		for _, r := range rows {
			if r.Class != class {
				f.Rest = append(f.Rest, r)
			}
		}
		out = append(out, f)
	}
	return out
}

// calibrateFold calibrates m on a fold's rows, from full where m is a
// FoldCalibrator and full is given.
func calibrateFold(env *Env, m Model, rows []Row, full Model) error {
	if f, ok := m.(FoldCalibrator); ok && full != nil {
		return f.CalibrateFold(env, rows, full)
	}
	return m.Calibrate(env, rows)
}
