package cycles

import (
	"fmt"
	"maps"
	"sync"

	seed "github.com/uniperf/uniperf/fit/cycles"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
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

// trafficOf is the traffic a device's estimates take: the hierarchy's on
// a GPU whose file gives caches. On a CPU it is the paper's, as package
// fit/models/hongkim's default is there: the PoCL file's recipe prices an
// addition (0.347 cycles) above a streamed global access (0.243), so that
// a cache hit at the add weight would cost more than a DRAM access.
func trafficOf(d *gpus.Device) string {
	if d.Caches == nil || d.Kind == "cpu" {
		return TrafficPaper
	}
	return TrafficHierarchy
}

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

// dramShares keeps the DRAM shares (analytic.DRAMShare) of the launches
// a model estimated, by kernel, consts and parameters, for one device:
// their hierarchy counts are most of a calibration's time on a GPU table,
// and the folds of cross-validation read the full calibration's
// (Model.CalibrateFold). A calibrated model predicts from several
// goroutines, hence the lock.
type dramShares struct {
	mu    sync.Mutex
	known map[string]float64
}

func newDRAMShares() *dramShares { return &dramShares{known: map[string]float64{}} }

// of returns c's DRAM share and keeps it; a nil s (a model read from a
// calibration file) keeps nothing.
func (s *dramShares) of(env *models.Env, c models.Case, in *models.Inputs) float64 {
	if s == nil {
		return analytic.DRAMShare(env, c, in)
	}
	key := fmt.Sprint(c.Kernel, c.Consts, c.Params)
	s.mu.Lock()
	v, ok := s.known[key]
	s.mu.Unlock()
	if ok {
		return v
	}
	v = analytic.DRAMShare(env, c, in)
	s.mu.Lock()
	s.known[key] = v
	s.mu.Unlock()
	return v
}
