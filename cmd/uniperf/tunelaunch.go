package main

import (
	"fmt"
	"maps"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/tune"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// timeConfig is kernelTimer.time for tune --measure: a binding the
// device cannot launch (a work-group beyond the device's or the compiled
// kernel's limit, local arrays beyond its local memory) or that the
// kernel refuses is a tune.ErrInvalid error, so that the configuration
// is skipped rather than the run failed. A wrong result stays an error.
// The check runs at params with checkAt's values in place of theirs.
func (t *kernelTimer) timeConfig(src models.Source, kernel string, consts, params, checkAt map[string]int64) (float64, error) {
	file, text, err := src(kernel)
	if err != nil {
		return 0, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	ir, err := counts.ParseKernel(file, text, consts)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", tune.ErrInvalid, err)
	}
	info := t.dev.Info()
	if err := fitsDevice(info, ir, params); err != nil {
		return 0, fmt.Errorf("%w: %w", tune.ErrInvalid, err)
	}
	k, err := t.build(ir)
	if err != nil {
		return 0, err
	}
	defer k.Close()
	_, local, err := k.Grid(params)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", tune.ErrInvalid, err)
	}
	if group := product(local); k.MaxGroup() > 0 && group > k.MaxGroup() {
		return 0, fmt.Errorf("%w: a work-group of %d work-items exceeds the compiled kernel's limit %d on %s", tune.ErrInvalid, group, k.MaxGroup(), info.Name)
	}
	at := maps.Clone(params)
	maps.Copy(at, checkAt)
	if err := t.check(k, at); err != nil {
		return 0, err
	}
	raw, _, err := t.measure(k, params)
	if err != nil {
		return 0, err
	}
	return datasets.MinKept(raw, t.discard), nil
}

// fitsDevice checks a kernel's launch grid at params and its local
// arrays against the device's limits, before it is compiled (a CUDA
// compiler refuses shared arrays beyond the limit).
func fitsDevice(info gpu.Info, ir *counts.Kernel, params map[string]int64) error {
	g, l, err := ir.Launch(params)
	if err != nil {
		return err
	}
	if err := gpu.CheckGrid(info, g[:], l[:]); err != nil {
		return err
	}
	if bytes := ir.LocalBytes(); info.LocalMemBytes > 0 && bytes > info.LocalMemBytes {
		return fmt.Errorf("local arrays of %d bytes exceed the device's %d bytes of local memory", bytes, info.LocalMemBytes)
	}
	return nil
}

func product(s []int64) int64 {
	p := int64(1)
	for _, v := range s {
		p *= v
	}
	return p
}
