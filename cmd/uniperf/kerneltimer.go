package main

import (
	"errors"
	"fmt"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/measurekernels"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
)

// kernelTimer generates, checks and times .knl kernels on one device for
// uniperf measure KERNEL and the measured checks of blocksize and predict
// --program, by the protocol of uniperf measure: each kernel is checked
// against the reference interpreter on random inputs with poisoned
// outputs, then run back to back with the device's event timers, the
// first runs discarded and the minimum of the rest kept.
type kernelTimer struct {
	dev           gpu.Device
	runs, discard int
}

// openTimer opens the device a selector names, for the command-line flag
// flag; an unknown selector is bad input, a runtime that fails is the
// system's.
func openTimer(flag, selector string, runs, discard int) (*kernelTimer, error) {
	if err := checkRuns(runs, discard); err != nil {
		return nil, err
	}
	dev, err := devices.Open(selector)
	if err != nil {
		var sel *devices.SelectError
		if errors.As(err, &sel) {
			return nil, fmt.Errorf("%s %s: %w", flag, selector, err)
		}
		return nil, systemFailure(fmt.Errorf("%s %s: %w", flag, selector, err))
	}
	return &kernelTimer{dev: dev, runs: runs, discard: discard}, nil
}

// checkRuns validates --runs and --discard before any device is opened.
func checkRuns(runs, discard int) error {
	if runs <= discard || discard < 0 || runs > measurekernels.MaxRuns {
		return fmt.Errorf("--runs %d must exceed --discard %d, which must not be negative, and be at most %d", runs, discard, measurekernels.MaxRuns)
	}
	return nil
}

func (t *kernelTimer) close() { _ = t.dev.Close() }

// name is the device as its runtime reports it.
func (t *kernelTimer) name() string { return t.dev.Info().Name }

// build generates the device's source for ir and compiles it. A kernel
// the generator refuses is bad input; a compiler failure is the system's.
func (t *kernelTimer) build(ir *counts.Kernel) (*launch.Kernel, error) {
	code, err := codegen.Generate(ir, t.dev.Info().Backend)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", ir.Name, err)
	}
	k, err := launch.Build(t.dev, ir, code)
	if err != nil {
		return nil, systemFailure(fmt.Errorf("kernel %s: %w", ir.Name, err))
	}
	return k, nil
}

// check runs k at params against the reference interpreter. A wrong
// result is the device's or the generator's fault, not the user's; a
// kernel the interpreter refuses (a subscript out of bounds, a division
// by zero) is the user's, and its error names the line.
func (t *kernelTimer) check(k *launch.Kernel, params map[string]int64) error {
	if err := k.Check(params); err != nil {
		err = fmt.Errorf("kernel %s at %s: %w", k.IR.Name, launch.ParamString(params), err)
		var ce *counts.Error
		if errors.As(err, &ce) {
			return err
		}
		return systemFailure(err)
	}
	return nil
}

// measure runs k at params t.runs times on the random inputs of the
// timing protocol (measurekernels.Inputs, measurekernels.TimeRuns) and
// returns every run's time in seconds, the discarded first. It does not check the
// results: call check first.
func (t *kernelTimer) measure(k *launch.Kernel, params map[string]int64) ([]float64, error) {
	sizes, _, err := k.Sizes(params)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", k.IR.Name, err)
	}
	global, local, err := k.Grid(params)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", k.IR.Name, err)
	}
	bufs, err := measurekernels.Inputs(k, sizes)
	if err != nil {
		return nil, systemFailure(err)
	}
	defer bufs.Close()
	if err := k.Bind(bufs, params); err != nil {
		return nil, systemFailure(err)
	}
	raw, err := measurekernels.TimeRuns(k, global, local, t.runs)
	if err != nil {
		return nil, systemFailure(fmt.Errorf("kernel %s: %w", k.IR.Name, err))
	}
	return raw, nil
}

// time checks and times kernel (read from src) with consts at params and
// returns the minimum kept time in seconds. Kernel and parameter errors
// are bad input; device faults are the system's.
func (t *kernelTimer) time(src models.Source, kernel string, consts, params map[string]int64) (float64, error) {
	file, text, err := src(kernel)
	if err != nil {
		return 0, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	ir, err := counts.ParseKernel(file, text, consts)
	if err != nil {
		return 0, err
	}
	k, err := t.build(ir)
	if err != nil {
		return 0, err
	}
	defer k.Close()
	if err := t.check(k, params); err != nil {
		return 0, err
	}
	raw, err := t.measure(k, params)
	if err != nil {
		return 0, err
	}
	return datasets.MinKept(raw, t.discard), nil
}
