package fit

import (
	"fmt"
	"math"
)

// FillRun is one timed launch of a kernel whose every work-item does the
// same work whatever the grid: its work-groups, their size and its time
// in seconds.
type FillRun struct {
	Groups, GroupSize int64
	Time              float64
}

// SaturationStep and MaxSaturation bound the saturations ReadSaturation
// tries: every multiple of a 32-wide warp up to the most work-items an
// NVIDIA SM holds.
const (
	SaturationStep = 32
	MaxSaturation  = 2048
)

// The saturations of a GridFill, as a SaturationReading names them.
const (
	SharedSaturation  = "shared"
	LatencySaturation = "latency-bound"
	GlobalSaturation  = "coalesced global"
)

// SaturationReading records a saturation that the grid fill took, or
// tried to take, from the runs of one measurement class (see
// ReadSaturation) rather than from the training error of the whole fit.
type SaturationReading struct {
	Of    string  `json:"of"`              // SharedSaturation, LatencySaturation or GlobalSaturation
	Class string  `json:"class"`           // the kernel class whose rows set it
	Rows  int     `json:"rows"`            // the class's rows
	Value int64   `json:"value"`           // work-items per compute unit
	RMS   float64 `json:"rms"`             // root-mean-square relative error of the class's own fit
	Error string  `json:"error,omitempty"` // why no saturation could be read, where none was
	// Table, where set, is the table of the same device whose rows of
	// the class were read instead of the fitted rows' own, because they
	// reach wider work-groups (linear.Options.FillRows).
	Table string `json:"table,omitempty"`
}

// ReadSaturation reads the saturation of a grid fill (see GridFill) from
// the runs of one kernel whose work per work-item is fixed and whose
// grids vary, as the suite's grid_fill classes are: such a launch takes a
// fixed time a (the launch) plus the time of its busiest unit, which runs
// ⌈G/units⌉·wg work-items at the pace of S when it holds fewer than S,
// so that its time is a + b·units·max(⌈G/units⌉·wg, S). For each
// candidate S, a and b are fitted to the runs by relative least squares,
// as Fit fits weights, both non-negative; the S of least residual is
// returned with the root-mean-square relative error of that fit. Runs
// that fit every saturation of a range wider than a step alike (no run's
// busiest unit lies between its ends, or none under them) do not place
// the saturation, and give an error that says which range.
//
// The class's own two constants absorb what the weights of a whole fit
// would misprice in its work, so that the saturation is read from where
// its time leaves the floor of an under-filled device, not traded
// against the level of every other class's rows.
func ReadSaturation(runs []FillRun, units int64) (sat int64, rms float64, err error) {
	if units < 1 {
		return 0, 0, fmt.Errorf("saturation: %d compute units: want at least 1", units)
	}
	if len(runs) < 3 {
		return 0, 0, fmt.Errorf("saturation: %d runs: want at least 3 to fit a fixed time, a rate and the saturation", len(runs))
	}
	for i, r := range runs {
		if r.Groups < 1 || r.GroupSize < 1 || !(r.Time > 0) || math.IsInf(r.Time, 0) {
			return 0, 0, fmt.Errorf("saturation: run %d: %d groups of %d work-items in %g s: want positive groups, sizes and times", i+1, r.Groups, r.GroupSize, r.Time)
		}
	}
	var ss []float64
	best := math.Inf(1)
	for s := int64(0); s <= MaxSaturation; s += SaturationStep {
		v, ok := fillResidual(runs, units, s)
		if !ok {
			v = math.Inf(1)
		}
		ss = append(ss, v)
		if v < best {
			best, sat = v, s
		}
	}
	if math.IsInf(best, 1) {
		return 0, 0, fmt.Errorf("saturation: the runs' times do not grow with the busiest unit's work: no saturation can be read from them")
	}
	lo, hi := sat, sat
	for i, v := range ss {
		if v <= best*(1+1e-9)+1e-24 {
			lo, hi = min(lo, int64(i)*SaturationStep), max(hi, int64(i)*SaturationStep)
		}
	}
	if hi-lo > SaturationStep {
		return 0, 0, fmt.Errorf("saturation: every saturation from %d to %d work-items fits the runs alike: their grids do not place it", lo, hi)
	}
	return sat, math.Sqrt(best / float64(len(runs))), nil
}

// fillResidual fits a + b·x to the runs' times by relative least squares,
// x being units·max(⌈G/units⌉·wg, sat), with a, b ≥ 0, and returns the
// sum of squared relative errors and whether the time grows with the
// work: b > 0, fitting better than a constant time.
func fillResidual(runs []FillRun, units, sat int64) (float64, bool) {
	// Relative least squares: minimise Σ (a·u + b·v − 1)² with u = 1/t
	// and v = x/t, by the normal equations of two unknowns.
	fill := GridFill{Units: units, Saturation: sat}
	var uu, uv, vv, u1, v1 float64
	for _, r := range runs {
		u := 1 / r.Time
		v := fill.busiestWork(r.Groups, r.GroupSize) / r.Time
		uu += u * u
		uv += u * v
		vv += v * v
		u1 += u
		v1 += v
	}
	// The unconstrained solution where it is non-negative, else the best
	// on the boundary: a = 0 (no fixed time) or b = 0 (no growth).
	a, b := 0.0, v1/vv
	if det := uu*vv - uv*uv; det > 1e-12*uu*vv {
		switch a0, b0 := (u1*vv-v1*uv)/det, (uu*v1-uv*u1)/det; {
		case b0 < 0:
			a, b = u1/uu, 0
		case a0 >= 0:
			a, b = a0, b0
		}
	}
	var ss, flat float64
	for _, r := range runs {
		e, f := (a+b*fill.busiestWork(r.Groups, r.GroupSize))/r.Time-1, u1/uu/r.Time-1
		ss += e * e
		flat += f * f
	}
	// A rate that fits no better than a constant time is no growth.
	return ss, b > 0 && ss < flat*(1-1e-9)
}
