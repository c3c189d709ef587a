package xu

import (
	"fmt"
	"math"
	"strings"

	"github.com/uniperf/uniperf/fit/gpus"
)

// Kernel is what the execution-time model needs to know about a kernel. All
// times are in one unit of the caller's choice (cycles or seconds); the
// result is in the same unit.
type Kernel struct {
	// WarpCompute is T_C, the computation time of one warp: (3-20)
	// summed over the warp's instructions.
	WarpCompute float64
	// WarpMemory is T_M, the memory access time of one warp: (3-19), the
	// sum over its memory accesses (see WarpMemoryTime).
	WarpMemory float64
	// MemAccesses is n, the number of memory accesses of one warp. The
	// thesis assumes they all take the same time, so the last access
	// takes T_Mem_n = T_M/n and one computation period between two
	// accesses takes T_Cn = T_C/n.
	MemAccesses float64
	// Blocks is N_CB, the number of blocks of the launch.
	Blocks int64
}

// Exec is the model's prediction with its intermediate quantities.
type Exec struct {
	// Covered reports whether (3-16) N_w·T_C ≥ T_M holds: enough warps to
	// hide memory latency.
	Covered bool
	// ActiveWarps is N_w of (3-17).
	ActiveWarps float64
	// Rounds is N_GOB of (3-21), the number of groups of blocks each SM
	// runs; fractional, as (3-21) is written.
	Rounds float64
	// LastMemory is T_Mem_n and ComputePeriod is T_Cn.
	LastMemory, ComputePeriod float64
	// PerRound is the time of one group of blocks on one SM, and Total is
	// T_Exe = PerRound × Rounds.
	PerRound, Total float64
	// Equation names the equation used: "3-22" or "4-5".
	Equation string
}

// ExecTime predicts a kernel's execution time with Xu's model (seed 003,
// (3-16)–(3-23)) on sms SMs with the occupancy occ.
//
// Covered case, (3-22): T_Exe = (T_Mem_n + Σ T_Com_i) · N_CB/(N_AB·N_SM),
// where the sum runs over the computation of all N_w active warps of an SM,
// Σ T_Com_i = N_w·T_C. This reading follows the text ("the total
// computational time and last memory access time") and the thesis's own
// restatement (4-4), T_Com × N_TB·N_MBS/w.
//
// Uncovered case: (3-23) is garbled in the extraction (an undefined N_Sw,
// a stray T_C1, and N_MBS where (3-22) has N_AB). We implement the
// thesis's legible restatement of the same case, (4-5):
// T_Exe = (T_M + T_C + T_Cn·(N_w − 1)) · N_CB/(N_AB·N_SM): one warp's
// memory and computation in full, plus one computation period of each other
// warp. We keep N_AB (active blocks) in the block-group count, as (3-21)
// and (3-22) have it; (4-4) and (4-5) write N_MBS because Chapter 4 assumes
// full residency.
//
// A kernel without memory accesses is always covered, with T_Mem_n = 0.
func ExecTime(k Kernel, occ gpus.Occupancy, sms int) (Exec, error) {
	if err := k.check(); err != nil {
		return Exec{}, err
	}
	if sms <= 0 || occ.BlocksPerSM <= 0 || occ.ActiveWarps <= 0 {
		return Exec{}, fmt.Errorf("xu: need positive SM count (%d), blocks per SM (%d) and active warps (%d)",
			sms, occ.BlocksPerSM, occ.ActiveWarps)
	}
	e := Exec{
		ActiveWarps: float64(occ.ActiveWarps),
		Rounds:      float64(k.Blocks) / (float64(occ.BlocksPerSM) * float64(sms)),
	}
	if k.MemAccesses > 0 {
		e.LastMemory = k.WarpMemory / k.MemAccesses
		e.ComputePeriod = k.WarpCompute / k.MemAccesses
	}
	e.Covered = e.ActiveWarps*k.WarpCompute >= k.WarpMemory
	if e.Covered {
		e.Equation = "3-22"
		e.PerRound = e.LastMemory + e.ActiveWarps*k.WarpCompute
	} else {
		e.Equation = "4-5"
		e.PerRound = k.WarpMemory + k.WarpCompute + e.ComputePeriod*(e.ActiveWarps-1)
	}
	e.Total = e.PerRound * e.Rounds
	return e, nil
}

func (k Kernel) check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"warp compute time", k.WarpCompute}, {"warp memory time", k.WarpMemory}, {"memory accesses", k.MemAccesses}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("xu: %s must be finite and non-negative, have %g", f.name, f.v)
		}
	}
	if k.WarpMemory > 0 && k.MemAccesses == 0 {
		return fmt.Errorf("xu: warp memory time %g with no memory accesses", k.WarpMemory)
	}
	if k.Blocks <= 0 {
		return fmt.Errorf("xu: the launch needs a positive number of blocks, have %d", k.Blocks)
	}
	return nil
}

// WarpMemoryTime is the memory time of one warp after (3-24)–(3-26):
// T_Mem = ρ·(R_Unco·n·T_Munc + R_Co·n·T_Mco) with n = N_Co + N_Unco, the
// rates R of (3-24) and (3-25), and T_Munc, T_Mco the latencies of one
// uncoalesced and one coalesced access. This simplifies to
// ρ·(N_Unco·T_Munc + N_Co·T_Mco).
//
// The extraction of (3-26) is garbled: its second sum repeats T_Munc where
// the coalesced time must be meant, and the factor S_Sha/S_Buf, applied to
// both terms, is not defined anywhere in the thesis. We read it as a
// data-reuse factor ρ supplied by the caller (1 when nothing is reused).
func WarpMemoryTime(uncoalesced, coalesced, uncoalLatency, coalLatency, reuse float64) (float64, error) {
	for _, v := range []float64{uncoalesced, coalesced, uncoalLatency, coalLatency, reuse} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("xu: memory time inputs must be finite and non-negative, have %g", v)
		}
	}
	return reuse * (uncoalesced*uncoalLatency + coalesced*coalLatency), nil
}

// Explain lists the intermediate quantities.
func (e Exec) Explain() string {
	var b strings.Builder
	state := "not covered: N_w·T_C < T_M"
	if e.Covered {
		state = "covered: N_w·T_C ≥ T_M"
	}
	fmt.Fprintf(&b, "latency hiding (3-16)  %s\n", state)
	fmt.Fprintf(&b, "N_w (3-17)             %g\n", e.ActiveWarps)
	fmt.Fprintf(&b, "N_GOB (3-21)           %g\n", e.Rounds)
	fmt.Fprintf(&b, "T_Mem_n                %g\n", e.LastMemory)
	fmt.Fprintf(&b, "T_Cn                   %g\n", e.ComputePeriod)
	fmt.Fprintf(&b, "per block group (%s)  %g\n", e.Equation, e.PerRound)
	fmt.Fprintf(&b, "T_Exe                  %g\n", e.Total)
	return b.String()
}
