package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// writeCalibration stores a calibrated model at path and returns the
// bytes it wrote.
func writeCalibration(path string, m models.Model, device string, d *gpus.Device, inputs []fit.Input) ([]byte, error) {
	data, err := models.EncodeCalibration(m, device, d, inputs)
	var unsupported *json.UnsupportedValueError
	if errors.As(err, &unsupported) {
		return nil, fmt.Errorf("the %s model calibrated on %s: its %s is %s: the device file's or the tables' numbers overflow 64-bit floats (check them)", m.Name(), device, nonFinite(reflect.ValueOf(m), m.Name()), unsupported.Str)
	}
	if err != nil {
		return nil, systemFailure(err)
	}
	return data, writeOutput(nil, path, data)
}

// readCalibration reads a calibration file written by uniperf fit and
// restores the model, which must be the one asked for.
func readCalibration(path, model string) (*models.CalibrationFile, models.Model, error) {
	data, err := inputfile.ReadText(path)
	if err != nil {
		return nil, nil, readError(err)
	}
	return models.DecodeCalibration(path, data, model)
}

// deviceParams returns the device parameter file for a device as the
// measurement tables name it: file when given (a shipped device's name or
// a .json path, as --device-file takes them everywhere), else the shipped
// file whose name or alias it is, compared whole: another CPU of the same
// PoCL build ("pthread-skylake-avx512-" and its model name) is another
// device, with other caches.
func deviceParams(device, file string) (*gpus.Device, error) {
	if file == "" {
		d, err := gpus.Lookup(device)
		if err != nil {
			return nil, fmt.Errorf("device %q: %w; give one with --device-file (docs/device-files.md, \"Another CPU\", says how to write one)", device, err)
		}
		return d, nil
	}
	return deviceFile(file)
}

// byDevice groups the loaded tables by the device they were measured on.
// One device's tables measured through different backends are refused,
// as uniperf fit refuses them.
func byDevice(lt *loadedTables) (map[string][]string, error) {
	out := map[string][]string{}
	for name, t := range lt.tables {
		out[t.Meta.DeviceName] = append(out[t.Meta.DeviceName], name)
	}
	for _, device := range slices.Sorted(maps.Keys(out)) {
		slices.Sort(out[device])
		if err := models.OneBackend(tablesOf(lt, out[device])); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// tablesOf returns the loaded tables of the given names.
func tablesOf(lt *loadedTables, names []string) map[string]*datasets.Table {
	tables := make(map[string]*datasets.Table, len(names))
	for _, name := range names {
		tables[name] = lt.tables[name]
	}
	return tables
}

// deviceRows sets up the rows of every device of the tables with its
// parameter file, counting kernels with counter, or where it is nil with a
// new one per device that counts bank conflicts with the device's layout
// (models.DeviceBanks).
// needDevice says whether a device without a parameter file is an error;
// deviceFile applies when the tables come from one device.
func deviceRows(lt *loadedTables, counter *models.Counter, needDevice bool, deviceFile string) ([]models.DeviceRows, []string, error) {
	groups, err := byDevice(lt)
	if err != nil {
		return nil, nil, err
	}
	if deviceFile != "" && len(groups) > 1 {
		return nil, nil, fmt.Errorf("--device-file gives the parameters of one device, and the tables come from %d: %s",
			len(groups), strings.Join(slices.Sorted(maps.Keys(groups)), ", "))
	}
	var out []models.DeviceRows
	var notes []string
	for _, device := range slices.Sorted(maps.Keys(groups)) {
		tables := tablesOf(lt, groups[device])
		env := &models.Env{Counter: counter}
		if counter == nil {
			banks, _ := models.DeviceBanks(device)
			env.Counter = models.NewCounterWith(tableKernels, banks)
		}
		if needDevice || deviceFile != "" {
			d, err := deviceParams(device, deviceFile)
			if err != nil {
				return nil, nil, err
			}
			env.Device = d
			notes = append(notes, deviceNotes(device, tables, d)...)
		}
		out = append(out, models.DeviceRows{Device: device, Env: env, Rows: models.Rows(tables, "")})
	}
	return out, notes, nil
}

// deviceNotes points out a device file given for another device than the
// tables', and where a table's metadata disagrees with the device file's
// compute units or clock.
func deviceNotes(device string, tables map[string]*datasets.Table, d *gpus.Device) []string {
	var notes []string
	if !describes(d, device) {
		notes = append(notes, otherDeviceFile(d, device))
	}
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		m := tables[name].Meta
		if m.ComputeUnits > 0 && m.ComputeUnits != d.SMs || m.ClockMHz > 0 && float64(m.ClockMHz) != d.ClockHz/1e6 {
			notes = append(notes, fmt.Sprintf("%s reports %d compute units at %d MHz; the device file %s has %d at %g MHz",
				name, m.ComputeUnits, m.ClockMHz, d.File, d.SMs, d.ClockHz/1e6))
		}
	}
	return notes
}
