// Package cycles implements the cycle-weighted instruction-count model of
// "Analytical Model for GPU Kernel Performance Prediction" (seed 004).
//
// [Estimated] prices a [Kernel]'s per-thread instruction counts with cycle
// weights ([DefaultWeights] are the seed's) into an [Estimate], which
// [Estimate.AdjustingWeight] calibrates on one measured time and
// [Estimate.Seconds] turns into a predicted time.
//
// Each instruction class carries a weight, its cost in clock cycles. A
// thread's cycles are the weighted sum of its instructions, split as the
// seed splits them:
//
//	computation  = Σ_c weight_c · n_c over the compute classes
//	memAccessGM  = (loadsGM + storesGM − L1hits − L2hits)·latencyGM
//	               + L1hits·latencyL1 + L2hits·latencyL2
//	memAccessSM  = (loadsSM + storesSM)·latencySM
//
// and the kernel's execution time is
//
//	E.T = N_threads · (computation + memAccessGM + memAccessSM) / (F · O · adjustingWeight)
//
// with F the clock frequency, O the occupancy (from gpus.ActiveBlocks) and
// adjustingWeight a per-kernel, per-device factor that absorbs everything
// the count leaves out (divergence, coalescing, bank conflicts, latency
// hiding). The seed calibrates it once, from one measured size: it is "the
// ratio of estimated execution time to the actual execution time", so the
// calibrated model reproduces the calibration measurement exactly and
// scales the estimate for other sizes ([Estimate.AdjustingWeight],
// [Estimate.Seconds]).
//
// # Weights
//
// [DefaultWeights] are the seed's numbers, which it takes from Mei et al.'s
// micro-benchmarks: FMA 2, addition 24, multiplication 32, division up to
// 96 cycles; shared memory (and L1, the same hardware) 5, L2 250, global
// memory 500 cycles. The seed's FMA (2) is far below its addition (24); we
// keep its numbers as printed. A device file may override any of them
// (gpus.Device.CycleWeights); the GTX 460 file carries Resios's measured
// latencies. A compute class without a weight is an error that names it,
// never a silent zero.
package cycles

import (
	"fmt"
	"math"
	"sort"
)

// Instruction classes with a default weight.
const (
	FMA    = "fma"
	Add    = "add"
	Mul    = "mul"
	Div    = "div"
	Global = "global" // a global load or store that misses both caches
	L1     = "l1"     // a global access served by L1
	L2     = "l2"     // a global access served by L2
	Shared = "shared" // a shared (local) memory load or store
)

// DefaultWeights returns the seed's cycle weights.
func DefaultWeights() map[string]float64 {
	return map[string]float64{FMA: 2, Add: 24, Mul: 32, Div: 96, Global: 500, L2: 250, L1: 5, Shared: 5}
}

// Kernel holds the per-thread instruction counts of one launch.
type Kernel struct {
	// Threads is N_threads, the work-items of the launch.
	Threads float64
	// Compute counts computation instructions per thread by class
	// (FMA, Add, Mul, Div, or any class the weights define).
	Compute map[string]float64
	// GlobalAccesses is loadsGM + storesGM per thread.
	GlobalAccesses float64
	// L1Hits and L2Hits are the global accesses served by the caches, per
	// thread; zero when caches are off or not modelled.
	L1Hits, L2Hits float64
	// SharedAccesses is loadsSM + storesSM per thread.
	SharedAccesses float64
}

// Estimate is the model's unadjusted estimate and its parts.
type Estimate struct {
	Computation  float64 // cycles per thread
	GlobalMemory float64 // memAccessGM, cycles per thread
	SharedMemory float64 // memAccessSM, cycles per thread
	PerThread    float64 // their sum
	Occupancy    float64 // O
	// Unadjusted is N_threads · PerThread / (F · O), the time with
	// adjustingWeight = 1, in seconds.
	Unadjusted float64
}

