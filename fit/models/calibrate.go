package models

import (
	"fmt"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
)

// CalibrateTables fits the linear model's weights for one device on the
// measurement rows of tables (keyed by name). The tables must come from one
// device.
func (c *Counter) CalibrateTables(tables map[string]*datasets.Table, opts LinearOptions) (*fit.Weights, error) {
	device, err := OneDevice(tables)
	if err != nil {
		return nil, err
	}
	rows := Rows(tables, datasets.RoleMeasurement)
	if len(rows) == 0 {
		return nil, fmt.Errorf("fit: the tables have no measurement rows (role %q) to fit on", datasets.RoleMeasurement)
	}
	w, err := c.Calibrate(rows, opts)
	if err != nil {
		return nil, err
	}
	w.Device = device
	return w, nil
}

// Calibrate fits the linear model's weights to rows, which the caller has
// chosen (CalibrateTables takes the measurement rows of whole tables). The
// weights have no device set.
func (c *Counter) Calibrate(rows []Row, opts LinearOptions) (*fit.Weights, error) {
	if opts.ChooseTies {
		return c.calibrateTies(rows, opts)
	}
	return c.calibrateOnce(rows, opts)
}
