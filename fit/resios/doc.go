// Package resios implements Resios's latency/throughput model of GPU
// kernels, "GPU performance prediction using parametrized models" (MSc
// thesis, 2011, seed 000): per-instruction delays that fall from latency to
// throughput as instruction- and thread-level parallelism grow (§4), a
// coarse warp-level simulation of one SM that supplies the thread-level
// parallelism and finds memory hotspots (§5.2.1), and the supporting
// analyses of §6 (coalescing, bank conflicts, ILP).
//
// [FromDevice] reads a device file's constants into a [Device], which
// builds a trace's instructions ([Device.Compute], [Device.Global],
// [Device.Shared]) and runs the whole model on it ([Device.Predict]) into
// a [Prediction]. Its parts are [Overhead], [Simulate] and [BlockSize],
// and the §6 analyses [RequestsPerWarp], [BankConflicts] and [ILP].
//
// # Model
//
// TIME = OVERHEAD + EXECUTION (4.1). [Overhead] is (4.3): the host–device
// transfer (4.2), the context creation and the kernel launch. EXECUTION comes
// from [Simulate]: each warp runs a trace of [Instr] whose delays are
//
//	compute (4.5): latency/(ILP·TLP)                  if ILP·TLP ≤ max_i
//	               latency/(ILP·TLP·max_i) + warp/throughput   otherwise
//	memory  (4.6): latency/(ILP·TLP)                  if ILP·TLP ≤ max_p
//	               latency/(ILP·TLP) + penalty        otherwise
//
// with the penalty (4.7) transfer/BW: size·c/BW for global memory (4.8), c
// the transactions per warp access from [RequestsPerWarp], and
// warp·size/(n_banks·BW) + c·size/BW for shared memory (4.9), c the conflict
// degree from [BankConflicts] (Algorithm 6.1). ILP per region is (6.1),
// instructions over the longest dependency chain of the region's data-flow
// graph ([ILP]). [BlockSize] is the launch-configuration heuristic of §5.2.1.
//
// # Readings chosen where the thesis is open
//
// Units. TLP, max_i and max_p count warps (the madd curve reaches peak at
// "11 warps"); a delay is the cycles of one warp instruction, so the compute
// penalty warp_size/throughput_i converts Table 3.1's thread operations per
// cycle. The §4.3.2 examples "delay = 500 + 16·c" and "37 + c" are the time
// of max_p = 8 parallel requests, latency + max_p·penalty, which is what
// n·delay(n) of the serialized branch gives at n = max_p. The penalty
// applies strictly above the threshold, as (4.5) and (4.6) are written
// (ILP·TLP > max).
//
// The simulation: TLP is the number of warps in the ready queue, the warp
// whose instruction is being timed included, plus the warps on compute
// units; each instruction's delay is fixed once, when it becomes ready. One
// compute and one memory unit (the §5.2.1 example; the delay formulas already
// divide latency by the parallelism, so more units would count it twice).
// Whole blocks are simulated, as many as fit in the device's max_sim_warps,
// and the time is extrapolated by the blocks each SM runs (total = t·n/W). The
// resident blocks come from the occupancy calculation (gpus.ActiveBlocks),
// which refines the thesis's resident-warp limit res_w with registers and
// shared memory. Idle time (no compute unit busy) is charged to every memory
// instruction in flight; a hotspot's share is its idle time over the sum.
//
// Bandwidth: global bandwidth is shared equally by the SMs (the thesis's §7
// choice, 86.4/7 GB/s, because it simulates one SM).
//
// Transfer size: (4.2) is read with the size in megabytes (see [Transfer]).
package resios
