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
//
// Latency, where set, is a second saturation for the latency-bound
// properties ([LatencyBound]: local-memory accesses and the flops that
// a GPU runs on its few special-function units, division, powers and
// square roots): a unit must hold more work-items to hide their long
// latencies than to keep its adders or its memory pipeline busy, so
// these properties are scaled by the factor of that saturation
// ([GridFill.Scale]). Where it is nil every property scaled shares
// Saturation, the form of the weight tables written before it.
//
// Global, where set, is a third saturation, for the coalesced
// global-memory accesses ([Coalesced]: stride 1, and the filled strides
// k/k that a warp's accesses turn into the same cache lines): a unit
// keeps its memory pipeline full only with enough bytes in flight, more
// work-items than its adders need. An uncoalesced access moves a sector
// a work-item, eight times the bytes of a coalesced f32 one, and fills
// the pipeline with fewer work-items: it shares Saturation, as every
// global access does where Global is nil, the form of the weight tables
// written before 2026-11-28.
type GridFill struct {
	Units      int64  `json:"units"`                        // compute units (SMs, CPU cores)
	Saturation int64  `json:"saturation"`                   // work-items per unit for full throughput
	Latency    *int64 `json:"latency_saturation,omitempty"` // the same for the latency-bound properties
	Global     *int64 `json:"global_saturation,omitempty"`  // the same for the coalesced global accesses
}

// Validate checks that the description is usable.
func (g GridFill) Validate() error {
	if g.Units < 1 || g.Saturation < 0 || g.Latency != nil && *g.Latency < 0 || g.Global != nil && *g.Global < 0 {
		return fmt.Errorf("grid fill: %d units and a saturation of %d work-items (%s for the latency-bound properties, %s for the coalesced global accesses): want at least 1 unit and saturations of 0 or more",
			g.Units, g.Saturation, orSame(g.Latency), orSame(g.Global))
	}
	return nil
}

// orSame is a saturation that may be unset, in words.
func orSame(sat *int64) string {
	if sat == nil {
		return "the same"
	}
	return fmt.Sprint(*sat)
}

// String describes the grid fill as uniperf fit and predict print it.
func (g GridFill) String() string {
	s := fmt.Sprintf("%d compute units, saturated at %d work-items a unit", g.Units, g.Saturation)
	if g.Latency != nil {
		s += fmt.Sprintf(", %d for the latency-bound properties", *g.Latency)
	}
	if g.Global != nil {
		s += fmt.Sprintf(", %d for the coalesced global accesses", *g.Global)
	}
	return s
}

// Factor is the grid-fill factor of a launch of groups work-groups of
// groupSize work-items each: Units·max(⌈groups/Units⌉·groupSize,
// Saturation) / (groups·groupSize), at least 1 for whole waves. It is 1
// for an empty launch, where there is no work to scale.
func (g GridFill) Factor(groups, groupSize int64) float64 {
	if groups < 1 || groupSize < 1 {
		return 1
	}
	return g.busiestWork(groups, groupSize) / (float64(groups) * float64(groupSize))
}

// busiestWork is Units·max(⌈groups/Units⌉·groupSize, Saturation) for
// groups ≥ 1: the work-items at full throughput that take as long as the
// busiest unit of the launch, in float64 so that no product overflows.
func (g GridFill) busiestWork(groups, groupSize int64) float64 {
	busiest := float64((groups-1)/g.Units+1) * float64(groupSize)
	return float64(g.Units) * max(busiest, float64(g.Saturation))
}

// LatencyFactor is the grid-fill factor of the latency-bound properties
// for a launch of groups work-groups of groupSize work-items: Factor with
// the saturation Latency, or Factor where Latency is nil.
func (g GridFill) LatencyFactor(groups, groupSize int64) float64 {
	return g.factorAt(g.Latency, groups, groupSize)
}

// GlobalFactor is the grid-fill factor of the coalesced global-memory
// accesses: Factor with the saturation Global, or Factor where Global is
// nil.
func (g GridFill) GlobalFactor(groups, groupSize int64) float64 {
	return g.factorAt(g.Global, groups, groupSize)
}

// factorAt is Factor with the saturation sat, or with Saturation where
// sat is nil.
func (g GridFill) factorAt(sat *int64, groups, groupSize int64) float64 {
	if sat == nil {
		return g.Factor(groups, groupSize)
	}
	return GridFill{Units: g.Units, Saturation: *sat}.Factor(groups, groupSize)
}

// Scale is the factor that the grid fill scales property's count by in
// a launch of groups work-groups of groupSize work-items: 1 for the
// launch terms, LatencyFactor for a latency-bound property,
// GlobalFactor for a coalesced global access, Factor for the others.
func (g GridFill) Scale(property string, groups, groupSize int64) float64 {
	switch {
	case !Scaled(property):
		return 1
	case LatencyBound(property):
		return g.LatencyFactor(groups, groupSize)
	case Coalesced(property):
		return g.GlobalFactor(groups, groupSize)
	}
	return g.Factor(groups, groupSize)
}

// Scaled reports whether the grid-fill factor scales a property's count:
// every property but the launch terms.
func Scaled(property string) bool { return !strings.HasPrefix(property, "launch.") }

// Coalesced reports whether a property is a global access that a warp
// makes in the fewest cache lines: stride 1 (global.*.stride=1, the
// min(loads, stores) correction too) or a filled stride k/k, which
// moves the same lines (see FilledStrideTies).
func Coalesced(property string) bool {
	if !strings.HasPrefix(property, "global.") {
		return false
	}
	if target, ok := filledStrideTarget(property); ok {
		property = target
	}
	return strings.HasSuffix(property, ".stride=1")
}

// LatencyBound reports whether a property is one whose latency, more than
// its throughput, sets the time of an under-filled unit: a local-memory
// access (local.*, bank conflicts included) or a flop of kind div, pow or
// special (rsqrt, sqrt, exp, ...), which run on the special-function
// units or as long sequences of them. Additions, multiplications and
// global-memory accesses are not.
func LatencyBound(property string) bool {
	if strings.HasPrefix(property, "local.") {
		return true
	}
	kind, ok := strings.CutPrefix(property, "flop.")
	if !ok {
		return false
	}
	_, kind, _ = strings.Cut(kind, ".")
	switch kind {
	case "div", "pow", "special":
		return true
	}
	return false
}
