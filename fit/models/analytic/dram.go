package analytic

import (
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
)

// DRAMShare returns the share of a launch's global access bytes that
// come from DRAM: the traffic the hierarchy model places there
// (hierarchy.TrafficOf, with the device's L1 per SM and L2 capacities)
// over the bytes of every global load and store. A kernel without
// hierarchy counts (counts refuses some subscripts), a device without
// caches, or a launch without global accesses streams: the share is 1.
func DRAMShare(env *models.Env, c models.Case, in *models.Inputs) float64 {
	_, lb, sb := hierarchy.Accesses(in.Counts)
	caches := env.Device.Caches
	if lb+sb == 0 || caches == nil {
		return 1
	}
	f, err := hierarchy.FootprintsOf(env, c, false, false)
	if err != nil {
		return 1
	}
	t := hierarchy.TrafficOf(in.Counts, f, in.Groups(), hierarchy.Levels{L1: caches.L1PerSM, LLC: caches.L2})
	return min(t.DRAM/(lb+sb), 1)
}
