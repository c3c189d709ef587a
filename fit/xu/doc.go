// Package xu implements the models of Xu's thesis "Parallel Computing
// Framework and GPU Performance Modeling" (2022, seed 003): the
// execution-time model of Chapter 3 (its occupancy constraints are
// [gpus.ActiveBlocks]), the throughput split of Chapter 4 and the layer-sum
// program model of Chapters 5 and 6.
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
//
// # Programs and devices
//
// [SumProgram] is the layer-sum model (6-4)–(6-8): a program's time is its
// loading time, the sum over layers of their forward and backward kernels,
// and the update time. [ParallelStep] prices a data-parallel step over
// several devices as the slowest device's share (5-2b), (5-13) plus the
// parameter exchange (5-10); [ParameterServerBytes] and
// [RingAllReduceBytes] give the exchanged volume for the thesis's two
// transfer modes. [Split] divides work in proportion to throughput, as
// (4-8)–(4-10) divide SMs between two kernels.
package xu
