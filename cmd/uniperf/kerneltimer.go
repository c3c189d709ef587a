package main

import (
	"errors"
	"fmt"
	"math"

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
	// stable, when set, makes measure time more runs until they agree.
	stable *stableRule
}

// stableRule is measure KERNEL's --repeat-until-stable: after the first
// --runs runs, further batches of --runs runs are timed until the kept
// runs' median lies within tolerance of their minimum (Spread.Noise), or
// until maxRuns runs in all. The median is the rule's yardstick because
// it is what the noise warning and "within the noise" use: a row that
// passes is one whose typical run agrees with the figure recorded.
type stableRule struct {
	tolerance float64
	maxRuns   int
}

// defaultMaxRuns is --max-runs: a thousand runs of a kernel that stays
// noisy take a second or so on a GPU, and a row of raw times stays small.
const defaultMaxRuns = 1000

// holds reports whether raw, the first discard runs left out, meets the
// rule.
func (r *stableRule) holds(raw []float64, discard int) bool {
	return datasets.SpreadOf(raw, discard).Noise() <= r.tolerance
}

// checkStable validates the flags of --repeat-until-stable against --runs.
func checkStable(r *stableRule, runs int) error {
	if r.tolerance < 0 || math.IsNaN(r.tolerance) || math.IsInf(r.tolerance, 0) {
		return fmt.Errorf("--tolerance %g must be a non-negative fraction, e.g. 0.02 for the median within 2%% of the minimum", r.tolerance)
	}
	if r.maxRuns < runs || r.maxRuns > measurekernels.MaxRuns {
		return fmt.Errorf("--max-runs %d must be at least --runs %d and at most %d", r.maxRuns, runs, measurekernels.MaxRuns)
	}
	return nil
}

// repeatUntilStable appends batches of batch runs from more to raw until
// rule holds or rule.maxRuns runs are reached, and reports whether it
// holds. The first discard runs stay the only ones left out: later batches
// follow on a device already warm.
func repeatUntilStable(raw []float64, discard, batch int, rule *stableRule, more func(n int) ([]float64, error)) ([]float64, bool, error) {
	for !rule.holds(raw, discard) {
		n := min(batch, rule.maxRuns-len(raw))
		if n <= 0 {
			return raw, false, nil
		}
		next, err := more(n)
		if err != nil {
			return nil, false, err
		}
		raw = append(raw, next...)
	}
	return raw, true, nil
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
		err = fmt.Errorf("kernel %s at %s: %w", k.IR.Name, sizeName(params), err)
		var ce *counts.Error
		var empty *launch.EmptyGridError
		if errors.As(err, &ce) || errors.As(err, &empty) {
			return err
		}
		return systemFailure(err)
	}
	return nil
}

// measure runs k at params t.runs times on the random inputs of the
// timing protocol (measurekernels.Inputs, measurekernels.TimeRuns), more
// under t.stable, and returns every run's time in seconds, the discarded
// first, and whether t.stable's rule holds (true without a rule). It does
// not check the results: call check first.
func (t *kernelTimer) measure(k *launch.Kernel, params map[string]int64) ([]float64, bool, error) {
	sizes, _, err := k.Sizes(params)
	if err != nil {
		return nil, false, fmt.Errorf("kernel %s: %w", k.IR.Name, err)
	}
	global, local, err := k.Grid(params)
	if err != nil {
		return nil, false, fmt.Errorf("kernel %s: %w", k.IR.Name, err)
	}
	bufs, err := measurekernels.Inputs(k, sizes, params)
	if err != nil {
		return nil, false, systemFailure(err)
	}
	defer bufs.Close()
	if err := k.Bind(bufs, params); err != nil {
		return nil, false, systemFailure(err)
	}
	timeRuns := func(n int) ([]float64, error) {
		raw, err := measurekernels.TimeRuns(k, global, local, n)
		if err != nil {
			return nil, systemFailure(fmt.Errorf("kernel %s: %w", k.IR.Name, err))
		}
		return raw, nil
	}
	raw, err := timeRuns(t.runs)
	if err != nil || t.stable == nil {
		return raw, err == nil, err
	}
	return repeatUntilStable(raw, t.discard, t.runs, t.stable, timeRuns)
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
	raw, _, err := t.measure(k, params)
	if err != nil {
		return 0, err
	}
	return datasets.MinKept(raw, t.discard), nil
}
