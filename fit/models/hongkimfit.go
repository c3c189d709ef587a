package models

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/hongkim"
)

// HongKimCalibration reports how Calibrate fitted the memory parameters.
//
// The fit minimises the squared relative error Σ (predicted/measured − 1)²
// over the rows, as seed 001 fits its weights, in the logarithms of the
// three parameters (which keeps them positive and treats a factor of two
// the same at 4 cycles as at 400). The model is piecewise in its
// parameters (minima, case selection), so a gradient-free method is used:
// a coarse grid of powers of ten, then Nelder–Mead (gonum/optimize) from
// the grid's best point and from the start, keeping the better result.
type HongKimCalibration struct {
	Rows int `json:"rows"`
	// Skipped lists rows the model cannot price (no instructions).
	Skipped []string `json:"skipped,omitempty"`
	// Start is where the search starts: the device file's values, or
	// Table 6's FX5600 values (420, 4, 10) where the file has none.
	Start HongKimMemory `json:"start"`
	// Held lists parameters that no row exercises (no coalesced or no
	// uncoalesced access), held at their start.
	Held []string `json:"held,omitempty"`
	// AtBound lists parameters the fit drove to the search bounds
	// [HongKimMinCycles, HongKimMaxCycles]: the rows do not determine them.
	AtBound []string `json:"at_bound,omitempty"`
	// RMSRelativeError is √(mean (predicted/measured − 1)²) at the fit,
	// GeoMeanRelativeError the geometric mean of |predicted/measured − 1|.
	RMSRelativeError     float64 `json:"rms_relative_error"`
	GeoMeanRelativeError float64 `json:"geomean_relative_error"`
}

// The search bounds of the memory parameters, in cycles.
const (
	HongKimMinCycles = 1e-3
	HongKimMaxCycles = 1e7
)

// hongKimStart is Table 6's FX5600 column, where the search starts when
// the device file has no value.
var hongKimStart = HongKimMemory{MemLD: 420, DepartureDelCoal: 4, DepartureDelUncoal: 10}

// hongKimSample is one row's program parameters and measured time.
type hongKimSample struct {
	k        hongkim.Kernel
	measured float64
}

// memParam is one of the three memory parameters, by name and place.
type memParam struct {
	name string
	at   func(*HongKimMemory) *float64
}

var memParams = []memParam{
	{"mem_ld", func(m *HongKimMemory) *float64 { return &m.MemLD }},
	{"departure_del_coal", func(m *HongKimMemory) *float64 { return &m.DepartureDelCoal }},
	{"departure_del_uncoal", func(m *HongKimMemory) *float64 { return &m.DepartureDelUncoal }},
}

// calibrateHongKim fits the memory parameters to rows.
func calibrateHongKim(env *Env, d *gpus.Device, fixed gpus.HongKim, regs int, rows []Row) (HongKimMemory, *HongKimCalibration, error) {
	c := &HongKimCalibration{Start: hongKimStart}
	file := HongKimMemory{fixed.MemLD, fixed.DepartureDelCoal, fixed.DepartureDelUncoal}
	for _, p := range memParams {
		if v := *p.at(&file); v > 0 {
			*p.at(&c.Start) = v
		}
	}
	var samples []hongKimSample
	var coal, uncoal bool
	for _, r := range rows {
		in, err := env.Inputs(CaseOf(r))
		if err != nil {
			return HongKimMemory{}, nil, fmt.Errorf("%s: %w", rowName(r), err)
		}
		k, err := hongKimKernel(d, fixed, in, regs)
		if errors.Is(err, errNoWork) {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: %v", rowName(r), err))
			continue
		}
		if err != nil {
			return HongKimMemory{}, nil, fmt.Errorf("%s: %w", rowName(r), err)
		}
		samples = append(samples, hongKimSample{k, r.TimeS})
		coal = coal || k.CoalMemInsts > 0
		uncoal = uncoal || k.UncoalMemInsts > 0
	}
	if len(samples) == 0 {
		return HongKimMemory{}, nil, fmt.Errorf("hongkim: no row to calibrate on (%d rows, all without instructions)", len(rows))
	}
	c.Rows = len(samples)
	var active []memParam
	for _, p := range memParams {
		used := map[string]bool{"mem_ld": coal || uncoal, "departure_del_coal": coal, "departure_del_uncoal": uncoal}[p.name]
		if used {
			active = append(active, p)
		} else {
			c.Held = append(c.Held, p.name)
		}
	}
	mem := c.Start
	if len(active) > 0 {
		mem = fitMemory(hongKimObjective(d, fixed, samples, c.Start, active), c.Start, active)
		for _, p := range active {
			if v := *p.at(&mem); v <= HongKimMinCycles*1.01 || v >= HongKimMaxCycles/1.01 {
				c.AtBound = append(c.AtBound, p.name)
			}
		}
	}
	errs := make([]float64, len(samples))
	var sq float64
	for i, s := range samples {
		r, err := hongkim.Predict(hongKimMachine(d, fixed, mem), s.k)
		if err != nil {
			return HongKimMemory{}, nil, err
		}
		rel := r.Seconds/s.measured - 1
		sq += rel * rel
		errs[i] = math.Abs(rel)
	}
	c.RMSRelativeError = math.Sqrt(sq / float64(len(samples)))
	c.GeoMeanRelativeError = fit.GeoMean(errs)
	return mem, c, nil
}