// Estimated evaluates the model with adjustingWeight = 1.
func Estimated(k Kernel, weights map[string]float64, freq, occupancy float64) (Estimate, error) {
	if !(freq > 0) || math.IsInf(freq, 0) {
		return Estimate{}, fmt.Errorf("cycles: clock frequency must be positive and finite, have %g", freq)
	}
	if !(occupancy > 0 && occupancy <= 1) {
		return Estimate{}, fmt.Errorf("cycles: occupancy must be in (0, 1], have %g", occupancy)
	}
	if err := k.check(); err != nil {
		return Estimate{}, err
	}
	weight := func(class string) (float64, error) {
		w, ok := weights[class]
		if !ok {
			return 0, fmt.Errorf("cycles: no cycle weight for instruction class %q (give one in the device file's cycles.weights)", class)
		}
		if !(w >= 0) || math.IsInf(w, 0) {
			return 0, fmt.Errorf("cycles: weight of %q must be finite and non-negative, have %g", class, w)
		}
		return w, nil
	}
	var e Estimate
	classes := make([]string, 0, len(k.Compute))
	for c := range k.Compute {
		classes = append(classes, c)
	}
	sort.Strings(classes) // the first missing class is reported deterministically
	for _, c := range classes {
		w, err := weight(c)
		if err != nil {
			return Estimate{}, err
		}
		e.Computation += w * k.Compute[c]
	}
	if k.GlobalAccesses > 0 {
		gm, err := weight(Global)
		if err != nil {
			return Estimate{}, err
		}
		e.GlobalMemory = (k.GlobalAccesses - k.L1Hits - k.L2Hits) * gm
		for _, hit := range []struct {
			class string
			n     float64
		}{{L1, k.L1Hits}, {L2, k.L2Hits}} {
			if hit.n == 0 {
				continue
			}
			w, err := weight(hit.class)
			if err != nil {
				return Estimate{}, err
			}
			e.GlobalMemory += hit.n * w
		}
	}
	if k.SharedAccesses > 0 {
		sm, err := weight(Shared)
		if err != nil {
			return Estimate{}, err
		}
		e.SharedMemory = k.SharedAccesses * sm
	}
	e.PerThread = e.Computation + e.GlobalMemory + e.SharedMemory
	e.Occupancy = occupancy
	e.Unadjusted = k.Threads * e.PerThread / (freq * occupancy)
	return e, nil
}

func (k Kernel) check() error {
	nums := []struct {
		name string
		v    float64
	}{
		{"threads", k.Threads}, {"global accesses", k.GlobalAccesses}, {"L1 hits", k.L1Hits},
		{"L2 hits", k.L2Hits}, {"shared accesses", k.SharedAccesses},
	}
	for c, n := range k.Compute {
		nums = append(nums, struct {
			name string
			v    float64
		}{"count of " + c, n})
	}
	for _, n := range nums {
		if !(n.v >= 0) || math.IsInf(n.v, 0) {
			return fmt.Errorf("cycles: %s must be finite and non-negative, have %g", n.name, n.v)
		}
	}
	if k.L1Hits+k.L2Hits > k.GlobalAccesses {
		return fmt.Errorf("cycles: %g cache hits exceed %g global accesses", k.L1Hits+k.L2Hits, k.GlobalAccesses)
	}
	return nil
}

// Seconds is the calibrated prediction, E.T = Unadjusted / adjustingWeight.
func (e Estimate) Seconds(adjustingWeight float64) (float64, error) {
	if !(adjustingWeight > 0) || math.IsInf(adjustingWeight, 0) {
		return 0, fmt.Errorf("cycles: adjusting weight must be positive and finite, have %g", adjustingWeight)
	}
	return e.Unadjusted / adjustingWeight, nil
}

// AdjustingWeight returns the adjusting weight that makes the model reproduce one
// measured run time: estimated / actual.
func (e Estimate) AdjustingWeight(measured float64) (float64, error) {
	if !(measured > 0) || math.IsInf(measured, 0) {
		return 0, fmt.Errorf("cycles: measured time must be positive and finite, have %g s", measured)
	}
	if !(e.Unadjusted > 0) {
		return 0, fmt.Errorf("cycles: the kernel's estimate is zero cycles; nothing to calibrate")
	}
	return e.Unadjusted / measured, nil
}
