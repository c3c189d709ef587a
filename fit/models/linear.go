package models

import (
	"fmt"

	"github.com/uniperf/uniperf/fit"
)

func init() {
	Register("linear", func() Model { return &Linear{} })
}

// Linear is seed 001's unified model: one weight per property, fitted by
// relative-error least squares, needing no device parameters.
type Linear struct {
	Options LinearOptions
	Weights *fit.Weights // set by Calibrate, or by the caller from a weight table
}

// Name implements Model.
func (m *Linear) Name() string { return "linear" }

// Calibrate implements Model: it fits the weights to the rows.
func (m *Linear) Calibrate(env *Env, rows []Row) error {
	w, err := env.Counter.Calibrate(rows, m.Options)
	if err != nil {
		return err
	}
	m.Weights = w
	return nil
}

// Predict implements Model: the dot product of weights and counts. Its
// explanation is the terms, largest share first, in seconds.
func (m *Linear) Predict(env *Env, c Case) (Prediction, error) {
	if m.Weights == nil {
		return Prediction{}, fmt.Errorf("linear: %w", ErrNotCalibrated)
	}
	t, terms, err := env.Counter.Predict(m.Weights, c.Kernel, c.Consts, c.Params)
	if err != nil {
		return Prediction{}, err
	}
	p := Prediction{Seconds: t}
	for _, term := range terms {
		p.Explain = append(p.Explain, Quantity{Name: term.Property, Value: term.Seconds, Unit: "s",
			Note: fmt.Sprintf("%.0f × %.3g s", term.Count, term.Weight)})
	}
	return p, nil
}

// Summary implements Model.
func (m *Linear) Summary() string {
	if m.Weights == nil {
		return "not calibrated"
	}
	d := m.Weights.Diagnostics
	return fmt.Sprintf("%d weights fitted on %d rows (rank %d, condition number %.3g), training error %s",
		len(m.Weights.Properties), d.Rows, d.Rank, d.Condition, ErrorText(d.TrainingError))
}