// rowName names a measured row in messages.
func rowName(r Row) string {
	return fmt.Sprintf("%s row %d (%s %s)", r.Table, r.Index, r.Kernel, SizeLabel(r.Row))
}

// hongKimObjective returns the sum of squared relative errors as a
// function of the logarithms of the active parameters.
func hongKimObjective(d *gpus.Device, fixed gpus.HongKim, samples []hongKimSample, start HongKimMemory, active []memParam) func([]float64) float64 {
	return func(x []float64) float64 {
		mem := withLogs(start, active, x)
		m := hongKimMachine(d, fixed, mem)
		var sum float64
		for _, s := range samples {
			r, err := hongkim.Predict(m, s.k)
			if err != nil {
				return math.Inf(1)
			}
			rel := r.Seconds/s.measured - 1
			sum += rel * rel
		}
		return sum
	}
}

// withLogs sets the active parameters of mem to the exponentials of x,
// clamped to the search bounds.
func withLogs(mem HongKimMemory, active []memParam, x []float64) HongKimMemory {
	lo, hi := math.Log(HongKimMinCycles), math.Log(HongKimMaxCycles)
	for i, p := range active {
		*p.at(&mem) = math.Exp(math.Max(lo, math.Min(hi, x[i])))
	}
	return mem
}

// fitMemory minimises f: a grid of powers of ten from 10^-2 to 10^6 cycles,
// then Nelder–Mead from the grid's best point and from the start.
func fitMemory(f func([]float64) float64, start HongKimMemory, active []memParam) HongKimMemory {
	n := len(active)
	x0 := make([]float64, n)
	for i, p := range active {
		x0[i] = math.Log(*p.at(&start))
	}
	best, bestF := append([]float64(nil), x0...), f(x0)
	x := make([]float64, n)
	var walk func(i int)
	walk = func(i int) {
		if i == n {
			if v := f(x); v < bestF {
				best, bestF = append([]float64(nil), x...), v
			}
			return
		}
		for e := -2; e <= 6; e++ {
			x[i] = float64(e) * math.Ln10
			walk(i + 1)
		}
	}
	walk(0)
	for _, from := range [][]float64{best, x0} {
		settings := &optimize.Settings{FuncEvaluations: 4000, Converger: &optimize.FunctionConverge{Relative: 1e-10, Iterations: 200}}
		// An error here is a run that stopped early (an evaluation
		// limit); its best point is still a candidate.
		res, _ := optimize.Minimize(optimize.Problem{Func: f}, from, settings, &optimize.NelderMead{})
		if res != nil && res.F < bestF {
			best, bestF = res.X, res.F
		}
	}
	return withLogs(start, active, best)
}
