package cycles

import (
	"maps"

	seed "github.com/uniperf/uniperf/fit/cycles"
	"github.com/uniperf/uniperf/fit/gpus"
)

// The traffic a global access stands for (Model.Traffic).
const (
	// TrafficPaper is the seed's with caches off: every global access at
	// the global weight.
	TrafficPaper = "paper"
	// TrafficHierarchy is uniperf's extension: the share of the
	// accesses' bytes that the hierarchy counts place in DRAM at the
	// global weight, the others as the seed's L1 hits, at the l1 weight.
	TrafficHierarchy = "hierarchy"
)

// trafficWeights returns the weights the estimates under traffic take.
// Under TrafficHierarchy an access that caches serve costs the device
// file's l1 weight where it gives one, else the add weight, one issue
// slot, as package fit/models/hongkim issues it: the files' recipe
// measures throughputs, and the seed's default, 5 cycles of L1 latency,
// is of another scale.
func trafficWeights(d *gpus.Device, base map[string]float64, traffic string) map[string]float64 {
	w := maps.Clone(base)
	if traffic != TrafficHierarchy {
		return w
	}
	w[seed.L1] = base[seed.Add]
	if d.Cycles != nil {
		if v, ok := d.Cycles.Weights[seed.L1]; ok {
			w[seed.L1] = v
		}
	}
	return w
}
