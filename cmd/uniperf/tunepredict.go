package main

import (
	"cmp"
	"fmt"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
)

// tunePredictor predicts one binding of a kernel's consts at tune's
// --param sizes, with the model --model names.
type tunePredictor struct {
	counter *models.Counter
	// weights are the linear model's; nil with another model.
	weights *fit.Weights
	device  string
	// predict is given the binding's launch, which tune has found
	// already, so that the linear model need not find it again.
	predict func(kernel string, consts map[string]int64, l kernelLaunch) (float64, error)
}

// predictorOptions are the flags that choose tune's model: --model,
// --weights, --device-file, --strict and --allow-unpriced.
type predictorOptions struct {
	model, weights, deviceFile string
	strict, unpriced           bool
}

// newTunePredictor reads --weights as the linear model's weight table,
// or as the calibration uniperf fit --model wrote for another model; its
// counter reads the kernels from src.
func newTunePredictor(src models.Source, params map[string]int64, opts predictorOptions) (*tunePredictor, error) {
	if opts.model == "" || opts.model == "linear" {
		if opts.deviceFile != "" {
			return nil, fmt.Errorf("--device-file is for models other than linear, which needs no device parameters")
		}
		return linearTunePredictor(src, params, opts)
	}
	if _, err := models.New(opts.model); err != nil {
		return nil, fmt.Errorf("--model: %w", err)
	}
	if opts.strict || opts.unpriced {
		return nil, fmt.Errorf("--strict and --allow-unpriced concern the linear model's weights, not the %s model's calibration", opts.model)
	}
	cal, m, err := readCalibration(opts.weights, opts.model)
	if err != nil {
		return nil, err
	}
	d, err := deviceParams(cal.Device, opts.deviceFile)
	if err != nil {
		return nil, err
	}
	warnDeviceFile(d, cal.Device)
	// Every count the models take (the counts, the hierarchy model's
	// footprints, cache lines, scalar moves and chains, Hong–Kim's
	// footprints) is exact at the sizes params, where the bindings share
	// the parts of their sets (counts.Shared).
	counter := models.NewCounterAt(src, models.DefaultBanks, params)
	env := &models.Env{Counter: counter, Device: d}
	return &tunePredictor{counter: env.Counter, device: cal.Device, predict: func(kernel string, consts map[string]int64, _ kernelLaunch) (float64, error) {
		p, err := m.Predict(env, models.Case{Kernel: kernel, Consts: consts, Params: params})
		if err != nil {
			return 0, err
		}
		return p.Seconds, finite(kernel, params, p.Seconds)
	}}, nil
}

// linearTunePredictor predicts with seed 001's weights, as predict does,
// counting each binding at the sizes params only: every configuration
// is predicted there, and a count at fixed sizes is several times faster.
func linearTunePredictor(src models.Source, params map[string]int64, opts predictorOptions) (*tunePredictor, error) {
	w, err := loadWeights(opts.weights)
	if err != nil {
		return nil, err
	}
	if err := models.CheckWeights(w); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.weights, err)
	}
	w.ZeroMissing = !opts.strict
	counter := models.NewCounterAt(src, models.WeightsBanks(w), params)
	return &tunePredictor{counter: counter, weights: w, device: w.Device, predict: func(kernel string, consts map[string]int64, l kernelLaunch) (float64, error) {
		t, terms, _, err := linear.PredictAt(counter, w, kernel, consts, params, l.global, l.local)
		if err == nil {
			if !opts.unpriced {
				err = mostlyUnpriced(kernel, params, terms)
			}
			err = cmp.Or(err, finite(kernel, params, t, terms...), priced(kernel, params, t, terms))
		}
		return t, err
	}}, nil
}
