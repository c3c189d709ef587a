package linear

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// SaturationCandidates are the saturations (work-items per compute unit,
// see fit.GridFill) among which Calibrate chooses when it fits the grid
// fill: from 0 (a unit at full throughput with any work, only whole waves
// counted) to 1024, half of what an NVIDIA SM holds. 640 is among them
// because the latency-bound properties of the H200 through CUDA choose it.
var SaturationCandidates = []int64{0, 64, 128, 192, 256, 384, 512, 640, 768, 1024}

// fillClasses are the suite's classes that vary the grid alone, at fixed
// work per work-item, and the saturation that each one's rows read (see
// readFill): grid_fill_chain's dependent additions the shared one,
// grid_fill_local's local loads and rsqrt the latency-bound properties',
// grid_fill_stream's stride-1 loads the coalesced global accesses'.
var fillClasses = []struct {
	class, of string
	set       func(g *fit.GridFill, v int64)
}{
	{"grid_fill_chain", fit.SharedSaturation, func(g *fit.GridFill, v int64) { g.Saturation = v }},
	{"grid_fill_local", fit.LatencySaturation, func(g *fit.GridFill, v int64) { g.Latency = &v }},
	{"grid_fill_stream", fit.GlobalSaturation, func(g *fit.GridFill, v int64) { g.Global = &v }},
}

// readFill reads into fill the saturations of the fill classes that rows
// hold (fit.ReadSaturation on each class's rows) and returns a reading
// for each class it found: the value, or, where the rows do not place
// it, why (Error set), which leaves that saturation to the search by
// training error. Where other holds rows of the class too, on a device
// of as many units, whose work-groups reach wider than the rows' own,
// the class is read from those: a unit's latency is hidden at a full
// unit's occupancy, which narrow groups reach only by sharing a unit,
// and OpenCL ran the suite's grid-fill kernels on an H100 in groups of
// at most 256 work-items, where CUDA ran them up to 1024. A class the
// rows lack (left out by cross-validation, say) is not read from other,
// nor are the rows of other devices.
func readFill(rows, other []models.Row, fill *fit.GridFill) ([]fit.SaturationReading, error) {
	if len(rows) > 0 {
		other = slices.DeleteFunc(slices.Clone(other), func(r models.Row) bool { return !strings.EqualFold(r.Device, rows[0].Device) })
	}
	var read []fit.SaturationReading
	for _, fc := range fillClasses {
		own, err := fillRuns(rows, fc.class)
		if err != nil {
			return nil, err
		}
		if len(own.runs) == 0 {
			continue
		}
		o, err := fillRuns(other, fc.class)
		if err != nil {
			return nil, err
		}
		from, table := own, ""
		if o.widest > own.widest && o.units == fill.Units {
			from, table = o, o.table
		}
		reading := fit.SaturationReading{Of: fc.of, Class: fc.class, Rows: len(from.runs), Table: table}
		var sat int64
		var rms float64
		if len(from.work) > 1 {
			err = fmt.Errorf("its rows do not all do the same work per work-item (%s)", strings.Join(slices.Sorted(maps.Keys(from.work)), "; "))
		} else {
			sat, rms, err = fit.ReadSaturation(from.runs, fill.Units)
		}
		if err != nil {
			reading.Error = err.Error()
		} else {
			reading.Value, reading.RMS = sat, rms
			fc.set(fill, sat)
		}
		read = append(read, reading)
	}
	return read, nil
}

// classRuns are the runs of one fill class, the work per work-item they
// do (fixedWork, one name each), the widest work-group among them, and
// the table and compute units of their first row.
type classRuns struct {
	runs   []fit.FillRun
	work   map[string]bool
	widest int64
	table  string
	units  int64
}

// fillRuns gathers the runs of class among rows.
func fillRuns(rows []models.Row, class string) (classRuns, error) {
	c := classRuns{work: map[string]bool{}}
	for _, r := range rows {
		if r.Class != class {
			continue
		}
		s, err := rowShape(r)
		if err != nil {
			return classRuns{}, err
		}
		if len(c.runs) == 0 {
			c.table, c.units = r.Table, r.Units
		}
		c.runs = append(c.runs, fit.FillRun{Groups: s.groups, GroupSize: s.size, Time: r.TimeS})
		c.work[fixedWork(r.Params)] = true
		c.widest = max(c.widest, s.size)
	}
	return c, nil
}

