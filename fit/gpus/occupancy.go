package gpus

import (
	"fmt"
	"math"
	"strings"
)

// Resources is what one block of a kernel asks of an SM.
type Resources struct {
	// ThreadsPerBlock is N_TB.
	ThreadsPerBlock int
	// RegsPerThread is R_RT; zero means registers are not a constraint
	// (unknown, or a device without a register file).
	RegsPerThread int
	// SharedPerBlock is M_BS in bytes, static and dynamic together.
	SharedPerBlock int
}

// Occupancy is the outcome of the residency constraints for one kernel on
// one device.
type Occupancy struct {
	// BlocksPerSM is N_BS, the number of blocks resident on an SM at once
	// (Hong–Kim's #Active_blocks_per_SM, Xu's N_AB).
	BlocksPerSM int
	// WarpsPerBlock is N_WB = ⌈N_TB / N_W⌉.
	WarpsPerBlock int
	// ActiveWarps is N_AW = BlocksPerSM × WarpsPerBlock (Hong–Kim's N).
	ActiveWarps int
	// Fraction is ActiveWarps / N_MWS, the CUDA "occupancy".
	Fraction float64

	// Per-constraint block limits; math.MaxInt where the resource does not
	// constrain (no registers or shared memory used).
	ByWarps, ByBlocks, ByRegisters, BySharedMemory int
	// Limiters names the constraints that reach BlocksPerSM: "warps",
	// "blocks", "registers", "shared memory".
	Limiters []string

	// RegsPerBlock and SharedPerBlock are the amounts actually allocated
	// to a block after rounding to the allocation units.
	RegsPerBlock, SharedPerBlock int
}

// ActiveBlocks evaluates Xu's residency constraints (3-1)–(3-15), with the
// allocation granularities of the CUDA occupancy calculator, and returns how
// many blocks of r are resident on one SM of a device with limits l.
//
// The constraints and their reading:
//
//   - (3-1) N_TB ≤ N_MTB; (3-10) N_TB ≤ M_MSB/M_TS; (3-15) N_TB ≤ R_MRB/R_RT,
//     with (3-6), (3-7), (3-11)–(3-13): a block that breaks a per-block limit
//     cannot launch at all, which is an error naming the limit.
//   - (3-2) N_TB·N_BS ≤ N_MTS and (3-4) N_MTS = N_W·N_MWS: the warp limit,
//     N_BS ≤ ⌊N_MWS / N_WB⌋, with N_WB rounded up to the warp allocation
//     granularity (pairs of warps on compute capability 1.x).
//   - (3-3) N_BS ≤ N_MBS.
//   - (3-14) N_BS·R_RB ≤ R_MRM: registers are allocated per warp, rounded
//     up to the allocation unit, within one of the register file's
//     sub-partitions ("warp" granularity, 2.0 and later), or per block,
//     rounded up to the unit ("block" granularity, 1.x).
//   - (3-8), (3-9) N_BS·M_BS ≤ M_MSM, with M_BS rounded up to the shared
//     memory allocation unit after adding the per-block reservation.
//
// The result is the minimum of these limits.
func ActiveBlocks(l Limits, r Resources) (Occupancy, error) {
	if err := l.Validate(); err != nil {
		return Occupancy{}, err
	}
	if err := checkBlock(l, r); err != nil {
		return Occupancy{}, err
	}
	warps := ceilDiv(r.ThreadsPerBlock, l.WarpSize)
	allocWarps := warps
	if l.WarpAllocGranularity > 0 {
		allocWarps = roundUp(warps, l.WarpAllocGranularity)
	}
	o := Occupancy{
		WarpsPerBlock:  warps,
		ByWarps:        l.MaxWarpsPerSM / allocWarps,
		ByBlocks:       l.MaxBlocksPerSM,
		ByRegisters:    math.MaxInt,
		BySharedMemory: math.MaxInt,
	}
	if err := registerLimit(l, r, allocWarps, &o); err != nil {
		return Occupancy{}, err
	}
	if r.SharedPerBlock > 0 || l.SharedReserved > 0 {
		o.SharedPerBlock = roundUp(r.SharedPerBlock+l.SharedReserved, l.SharedAllocUnit)
		o.BySharedMemory = l.SharedPerSM / o.SharedPerBlock
	}

	o.BlocksPerSM = min(o.ByWarps, o.ByBlocks, o.ByRegisters, o.BySharedMemory)
	for _, c := range []struct {
		name  string
		limit int
	}{{"warps", o.ByWarps}, {"blocks", o.ByBlocks}, {"registers", o.ByRegisters}, {"shared memory", o.BySharedMemory}} {
		if c.limit == o.BlocksPerSM {
			o.Limiters = append(o.Limiters, c.name)
		}
	}
	if o.BlocksPerSM == 0 {
		return Occupancy{}, fmt.Errorf("occupancy: no block of %d threads fits on an SM (limited by %s)",
			r.ThreadsPerBlock, strings.Join(o.Limiters, ", "))
	}
	o.ActiveWarps = o.BlocksPerSM * warps
	o.Fraction = float64(o.ActiveWarps) / float64(l.MaxWarpsPerSM)
	return o, nil
}

