// Package cycles is the cycle-weighted model (seed 004; its formulas are
// package fit/cycles) on uniperf's counts, registered with package models
// as "cycles" ([Model]): one adjusting weight per kernel from one measured
// size of it ([Adjustment]).
//
// Rows it calibrates on. Each kernel (with its consts) of the measurement
// rows calibrates its own adjusting weight on one of its rows, the one of
// smallest measured time by default (CalibrateAt), as the seed's "one
// cheap run". Kernels it cannot price are left out: those without flops or
// global accesses (empty kernels) and those with integer operations, which
// the seed's computation term does not have. A kernel never run, such as
// every test kernel in uniperf compare, takes the geometric mean of the
// calibrated kernels' weights, each at its smallest or largest size,
// whichever leave-one-class-out cross-validation on the calibration rows
// prefers ([Model.FallbackCV]).
//
// Parameters on the shipped tables: the device files' cycle weights
// (recomputed from the tables by their own recipe, TestDeviceCycleWeights:
// H100 add 0.0112, pow 0.635, global 0.434 cycles per operation per SM)
// and the fallback weight (leave-one-class-out error at the smallest and
// at the largest size; test kernels in uniperf compare):
//
//	table          kernels  fallback  at        CV              test
//	H100 CUDA      152      125.3     largest   0.845, 0.398    0.375
//	H200 CUDA      152      131.8     largest   0.921, 0.446    0.384
//	H100 OpenCL    146      126.2     largest   0.819, 0.473    0.660
//	H200 OpenCL    146      133.1     largest   0.856, 0.516    0.657
//	PoCL paper     137       15.54    smallest  0.382, 0.639    1.053
//	PoCL quick      54       13.62    smallest  0.724, 0.728    0.580
//
// Seed 004's own way to predict a kernel, from one measured run of that
// kernel, is [Model.OneRun] (uniperf predict --model cycles --one-run);
// it is never the default, and compare, whose test kernels are unseen,
// never uses it.
//
// What it cannot describe: launch overhead (a GPU launch takes a few µs
// whatever its work, so a weight taken at a kernel's smallest size
// predicts its larger sizes badly: leave-one-class-out 0.845 against
// 0.398 on H100 CUDA, and the test kernels missed by 1.92 with the
// smallest sizes' fallback), caches and latency hiding, which only the
// per-kernel weight absorbs, so that a kernel never run is priced as the
// average kernel (nbody 0.94 on H100 CUDA), and integer arithmetic.
//
// Through OpenCL the test kernels miss by 0.660 on the H100 against
// 0.375 through CUDA, with nearly the same predictions: the difference is
// matmul_skinny, whose CUDA rows happen to lie within 0.4–9.7% of the
// estimate (a geometric mean of errors rewards that) and its OpenCL rows
// 16–24%. Both miss nbody alike (0.016–0.13 of its time on CUDA,
// 0.014–0.11 on OpenCL: 4 to 32 work-groups on 132 SMs, bound by latency
// rather than the throughputs the weights measure) and convolution (up to
// 8.4 times: its loads hit L1). The device weights, recomputed by their
// recipe, are not the cause.
package cycles
