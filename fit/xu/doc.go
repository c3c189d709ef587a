// Package xu implements the kernel model of Xu's thesis "Parallel Computing
// Framework and GPU Performance Modeling" (2022, seed 003): the
// execution-time model of Chapter 3. Its occupancy constraints are
// [gpus.ActiveBlocks]; the throughput split of Chapter 4 and the layer-sum
// and data-parallel program models of Chapters 5 and 6 are package
// [github.com/uniperf/uniperf/fit/program].
//
// [ExecTime] predicts a [Kernel]'s execution time on a number of SMs at an
// occupancy ([gpus.Occupancy]) into an [Exec] with its intermediate
// quantities; [WarpMemoryTime] gives the memory time of one warp that a
// Kernel takes.
//
// # Execution time
//
// [ExecTime] follows (3-16)–(3-22): with N_w active warps per SM (3-17), a
// warp's computation time T_C and memory time T_M, the kernel hides memory
// latency when N_w·T_C ≥ T_M (3-16), and then an SM spends the computation of
// all its warps plus the last memory access per group of blocks (3-22);
// N_CB/(N_AB·N_SM) groups (3-21) make up the kernel. The case with too few
// warps, (3-23), is garbled in the extraction; we implement the thesis's
// legible restatement (4-5) and document the reading at [ExecTime].
// [WarpMemoryTime] is the memory time of (3-24)–(3-26), whose undefined
// factor S_Sha/S_Buf we take as a caller-supplied data-reuse factor.
package xu