// fixedWork names the parameters of a fill class's row but its number
// of groups, ng: those that set the work per work-item, the same in
// every row that ReadSaturation reads together.
func fixedWork(params map[string]int64) string {
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(params)) {
		if p != "ng" {
			parts = append(parts, fmt.Sprintf("%s=%d", p, params[p]))
		}
	}
	return strings.Join(parts, ",")
}

// shape is a launch's number of work-groups and work-items per group.
type shape struct{ groups, size int64 }

// rowShape is the launch shape a row records.
func rowShape(r models.Row) (shape, error) {
	if len(r.LocalSize) == 0 || len(r.LocalSize) != len(r.GlobalSize) {
		return shape{}, fmt.Errorf("%s: local size %v and global size %v do not describe a launch", r.Label(), r.LocalSize, r.GlobalSize)
	}
	for ax, l := range r.LocalSize {
		if l < 1 || r.GlobalSize[ax]%l != 0 {
			return shape{}, fmt.Errorf("%s: global size %v is not a multiple of local size %v", r.Label(), r.GlobalSize, r.LocalSize)
		}
	}
	return shapeOf(r.GlobalSize, r.LocalSize), nil
}

// shapeOf is the shape of a launch of global work-items in work-groups of
// local, per axis; global is a multiple of local on every axis.
func shapeOf(global, local []int64) shape {
	s := shape{groups: 1, size: 1}
	for ax, l := range local {
		s.groups *= global[ax] / l
		s.size *= l
	}
	return s
}

// launchShape is the launch shape of kernel name (consts bound) at params.
func launchShape(c *models.Counter, name string, consts, params map[string]int64) (shape, error) {
	k, err := c.Kernel(name, consts)
	if err != nil {
		return shape{}, err
	}
	return kernelShape(name, k.Kernel(), params)
}

// kernelShape is the launch shape of kernel name, k, at params; an
// empty launch is refused (models.CheckLaunch), as its groups divide.
func kernelShape(name string, k *counts.Kernel, params map[string]int64) (shape, error) {
	global, local, err := k.Launch(params)
	if err != nil {
		return shape{}, err
	}
	if err := models.CheckLaunch(name, params, global, local); err != nil {
		return shape{}, err
	}
	return shapeOf(global[:], local[:]), nil
}

// fillCounts scales the counts of props by the grid fill of a launch of
// shape s, each by its own factor (fit.GridFill.Scale): the launch terms
// not at all.
func fillCounts(fill *fit.GridFill, s shape, props []string, counts []float64) []float64 {
	out := slices.Clone(counts)
	for j, p := range props {
		out[j] *= fill.Scale(p, s.groups, s.size)
	}
	return out
}

// Launch describes a launch's grid fill: its work-groups, their size, and
// the factors that a grid fill scales the counts by (LatencyFactor that
// of the latency-bound properties and GlobalFactor that of the coalesced
// global accesses, where the grid fill gives them their own saturation).
type Launch struct {
	Groups        int64   `json:"groups"`
	GroupSize     int64   `json:"group_size"`
	Factor        float64 `json:"factor"`
	LatencyFactor float64 `json:"latency_factor,omitempty"`
	GlobalFactor  float64 `json:"global_factor,omitempty"`
}

// launchOf describes the launch of shape s under fill.
func launchOf(fill *fit.GridFill, s shape) Launch {
	l := Launch{Groups: s.groups, GroupSize: s.size, Factor: fill.Factor(s.groups, s.size)}
	if fill.Latency != nil {
		l.LatencyFactor = fill.LatencyFactor(s.groups, s.size)
	}
	if fill.Global != nil {
		l.GlobalFactor = fill.GlobalFactor(s.groups, s.size)
	}
	return l
}
