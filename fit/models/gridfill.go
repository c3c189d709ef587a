package models

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit"
)

// SaturationCandidates are the saturations (work-items per compute unit,
// see fit.GridFill) among which Calibrate chooses when it fits the grid
// fill: from 0 (a unit at full throughput with any work, only whole waves
// counted) to 1024, half of what an NVIDIA SM holds; on the shipped tables
// the rows never chose more than 768.
var SaturationCandidates = []int64{0, 64, 128, 192, 256, 384, 512, 768, 1024}

// shape is a launch's number of work-groups and work-items per group.
type shape struct{ groups, size int64 }

// rowShape is the launch shape a row records.
func rowShape(r Row) (shape, error) {
	if len(r.LocalSize) == 0 || len(r.LocalSize) != len(r.GlobalSize) {
		return shape{}, fmt.Errorf("%s: local size %v and global size %v do not describe a launch", r.label(), r.LocalSize, r.GlobalSize)
	}
	for ax, l := range r.LocalSize {
		if l < 1 || r.GlobalSize[ax]%l != 0 {
			return shape{}, fmt.Errorf("%s: global size %v is not a multiple of local size %v", r.label(), r.GlobalSize, r.LocalSize)
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
func (c *Counter) launchShape(name string, consts, params map[string]int64) (shape, error) {
	k, err := c.Kernel(name, consts)
	if err != nil {
		return shape{}, err
	}
	return kernelShape(k.Kernel(), params)
}

// kernelShape is the launch shape of k at params.
func kernelShape(k *counts.Kernel, params map[string]int64) (shape, error) {
	global, local, err := k.Launch(params)
	if err != nil {
		return shape{}, err
	}
	return shapeOf(global[:], local[:]), nil
}

// fillCounts scales the counts of props by the grid-fill factor of s, all
// but the launch terms (fit.Scaled).
func fillCounts(fill *fit.GridFill, s shape, props []string, counts []float64) []float64 {
	return scaleCounts(fill.Factor(s.groups, s.size), props, counts)
}

// scaleCounts scales the counts of props by f, all but the launch terms.
func scaleCounts(f float64, props []string, counts []float64) []float64 {
	out := slices.Clone(counts)
	for j, p := range props {
		if fit.Scaled(p) {
			out[j] *= f
		}
	}
	return out
}

// fillUnits returns the compute units for the grid fill: those opts
// gives, or else those of the rows' device, which must be one.
func fillUnits(rows []Row, opts LinearOptions) (int64, error) {
	if opts.Fill.Units > 0 {
		return opts.Fill.Units, nil
	}
	var units int64
	for _, r := range rows {
		if units != 0 && r.Units != units {
			return 0, fmt.Errorf("fit: %s has %d compute units, other rows %d: the grid fill is fitted for one device", r.label(), r.Units, units)
		}
		units = r.Units
	}
	if units < 1 {
		return 0, fmt.Errorf("fit: the grid fill needs the device's compute units, and the rows give none")
	}
	return units, nil
}

// calibrateFill fits the weights once per saturation candidate on the same
// counts and keeps the fit with the least training error (the geometric
// mean over the classes of each class's geometric-mean relative error),
// so that the saturation is chosen on the rows fitted and nothing else.
func (c *Counter) calibrateFill(rows []Row, opts LinearOptions) (*fit.Weights, error) {
	units, err := fillUnits(rows, opts)
	if err != nil {
		return nil, err
	}
	raw := opts
	raw.Fill = nil
	props, samples, err := c.Samples(rows, raw)
	if err != nil {
		return nil, err
	}
	shapes := make([]shape, len(rows))
	for i, r := range rows {
		if shapes[i], err = rowShape(r); err != nil {
			return nil, err
		}
	}
	// The candidates' fits are independent; they run side by side, and
	// the choice is made in candidate order, so it does not depend on
	// which finishes first.
	fits := make([]*fit.Weights, len(SaturationCandidates))
	errs := make([]error, len(SaturationCandidates))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for k, sat := range SaturationCandidates {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			fill := &fit.GridFill{Units: units, Saturation: sat}
			scaled := slices.Clone(samples)
			for i := range scaled {
				scaled[i].Counts = fillCounts(fill, shapes[i], props, samples[i].Counts)
			}
			fits[k], errs[k] = fit.Fit(props, scaled, opts.Fit)
			if fits[k] != nil {
				fits[k].Fill = fill
			}
		}()
	}
	wg.Wait()
	var best *fit.Weights
	for k, w := range fits {
		if errs[k] != nil {
			continue
		}
		if best == nil || w.Diagnostics.TrainingError < best.Diagnostics.TrainingError ||
			math.IsNaN(best.Diagnostics.TrainingError) {
			best = w
		}
	}
	if best == nil {
		// Every candidate failed alike (a rank or input error); the first
		// says why.
		return nil, errs[0]
	}
	return best, nil
}

// Launch describes a launch's grid fill: its work-groups, their size, and
// the factor that a grid fill scales the counts by.
type Launch struct {
	Groups    int64   `json:"groups"`
	GroupSize int64   `json:"group_size"`
	Factor    float64 `json:"factor"`
}
