package main

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
)

// fillFromUsage is the --fill-from flag's line in every command that fits.
const fillFromUsage = "other tables of the same device whose grid-fill rows set the saturations where they reach wider work-groups; auto: the shipped tables of the device"

// fillRows returns the measurement rows that the grid-fill classes may
// be read from besides lt's own (linear.Options.FillRows): none
// where from is empty, those of the shipped tables of lt's devices that
// lt does not hold itself for from = [auto], else those of the tables
// from (paths or embedded:NAME), which must be of lt's devices.
func fillRows(lt *loadedTables, from []string) ([]models.Row, error) {
	if len(from) == 0 {
		return nil, nil
	}
	auto := len(from) == 1 && from[0] == "auto"
	if auto {
		from = shippedTables()
	}
	other, err := loadTables(from)
	if err != nil {
		return nil, fmt.Errorf("--fill-from: %w", err)
	}
	devices := map[string]bool{}
	for _, t := range lt.tables {
		devices[strings.ToLower(t.Meta.DeviceName)] = true
	}
	held := map[string]bool{}
	for _, in := range lt.inputs {
		held[in.SHA256] = true
	}
	for i, name := range from {
		d := other.tables[name].Meta.DeviceName
		switch {
		case !auto && !devices[strings.ToLower(d)]:
			return nil, fmt.Errorf("--fill-from %s: measured on %s, not on the device of the tables fitted", name, d)
		case auto && (held[other.inputs[i].SHA256] || !devices[strings.ToLower(d)]):
			delete(other.tables, name)
		}
	}
	return models.Rows(other.tables, datasets.RoleMeasurement), nil
}
