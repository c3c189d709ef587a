// Package hongkim implements Hong and Kim's analytical GPU model, "An
// Analytical Model for a GPU Architecture with Memory-level and Thread-level
// Parallelism Awareness" (ISCA 2009, seed 002): memory warp parallelism
// (MWP) and computation warp parallelism (CWP) decide how much of a kernel's
// memory latency the other warps of an SM hide.
//
// [Predict] takes a [Machine] (Table 1 rows 1–7: warp width, issue cycles,
// clock, bandwidth, Mem_LD and the two departure delays, plus the SM count)
// and a [Kernel] (rows 8–21: launch configuration, active blocks per SM from
// the occupancy calculation, per-thread dynamic instruction counts,
// transactions per uncoalesced warp access, bytes per warp) and evaluates
// equations (5)–(27) in order, returning every intermediate quantity in a
// [Result]; [Result.Explain] prints them with their equation numbers.
// [MachineFromDevice] reads a [gpus.Device] file, whose Table 3 and Table 6
// GPUs ship with uniperf.
//
// # Readings chosen where the paper is ambiguous
//
// Case selection. The conditions printed with (22)–(24) overlap: "(CWP ≥
// MWP) or (Comp_cycles > Mem_cycles)" for (23) and "(MWP > CWP)" for (24)
// both hold when computation dominates and MWP > CWP. Section 3.2.2 settles
// it: when Comp_cycles > Mem_cycles (its Case 5, CWP < 2) the total is "N
// computation periods plus one memory waiting period", which is (3) = (24).
// Taking (23) there instead would predict less time than the SM needs just to
// issue N warps' computation. We therefore apply, first match wins:
//
//  1. MWP = N and CWP = N (both capped by the active warps): (22);
//  2. Comp_cycles > Mem_cycles: (24);
//  3. CWP ≥ MWP: (23);
//  4. otherwise (MWP > CWP): (24).
//
// MWP vs MWP−1. Equation (1) adds Comp_p × MWP, while (23), the form the
// paper applies (its Table 2 computes 38450 = 4380 × 20/2.28 + 132/6 ×
// (2.28 − 1)), adds Comp_p × (MWP − 1). We follow (23) and Table 2: the
// computation of the MWP−1 other memory warps in the last window, the warp
// itself already being counted in Mem_cycles.
//
// MWP below one. With little bandwidth, (6) can make MWP < 1 (fewer than one
// warp's requests in flight per SM). Mem_cycles × N/MWP then stretches the
// memory time, as it should, but the additive terms (MWP−1) in (22), (23)
// and (26) would turn negative; we use max(MWP−1, 0) there. Rule 2 would
// take (24), one memory period however many bytes the warps move, and
// price wide strided accesses as their issue time alone; outside the
// paper's regime we take (23) when MWP < 1 and it is longer
// ([Result.BandwidthGuard]): Mem_cycles × N/MWP × #Rep, with MWP from
// (6), is the SM's bytes over its share of the bandwidth.
//
// No memory instructions. The paper divides by #Mem_insts; a kernel without
// memory instructions has MWP and CWP undefined. We predict (24) with
// Mem_L = 0, Comp_cycles × N × #Rep: the SM issues every warp's computation.
//
// Active SMs and blocks. #Active_SMs is min(#SMs, #Blocks), and the active
// blocks per SM are min(occupancy limit, ⌈#Blocks/#Active_SMs⌉), so a small
// grid does not count warps that do not exist. #Rep (21) is kept
// fractional, as written; the paper names block-granularity retirement as one
// of its error sources (§5.2, item 6).
//
// #Coal_per_mw (Table 1 row 19) is 1 by definition and appears in none of
// the equations.
package hongkim
