package cycles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit/models"
)

// OneRun sets the adjusting weight of run's kernel (with its consts) from
// one measured run of it, seconds long: seed 004's own method, "the ratio
// of estimated execution time to the actual execution time" of the kernel
// itself, which then scales the estimate to its other sizes. It replaces
// the kernel's calibrated weight or the fallback of kernels never run,
// and the prediction's explanation says that one measured run was used.
// It is never the default: a prediction with it has seen the kernel run,
// and uniperf compare, whose test kernels must stay unseen, does not use
// it.
func (m *Model) OneRun(env *models.Env, run models.Case, seconds float64) error {
	if env.Device == nil || env.Device.Name != m.Device {
		return fmt.Errorf("cycles: calibrated for %s, given a run on another device", m.Device)
	}
	if !(seconds > 0) {
		return fmt.Errorf("cycles: one run of %s at %s: measured time must be positive, have %g s", run.Kernel, models.ParamString(run.Params), seconds)
	}
	e, err := m.estimate(env, run)
	if err != nil {
		return fmt.Errorf("cycles: one run of %s at %s: %w", run.Kernel, models.ParamString(run.Params), err)
	}
	aw, err := e.AdjustingWeight(seconds)
	if err != nil {
		return fmt.Errorf("cycles: one run of %s at %s: %w", run.Kernel, models.ParamString(run.Params), err)
	}
	a := Adjustment{Key: kernelKey(run.Kernel, run.Consts), Params: run.Params, MeasuredS: seconds, EstimatedS: e.Unadjusted, AdjustingWeight: aw, OneRun: true}
	i, found := slices.BinarySearchFunc(m.Kernels, a.Key, func(k Adjustment, key string) int { return strings.Compare(k.Key, key) })
	if found {
		m.Kernels[i] = a
	} else {
		m.Kernels = slices.Insert(m.Kernels, i, a)
	}
	return nil
}
