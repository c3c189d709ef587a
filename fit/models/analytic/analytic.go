package analytic

import (
	"errors"
	"fmt"
	"math"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// This file holds what the analytical models of seeds 000 and 003 share:
// the launch of a case as they see it (counts, trace, occupancy) and the
// relative-error fit of their device constants to measured rows.

// PreparedLaunch is a case prepared for an analytical model.
type PreparedLaunch struct {
	In    *models.Inputs
	Trace *Trace
	Occ   gpus.Occupancy
}

// PrepareLaunch counts, traces and sizes a case for a device of the env.
func PrepareLaunch(env *models.Env, tr *Tracer, c models.Case) (*PreparedLaunch, error) {
	if env.Device == nil {
		return nil, fmt.Errorf("%w: the analytical models need the device's limits (give --device)", models.ErrNoDeviceFile)
	}
	in, err := env.Inputs(c)
	if err != nil {
		return nil, err
	}
	t, err := tr.Trace(in, c.Params, env.Device.Limits.WarpSize)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	occ, err := gpus.ActiveBlocks(env.Device.Limits, Resources(in))
	if err != nil {
		return nil, fmt.Errorf("kernel %s on %s: %w", c.Kernel, env.Device.Name, err)
	}
	return &PreparedLaunch{In: in, Trace: t, Occ: occ}, nil
}

// Resources is what a work-group asks of an SM. Registers are unknown
// from a .knl kernel and do not limit residency.
func Resources(in *models.Inputs) gpus.Resources {
	return gpus.Resources{ThreadsPerBlock: int(in.GroupSize()), SharedPerBlock: int(in.LocalBytes)}
}

// Occupancy is the residency of a launch on the env's device: the blocks
// of its work-group size and local memory that gpus.ActiveBlocks lets an SM
// hold. Registers, which a .knl kernel does not declare, do not limit it.
func Occupancy(env *models.Env, c models.Case) (gpus.Occupancy, error) {
	if env.Device == nil {
		return gpus.Occupancy{}, fmt.Errorf("%w: occupancy needs the device's limits", models.ErrNoDeviceFile)
	}
	in, err := env.Inputs(c)
	if err != nil {
		return gpus.Occupancy{}, err
	}
	return gpus.ActiveBlocks(env.Device.Limits, Resources(in))
}

// PrepareRows prepares the measured rows for calibration and returns the
// rows it prepared: all but those of kernels with gathers, scatters or
// atomics (ErrDataAddressed) and those with global accesses of 1- or
// 2-byte elements (PerThread.Narrow), which it leaves out as it leaves
// out no other; an error names the row. On the PoCL paper table leaving
// out the 243 rows of 1- and 2-byte elements took leave-one-class-out
// error over its 1547 rows from 0.389 to 0.378 (Resios) and from 0.347
// to 0.336 (Xu), as it did Hong–Kim's.
func PrepareRows(env *models.Env, tr *Tracer, rows []models.Row) ([]*PreparedLaunch, []models.Row, error) {
	var out []*PreparedLaunch
	var kept []models.Row
	for _, r := range rows {
		l, err := PrepareLaunch(env, tr, models.CaseOf(r))
		if errors.Is(err, ErrDataAddressed) {
			continue
		}
		var p *PerThread
		if err == nil {
			p, err = PerThreadOf(l.In)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s row %d (%s): %w", r.Table, r.Index, r.Kernel, err)
		}
		if p.Narrow > 0 {
			continue
		}
		out, kept = append(out, l), append(kept, r)
	}
	if len(kept) == 0 {
		return nil, nil, errors.New("no measurement rows to calibrate on (rows of kernels with gathers, scatters or atomics, or with 1- or 2-byte global elements, left out)")
	}
	return out, kept, nil
}

// RelFit solves the relative-error least-squares problem for non-negative
// constants: times[r] ≈ Σ_j features[r][j]·θ_j. Constants that no row
// exercises come back as NaN.
func RelFit(names []string, features [][]float64, rows []models.Row) ([]float64, error) {
	samples := make([]fit.Sample, len(rows))
	for i, r := range rows {
		samples[i] = fit.Sample{Kernel: r.Kernel, Class: r.Class, Counts: features[i], Time: r.TimeS,
			Label: fmt.Sprintf("%s row %d", r.Table, r.Index)}
	}
	w, err := fit.Fit(names, samples, fit.Options{NonNegative: true, MinNorm: true})
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(names))
	for j, n := range names {
		v, ok := w.Weight(n)
		if !ok {
			v = math.NaN()
		}
		out[j] = v
	}
	return out, nil
}

// RelObjective is the fits' objective: the sum of squared relative
// errors.
func RelObjective(pred []float64, rows []models.Row) float64 {
	var s float64
	for i, r := range rows {
		e := pred[i]/r.TimeS - 1
		s += e * e
	}
	return s
}

// FittedLineElems is the bytes of a global-memory line per work-item of a
// warp where no device file says otherwise (see Resios): a coalesced warp
// access of 32-bit elements is one transaction. The resios and xu models
// both count transactions by it.
const FittedLineElems = 4
