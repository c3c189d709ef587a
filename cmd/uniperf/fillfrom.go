package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
)

// fillFromUsage is the --fill-from flag's line in every command that fits.
const fillFromUsage = "other tables of the same device whose grid-fill rows set the saturations where they reach wider work-groups; auto: the shipped tables of the device"

// fillRows returns the measurement rows that the grid-fill classes may
// be read from besides lt's own (models.LinearOptions.FillRows): none
// where from is empty, those of the shipped tables of lt's devices that
// lt does not hold itself for from = [auto], else those of the tables
// from (paths or embedded:NAME), which must be of lt's devices.
func fillRows(lt *loadedTables, from []string) ([]models.Row, error) {
	devices := map[string]bool{}
	for _, t := range lt.tables {
		devices[strings.ToLower(t.Meta.DeviceName)] = true
	}
	switch {
	case len(from) == 0:
		return nil, nil
	case len(from) > 1 || from[0] != "auto":
		other, err := loadTables(from)
		if err != nil {
			return nil, fmt.Errorf("--fill-from: %w", err)
		}
		for _, name := range slices.Sorted(maps.Keys(other.tables)) {
			if d := other.tables[name].Meta.DeviceName; !devices[strings.ToLower(d)] {
				return nil, fmt.Errorf("--fill-from %s: measured on %s, not on the device of the tables fitted", name, d)
			}
		}
		return models.Rows(other.tables, datasets.RoleMeasurement), nil
	}
	held := map[string]bool{}
	for _, in := range lt.inputs {
		held[in.SHA256] = true
	}
	tables := map[string]*datasets.Table{}
	for _, name := range datasets.Shipped() {
		data, err := datasets.ShippedBytes(name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		if held[hex.EncodeToString(sum[:])] {
			continue
		}
		t, err := datasets.Decode(embeddedPrefix+name, data)
		if err != nil {
			return nil, err
		}
		if devices[strings.ToLower(t.Meta.DeviceName)] {
			tables[embeddedPrefix+name] = t
		}
	}
	return models.Rows(tables, datasets.RoleMeasurement), nil
}
