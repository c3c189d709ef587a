package measurekernels

import (
	"encoding/json"
	"fmt"

	"github.com/uniperf/uniperf/measurekernels/suite"
)

// calibration is what calibrate finds per kernel, kept in the table's
// metadata (datasets.Meta.Calibration): a resumed run plans every kernel
// calibrated before from it, without timing anything, even a kernel the
// interrupted run had not reached.
type calibration struct {
	// P is the base size chosen per kernel.
	P map[string]int `json:"p"`
	// Exponent is the e of t ~ N^e that budgetP measured, per kernel.
	Exponent map[string]float64 `json:"exponent,omitempty"`
}

// parseCalibration reads a table's calibration; "" is none.
func parseCalibration(s string) (calibration, error) {
	c := calibration{P: map[string]int{}, Exponent: map[string]float64{}}
	if s == "" {
		return c, nil
	}
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		return c, fmt.Errorf("the table's calibration metadata %.80q: %w", s, err)
	}
	if c.P == nil {
		c.P = map[string]int{}
	}
	if c.Exponent == nil {
		c.Exponent = map[string]float64{}
	}
	return c, nil
}

// recalled plans e from the calibration of an earlier run, if it has one.
func (m *measurer) recalled(e *suite.Kernel) (*plan, bool, error) {
	p, ok := m.cal.P[e.Kernel]
	if !ok {
		return nil, false, nil
	}
	if x, ok := m.cal.Exponent[e.Kernel]; ok {
		m.exponent[e.Kernel] = x
	}
	pl, err := m.plan(e, p)
	return pl, true, err
}

// remember records p as e's base size in the table, and plans it.
func (m *measurer) remember(e *suite.Kernel, p int) (*plan, error) {
	pl, err := m.plan(e, p)
	if err != nil {
		return nil, err
	}
	m.cal.P[e.Kernel] = p
	if x, ok := m.exponent[e.Kernel]; ok {
		m.cal.Exponent[e.Kernel] = x
	}
	data, err := json.Marshal(m.cal)
	if err != nil {
		return nil, &fatalError{err}
	}
	if err := m.out.SetCalibration(string(data)); err != nil {
		return nil, &fatalError{err}
	}
	return pl, nil
}
