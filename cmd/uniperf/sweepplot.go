package main

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/report/plots"
)

// sweepPoint is one parameter set that predict --plot draws.
type sweepPoint struct {
	params    map[string]int64
	predicted float64
}

// plotSweep draws the predictions of kernel at points against the
// parameter that varies most, one series per combination of the other
// varying parameters, with the times that the rows of the tables at
// measured recorded for the same kernel, consts and parameters, and
// writes the SVG to path.
func plotSweep(path, kernel, title string, consts map[string]int64, points []sweepPoint, measured []string) error {
	x, tied, group := sweepAxes(points)
	if x == "" {
		return fmt.Errorf("--plot draws the time across sizes: give several values of a parameter (--sweep, or --param NAME=V1,V2,...)")
	}
	series := map[string]*plots.SweepSeries{}
	var order []string
	seriesOf := func(p map[string]int64) *plots.SweepSeries {
		sub := map[string]int64{}
		for _, g := range group {
			sub[g] = p[g]
		}
		label := models.ParamString(sub)
		if series[label] == nil {
			series[label] = &plots.SweepSeries{Label: label}
			order = append(order, label)
		}
		return series[label]
	}
	for _, pt := range points {
		s := seriesOf(pt.params)
		s.X, s.Predicted = append(s.X, float64(pt.params[x])), append(s.Predicted, pt.predicted)
	}
	if len(measured) > 0 {
		rows, err := measuredRows(kernel, consts, points, measured)
		if err != nil {
			return err
		}
		for _, r := range rows {
			s := seriesOf(r.params)
			s.MeasuredX, s.Measured = append(s.MeasuredX, float64(r.params[x])), append(s.Measured, r.predicted)
		}
	}
	list := make([]plots.SweepSeries, len(order))
	for i, l := range order {
		list[i] = *series[l]
	}
	var svg bytes.Buffer
	if err := plots.Sweep(&svg, list, strings.Join(append([]string{x}, tied...), " = "), title); err != nil {
		return err
	}
	return writeOutput(nil, path, svg.Bytes())
}

// sweepAxes picks the parameter to draw along the x axis, the one with the
// most distinct values (by name where several have as many), the names
// tied to it (equal to it in every set), and the other parameters that
// vary, which tell the series apart. x is empty where nothing varies.
func sweepAxes(points []sweepPoint) (x string, tied, group []string) {
	distinct := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(points[0].params)) {
		seen := map[int64]bool{}
		for _, pt := range points {
			seen[pt.params[name]] = true
		}
		if len(seen) > 1 {
			distinct[name] = len(seen)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(distinct)) {
		if x == "" || distinct[name] > distinct[x] {
			x = name
		}
	}
	for _, name := range slices.Sorted(maps.Keys(distinct)) {
		if name == x {
			continue
		}
		if slices.IndexFunc(points, func(pt sweepPoint) bool { return pt.params[name] != pt.params[x] }) < 0 {
			tied = append(tied, name)
		} else {
			group = append(group, name)
		}
	}
	return x, tied, group
}

// measuredRows returns, as points with the measured time in place of the
// predicted one, the rows of the tables that time kernel at one of the
// points' parameter sets with the consts it is predicted with: every
// const a row records must have the value that the kernel, parsed with
// consts, gives it. Tables without such a row are bad input: the plot
// would silently show predictions alone.
func measuredRows(kernel string, consts map[string]int64, points []sweepPoint, tables []string) ([]sweepPoint, error) {
	file, text, err := kernelSource(kernel)(kernel)
	if err != nil {
		return nil, fmt.Errorf("KERNEL %s: %w", kernel, err)
	}
	ir, err := counts.ParseKernel(file, text, consts)
	if err != nil {
		return nil, err
	}
	want := map[string]int64{}
	for _, c := range ir.Consts {
		want[c.Name] = c.Value
	}
	// uniperf measure KERNEL records a file by its cleaned path.
	name := kernel
	if c := filepath.Clean(kernel); strings.HasSuffix(c, ".knl") || strings.ContainsRune(c, '/') {
		name = c
	}
	lt, err := loadTables(tables)
	if err != nil {
		return nil, err
	}
	var out []sweepPoint
	for _, t := range slices.Sorted(maps.Keys(lt.tables)) {
		for _, r := range lt.tables[t].Rows {
			if r.Kernel != name || !slices.ContainsFunc(points, func(pt sweepPoint) bool { return maps.Equal(pt.params, r.Params) }) {
				continue
			}
			same := true
			for c, v := range r.Consts {
				same = same && want[c] == v
			}
			if same {
				out = append(out, sweepPoint{params: r.Params, predicted: r.TimeS})
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--measured %s: no row times %s at the plotted sizes with consts %s", strings.Join(tables, ", "), name, models.ParamString(want))
	}
	return out, nil
}
