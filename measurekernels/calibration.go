package measurekernels

import (
	"encoding/json"
	"fmt"
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
