package resios

import (
	"fmt"
	"math"
)

// LaunchInput is what the launch-configuration heuristic of §5.2.1 needs.
type LaunchInput struct {
	// Threads is n_t, the work-items (the loop iterations mapped to the
	// grid).
	Threads int64
	// TwoD asks for a two-dimensional block.
	TwoD bool

	WarpSize           int
	SMs                int // n_SM
	MaxWarps           int // max_w, resident warps per SM
	MaxThreadsPerBlock int
	RegsPerSM          int     // max_r; 0: not a constraint
	RegsPerThread      int     // n_r
	SharedPerSM        int     // max_s, bytes; 0: not a constraint
	SharedPerThread    float64 // n_s, bytes

	// Latencies are the latencies of the kernel's instructions, in
	// cycles; Memory marks memory instructions.
	Latencies []Latency
	// ArithmeticIntensity is ai, the ratio of on-chip to off-chip
	// instructions (Algorithm 6.3), which scales memory latencies.
	ArithmeticIntensity float64
	// HidingFactor is c, 4 for CUDA 2.1.
	HidingFactor float64
}

// Latency is one instruction's latency for the third strategy.
type Latency struct {
	Cycles float64
	Memory bool
}

// LaunchConfig is the chosen block with the three candidates.
type LaunchConfig struct {
	WarpsPerBlock int
	// Block is (n_w·warp, 1) in one dimension, (n_w, warp) in two.
	Block [2]int
	// Even, Utilization and Latency are n_w¹, n_w² and n_w³.
	Even, Utilization, Latency float64
}

// BlockSize chooses the number of warps per block n_w = min(n_w¹, n_w²,
// n_w³) of §5.2.1:
//
//	n_w¹ = n_t/(n_SM·warp)                                 divide the work evenly,
//	n_w² = min(max_w, max_r/(warp·n_r), max_s/(warp·n_s))  use the SM fully,
//	n_w³ = max_i warps_l(i), warps_l = c·L or c·L/ai        hide latency.
//
// Readings: n_w¹ is rounded up, so that n_SM blocks cover the work (the
// thesis's 1024-iteration loop on 7 SMs gets ⌈1024/224⌉ = 5 warps, its
// reported block of 160); n_w² is rounded down; n_w³ up. The thesis calls
// n_s the shared memory "per block", but max_s/(warp·n_s) is a warp count
// only with n_s per thread, which is how we read it. The block is further
// capped at the device's threads per block, which is what §7.2's (32, 32)
// block, "the hardware limits", shows. (CUDA's own guide counts the warps
// that hide a latency L as L/4 on compute capability 1.x and 2L on 2.1; we
// keep the thesis's c·L.)
func BlockSize(in LaunchInput) (LaunchConfig, error) {
	if in.Threads <= 0 || in.WarpSize <= 0 || in.SMs <= 0 || in.MaxWarps <= 0 || in.MaxThreadsPerBlock < in.WarpSize {
		return LaunchConfig{}, fmt.Errorf("resios: launch needs positive threads (%d), warp size (%d), SMs (%d), resident warps (%d) and at least a warp per block (%d)",
			in.Threads, in.WarpSize, in.SMs, in.MaxWarps, in.MaxThreadsPerBlock)
	}
	if len(in.Latencies) == 0 {
		return LaunchConfig{}, fmt.Errorf("resios: %w", ErrNoLatencies)
	}
	if !(in.HidingFactor > 0) {
		return LaunchConfig{}, fmt.Errorf("resios: latency-hiding factor must be positive, have %g", in.HidingFactor)
	}
	warp := float64(in.WarpSize)
	var c LaunchConfig
	c.Even = math.Ceil(float64(in.Threads) / (float64(in.SMs) * warp))

	c.Utilization = float64(in.MaxWarps)
	if in.RegsPerSM > 0 && in.RegsPerThread > 0 {
		c.Utilization = math.Min(c.Utilization, float64(in.RegsPerSM)/(warp*float64(in.RegsPerThread)))
	}
	if in.SharedPerSM > 0 && in.SharedPerThread > 0 {
		c.Utilization = math.Min(c.Utilization, float64(in.SharedPerSM)/(warp*in.SharedPerThread))
	}
	c.Utilization = math.Floor(c.Utilization)

	for _, l := range in.Latencies {
		w := in.HidingFactor * l.Cycles
		if l.Memory {
			if !(in.ArithmeticIntensity > 0) {
				return LaunchConfig{}, fmt.Errorf("resios: memory latencies need a positive arithmetic intensity, have %g", in.ArithmeticIntensity)
			}
			w /= in.ArithmeticIntensity
		}
		c.Latency = math.Max(c.Latency, math.Ceil(w))
	}

	nw := math.Min(c.Even, math.Min(c.Utilization, c.Latency))
	nw = math.Min(nw, float64(in.MaxThreadsPerBlock/in.WarpSize))
	c.WarpsPerBlock = int(math.Max(nw, 1))
	if in.TwoD {
		c.Block = [2]int{c.WarpsPerBlock, in.WarpSize}
	} else {
		c.Block = [2]int{c.WarpsPerBlock * in.WarpSize, 1}
	}
	return c, nil
}
