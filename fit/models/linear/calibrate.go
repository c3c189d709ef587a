package linear

import (
	"fmt"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// CalibrateTables fits the linear model's weights for one device on the
// measurement rows of tables (keyed by name). The tables must come from one
// device.
func CalibrateTables(c *models.Counter, tables map[string]*datasets.Table, opts Options) (*fit.Weights, error) {
	device, err := models.OneDevice(tables)
	if err != nil {
		return nil, err
	}
	rows := models.Rows(tables, datasets.RoleMeasurement)
	if len(rows) == 0 {
		return nil, fmt.Errorf("fit: the tables have no measurement rows (role %q) to fit on", datasets.RoleMeasurement)
	}
	w, err := Calibrate(c, rows, opts)
	if err != nil {
		return nil, err
	}
	w.Device = device
	return w, nil
}

// Calibrate fits the linear model's weights to rows, which the caller has
// chosen (CalibrateTables takes the measurement rows of whole tables). The
// weights have no device set.
func Calibrate(c *models.Counter, rows []models.Row, opts Options) (*fit.Weights, error) {
	if opts.ChooseTies {
		return calibrateTies(c, rows, opts)
	}
	return calibrateOnce(c, rows, opts)
}
