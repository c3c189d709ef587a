package linear

import (
	"fmt"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

func init() {
	models.Register("linear", func() models.Model { return &Model{} })
}

// Model is seed 001's unified model: one weight per property, fitted by
// relative-error least squares, needing no device parameters.
type Model struct {
	Options Options
	Weights *fit.Weights // set by Calibrate, or by the caller from a weight table
}

// Name implements Model.
func (m *Model) Name() string { return "linear" }

// Calibrate implements Model: it fits the weights to the rows.
func (m *Model) Calibrate(env *models.Env, rows []models.Row) error {
	w, err := Calibrate(env.Counter, rows, m.Options)
	if err != nil {
		return err
	}
	m.Weights = w
	return nil
}

// Predict implements Model: the dot product of weights and counts. Its
// explanation is the terms, largest share first, in seconds.
func (m *Model) Predict(env *models.Env, c models.Case) (models.Prediction, error) {
	if m.Weights == nil {
		return models.Prediction{}, fmt.Errorf("linear: %w", models.ErrNotCalibrated)
	}
	t, terms, err := Predict(env.Counter, m.Weights, c.Kernel, c.Consts, c.Params)
	if err != nil {
		return models.Prediction{}, err
	}
	p := models.Prediction{Seconds: t}
	for _, term := range terms {
		p.Explain = append(p.Explain, models.Quantity{Name: term.Property, Value: term.Seconds, Unit: "s",
			Note: fmt.Sprintf("%.0f × %.3g s", term.Count, term.Weight)})
	}
	return p, nil
}

// CheckCalibration implements models.CalibrationChecker: restored weights
// must pass fit.Weights.Validate, as a weight table read from disk does,
// since Predict reads them as such (a weight per property). Calibrate
// names no device, so the check lends them one where they have none.
func (m *Model) CheckCalibration() error {
	if m.Weights == nil {
		return nil
	}
	w := *m.Weights
	if w.Device == "" {
		w.Device = "the calibrated device"
	}
	return w.Validate()
}

// Summary implements Model.
func (m *Model) Summary() string {
	if m.Weights == nil {
		return "not calibrated"
	}
	d := m.Weights.Diagnostics
	return fmt.Sprintf("%d weights fitted on %d rows (rank %d, condition number %.3g), training error %s",
		len(m.Weights.Properties), d.Rows, d.Rank, d.Condition, models.ErrorText(d.TrainingError))
}
