package fit

import (
	"fmt"
	"strings"
)

// GridFill describes how a device's time depends on how full its grid is,
// the model of an under-filled GPU that seed 001 leaves out: a kernel whose
// grid leaves compute units idle, or gives each too few work-items to
// hide latency, runs in the time of its busiest unit, not in time
// proportional to its counts.
//
// With G work-groups of wg work-items (N = G·wg launched), the busiest of
// Units compute units runs ⌈G/Units⌉·wg work-items, and a unit needs
// Saturation resident work-items to run at its throughput. The time of
// the work is then the time of Units·max(⌈G/Units⌉·wg, Saturation)
// work-items at full throughput, and [GridFill.Factor] is that over N:
// 1 for a grid that fills the device in whole waves, more for a small
// grid or a partial last wave. The launch terms (properties launch.*)
// are paid once per launch or group whatever the fill, and are not
// scaled.
type GridFill struct {
	Units      int64 `json:"units"`      // compute units (SMs, CPU cores)
	Saturation int64 `json:"saturation"` // work-items per unit for full throughput
}

// Validate checks that the description is usable.
func (g GridFill) Validate() error {
	if g.Units < 1 || g.Saturation < 0 {
		return fmt.Errorf("grid fill: %d units and a saturation of %d work-items: want at least 1 unit and a saturation of 0 or more", g.Units, g.Saturation)
	}
	return nil
}

// Factor is the grid-fill factor of a launch of groups work-groups of
// groupSize work-items each: Units·max(⌈groups/Units⌉·groupSize,
// Saturation) / (groups·groupSize), at least 1 for whole waves. It is 1
// for an empty launch, where there is no work to scale.
func (g GridFill) Factor(groups, groupSize int64) float64 {
	if groups < 1 || groupSize < 1 {
		return 1
	}
	busiest := float64((groups+g.Units-1)/g.Units) * float64(groupSize)
	return float64(g.Units) * max(busiest, float64(g.Saturation)) / (float64(groups) * float64(groupSize))
}

// Scaled reports whether the grid-fill factor scales a property's count:
// every property but the launch terms.
func Scaled(property string) bool { return !strings.HasPrefix(property, "launch.") }
