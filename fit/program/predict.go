package program

import (
	"errors"
	"fmt"
)

// PredictFunc predicts one bound launch in seconds.
type PredictFunc func(b Bound) (float64, error)

// Timed is a launch with its predicted (or measured) time.
type Timed struct {
	Bound
	Seconds float64
}

// Result is a program's time on one device: per launch, and summed per
// layer and in all by the layer-sum model.
type Result struct {
	Batch     int64 // the batch it ran at; 0 without a batch line
	Launches  []Timed
	Breakdown Breakdown
}

// Predict binds the program at batch (0: the file's value) and sums the
// predictions of every launch (seed 003 (6-4)–(6-8)). A launch the
// predictor fails on is an error naming its line.
func Predict(p *Program, batch int64, predict PredictFunc) (*Result, error) {
	bound, _, err := p.Bind(batch)
	if err != nil {
		return nil, err
	}
	r := &Result{Batch: batch}
	if batch == 0 {
		if r.Batch, err = p.BatchValue(); err != nil {
			return nil, err
		}
	}
	prog := Timeline{Loading: p.Loading, Update: p.Update}
	for _, b := range bound {
		t, err := predict(b)
		if err == nil && !(t >= 0) {
			err = fmt.Errorf("predicted %g s, which is no run time", t)
		}
		if err != nil {
			return nil, &Error{File: p.File, Line: b.Line, Msg: fmt.Sprintf("launch %s: %v", b.Kernel, err)}
		}
		r.Launches = append(r.Launches, Timed{Bound: b, Seconds: t})
		prog.Kernels = append(prog.Kernels, KernelTime{Layer: b.Layer, Kernel: b.Kernel, Phase: b.Phase, Seconds: t})
	}
	if r.Breakdown, err = SumProgram(prog); err != nil {
		return nil, fmt.Errorf("%s: %w", p.File, err)
	}
	return r, nil
}

// Device is one device of a data-parallel split and how to predict a
// launch on it.
type Device struct {
	Name    string
	Predict PredictFunc
}

// Exchange says how devices exchange the parameters after a step.
type Exchange struct {
	// Mode is "ring" (all-reduce) or "ps" (parameter server).
	Mode      string
	Bandwidth float64 // bytes per second of the slowest link
	Latency   float64 // seconds per message
}

// Share is one device's part of a data-parallel step.
type Share struct {
	Device string
	Batch  int64
	// Throughput is the device's whole-batch throughput, batch per
	// second, which set its part.
	Throughput float64
	Result     *Result // nil for a device that gets no part of the batch
}

// Split is a data-parallel step's prediction.
type Split struct {
	Batch    int64
	Shares   []Share
	Exchange Transfer
	Step     Step
}

// DataParallel predicts one data-parallel step of the program over
// devices (seed 003 Chapters 5 and 6): the batch is divided in proportion
// to each device's throughput on the whole batch (Split), every device
// runs the program on its part, and the step takes the slowest share plus
// the exchange of the program's parameter bytes.
func DataParallel(p *Program, devices []Device, x Exchange) (*Split, error) {
	if p.Batch == "" {
		return nil, fmt.Errorf("%s: no batch line, so there is nothing to divide across devices", p.File)
	}
	if len(devices) == 0 {
		return nil, errors.New("data parallel: no devices")
	}
	_, params, err := p.Bind(0)
	if err != nil {
		return nil, err
	}
	total, err := p.BatchValue()
	if err != nil {
		return nil, err
	}
	s := &Split{Batch: total}
	throughputs := make([]float64, len(devices))
	for i, d := range devices {
		r, err := Predict(p, total, d.Predict)
		if err != nil {
			return nil, fmt.Errorf("device %s: %w", d.Name, err)
		}
		if !(r.Breakdown.Total > 0) {
			return nil, fmt.Errorf("device %s: the whole batch is predicted to take %g s, which gives no throughput", d.Name, r.Breakdown.Total)
		}
		throughputs[i] = float64(total) / r.Breakdown.Total
	}
	parts, err := Proportional(total, throughputs)
	if err != nil {
		return nil, err
	}
	var shares []ShareTime
	for i, d := range devices {
		sh := Share{Device: d.Name, Batch: parts[i], Throughput: throughputs[i]}
		if parts[i] > 0 {
			if sh.Result, err = Predict(p, parts[i], d.Predict); err != nil {
				return nil, fmt.Errorf("device %s: %w", d.Name, err)
			}
			shares = append(shares, ShareTime{Device: d.Name, Seconds: sh.Result.Breakdown.Total})
		}
		s.Shares = append(s.Shares, sh)
	}
	n := len(devices)
	s.Exchange = Transfer{Bandwidth: x.Bandwidth, Latency: x.Latency}
	switch {
	case n == 1:
	case x.Mode == "ring":
		s.Exchange.Bytes, s.Exchange.Messages = RingAllReduceBytes(float64(params), n), 2*(n-1)
	case x.Mode == "ps":
		s.Exchange.Bytes, s.Exchange.Messages = ParameterServerBytes(float64(params), n), 2*n
	default:
		return nil, fmt.Errorf("exchange mode %q: want ring or ps", x.Mode)
	}
	if s.Step, err = ParallelStep(shares, s.Exchange); err != nil {
		return nil, err
	}
	return s, nil
}
