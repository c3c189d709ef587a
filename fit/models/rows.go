package models

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/report"
)

// Row is a measured row together with where it comes from, for messages.
type Row struct {
	datasets.Row
	Table string // the table's name
	Index int    // the row's index in the table
	// Units are the compute units of the table's device, which the grid
	// fill needs (linear.Options.Fill).
	Units int64
}

// Rows returns the rows of the tables whose role is role ("" for all).
func Rows(tables map[string]*datasets.Table, role string) []Row {
	var out []Row
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		for i, r := range tables[name].Rows {
			if role == "" || r.Role == role {
				out = append(out, Row{Row: r, Table: name, Index: i, Units: int64(tables[name].Meta.ComputeUnits)})
			}
		}
	}
	return out
}

// label names a row in the linear model's messages, with its variant and
// parameters; RowName names it by its size label, as the analytical models
// do.
func (r Row) Label() string {
	return fmt.Sprintf("%s row %d (%s %s, %s)", r.Table, r.Index, r.Kernel, r.Variant, ParamString(r.Params))
}

// OneDevice returns the device all tables were measured on, through one
// backend (see OneBackend).
func OneDevice(tables map[string]*datasets.Table) (string, error) {
	device, first := "", ""
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		switch d := tables[name].Meta.DeviceName; {
		case first == "":
			device, first = d, name
		case d != device:
			return "", fmt.Errorf("fit: %s was measured on %q, %s on %q: fit one device at a time", name, d, first, device)
		}
	}
	if device == "" {
		return "", fmt.Errorf("fit: no tables")
	}
	if err := OneBackend(tables); err != nil {
		return "", fmt.Errorf("fit: %w", err)
	}
	return device, nil
}

// OneBackend refuses tables (keyed by name) measured through different
// backends: CUDA and OpenCL compile the same kernel to different code (on
// an H100 their stride-2 load rates differ by 1.6x), so rows of both in
// one fit or calibration would average two machines.
func OneBackend(tables map[string]*datasets.Table) error {
	first := ""
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		switch b := tables[name].Meta.Backend; {
		case first == "":
			first = name
		case b != tables[first].Meta.Backend:
			return fmt.Errorf("%s was measured through %s, %s through %s: give the tables of one backend", name, b, first, tables[first].Meta.Backend)
		}
	}
	return nil
}

// ReportCase is the case of a row not yet predicted: its device, class,
// kernel, size, role, parameters, consts, work-group size and measured time.
func ReportCase(r datasets.Row) report.Case {
	return report.Case{Device: r.Device, Class: r.Class, Kernel: r.Kernel, Size: SizeLabel(r), Measured: r.TimeS,
		Role: r.Role, Params: r.Params, Consts: r.Consts, LocalSize: r.LocalSize}
}

// SizeLabel names a row's size case in reports: its parameters, the
// consts that are not work-group sizes (a stride, say), and the
// work-group size: "n=262144 STRIDE=2 @256".
func SizeLabel(r datasets.Row) string {
	s := ParamString(r.Params)
	other := map[string]int64{}
	for k, v := range r.Consts {
		if !groupConst[k] {
			other[k] = v
		}
	}
	if len(other) > 0 {
		s += " " + ParamString(other)
	}
	if len(r.LocalSize) > 0 {
		g := make([]string, len(r.LocalSize))
		for i, l := range r.LocalSize {
			g[i] = fmt.Sprint(l)
		}
		s += " @" + strings.Join(g, "x")
	}
	return s
}

// groupConst names the consts that set work-group sizes in the library,
// which the label shows as the work-group size instead.
var groupConst = map[string]bool{"LX": true, "LY": true, "LZ": true}

// RowName names a measured row in messages.
func RowName(r Row) string {
	return fmt.Sprintf("%s row %d (%s %s)", r.Table, r.Index, r.Kernel, SizeLabel(r.Row))
}

// ClassesOf returns the set of the rows' kernel classes.
func ClassesOf(rows []Row) map[string]bool {
	classes := map[string]bool{}
	for _, r := range rows {
		classes[r.Class] = true
	}
	return classes
}
