package main

import (
	"errors"
	"fmt"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/linear"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/devices"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
)

// kernelTimer generates, checks and times .knl kernels on one device for
// the measured checks of blocksize and predict --program, by the protocol
// of uniperf measure: each kernel is checked against the reference
// interpreter on random inputs with poisoned outputs at the parameters it
// is timed at, then run back to back with the device's event timers, the
// first runs discarded and the minimum of the rest kept.
type kernelTimer struct {
	dev           gpu.Device
	runs, discard int
}

// openTimer opens the device a selector names; an unknown selector is bad
// input, a runtime that fails is the system's.
func openTimer(selector string, runs, discard int) (*kernelTimer, error) {
	if runs <= discard || discard < 0 {
		return nil, fmt.Errorf("--runs %d must exceed --discard %d, which must not be negative", runs, discard)
	}
	dev, err := devices.Open(selector)
	if err != nil {
		var sel *devices.SelectError
		if errors.As(err, &sel) {
			return nil, fmt.Errorf("--measure %s: %w", selector, err)
		}
		return nil, systemFailure(fmt.Errorf("--measure %s: %w", selector, err))
	}
	return &kernelTimer{dev: dev, runs: runs, discard: discard}, nil
}

func (t *kernelTimer) close() { _ = t.dev.Close() }

// name is the device as its runtime reports it.
func (t *kernelTimer) name() string { return t.dev.Info().Name }

// time checks and times kernel (read from src) with consts at params and
// returns the minimum kept time in seconds. Kernel and parameter errors
// are bad input; device faults are the system's.
func (t *kernelTimer) time(src linear.Source, kernel string, consts, params map[string]int64) (float64, error) {
	file, text, err := src(kernel)
	if err != nil {
		return 0, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	ir, err := counts.ParseKernel(file, text, consts)
	if err != nil {
		return 0, err
	}
	code, err := codegen.Generate(ir, t.dev.Info().Backend)
	if err != nil {
		return 0, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	k, err := launch.Build(t.dev, ir, code)
	if err != nil {
		return 0, systemFailure(fmt.Errorf("kernel %s: %w", kernel, err))
	}
	defer k.Close()
	if err := k.Check(params); err != nil {
		return 0, systemFailure(fmt.Errorf("kernel %s at %s: %w", kernel, launch.ParamString(params), err))
	}
	sizes, _, err := k.Sizes(params)
	if err != nil {
		return 0, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	bufs, err := k.Alloc(sizes)
	if err != nil {
		return 0, systemFailure(err)
	}
	defer bufs.Close()
	if err := k.FillInputs(bufs, sizes, 0x2545F4914F6CDD1D); err != nil {
		return 0, systemFailure(err)
	}
	global, local, err := k.Grid(params)
	if err != nil {
		return 0, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	if err := k.Bind(bufs, params); err != nil {
		return 0, systemFailure(err)
	}
	raw := make([]float64, t.runs)
	for i := range raw {
		if raw[i], err = k.Run(global, local); err != nil {
			return 0, systemFailure(fmt.Errorf("kernel %s: %w", kernel, err))
		}
		if !(raw[i] > 0) {
			return 0, systemFailure(fmt.Errorf("kernel %s: the device timer reported %g s", kernel, raw[i]))
		}
	}
	return datasets.MinKept(raw, t.discard), nil
}