// checkBlock applies the per-block constraints, which decide whether a
// block can launch at all.
func checkBlock(l Limits, r Resources) error {
	switch {
	case r.ThreadsPerBlock <= 0:
		return fmt.Errorf("occupancy: threads per block must be positive, have %d", r.ThreadsPerBlock)
	case r.RegsPerThread < 0 || r.SharedPerBlock < 0:
		return fmt.Errorf("occupancy: registers per thread (%d) and shared memory per block (%d) must not be negative",
			r.RegsPerThread, r.SharedPerBlock)
	case r.ThreadsPerBlock > l.MaxThreadsPerBlock:
		return fmt.Errorf("occupancy: %d threads per block exceed the device's maximum of %d (Eq. 3-1)",
			r.ThreadsPerBlock, l.MaxThreadsPerBlock)
	case r.SharedPerBlock > l.MaxSharedPerBlock:
		return fmt.Errorf("occupancy: %d bytes of shared memory per block exceed the device's maximum of %d (Eq. 3-7)",
			r.SharedPerBlock, l.MaxSharedPerBlock)
	case l.RegsPerSM > 0 && r.RegsPerThread > l.MaxRegsPerThread:
		return fmt.Errorf("occupancy: %d registers per thread exceed the device's maximum of %d",
			r.RegsPerThread, l.MaxRegsPerThread)
	}
	return nil
}

// registerLimit fills in the register constraint (3-11)–(3-15).
func registerLimit(l Limits, r Resources, allocWarps int, o *Occupancy) error {
	if l.RegsPerSM == 0 || r.RegsPerThread == 0 {
		return nil
	}
	tooMany := func(regs int) error {
		return fmt.Errorf("occupancy: a block of %d threads at %d registers each needs %d registers, more than the device's %d per block (Eq. 3-12)",
			r.ThreadsPerBlock, r.RegsPerThread, regs, l.MaxRegsPerBlock)
	}
	if l.RegAllocGranularity == "block" {
		o.RegsPerBlock = roundUp(r.RegsPerThread*l.WarpSize*allocWarps, l.RegAllocUnit)
		if o.RegsPerBlock > l.MaxRegsPerBlock {
			return tooMany(o.RegsPerBlock)
		}
		o.ByRegisters = l.RegsPerSM / o.RegsPerBlock
		return nil
	}
	perWarp := roundUp(r.RegsPerThread*l.WarpSize, l.RegAllocUnit)
	o.RegsPerBlock = perWarp * allocWarps
	// The hardware's launch check assumes the block's warps are spread over
	// all sub-partitions at once.
	if need := perWarp * roundUp(allocWarps, l.RegSubPartitions); need > l.MaxRegsPerBlock {
		return tooMany(need)
	}
	warpsPerPartition := l.RegsPerSM / l.RegSubPartitions / perWarp
	o.ByRegisters = warpsPerPartition * l.RegSubPartitions / allocWarps
	return nil
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
func roundUp(a, b int) int { return ceilDiv(a, b) * b }
