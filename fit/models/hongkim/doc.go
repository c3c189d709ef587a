// Package hongkim is Hong and Kim's MWP–CWP model (seed 002; its
// formulas are package fit/hongkim) on uniperf's counts, registered with
// package models as "hongkim" ([Model]): per-thread inputs from the
// counts (package fit/models/analytic), instructions priced by the
// device's measured throughputs, and its three memory parameters from the
// device file or fitted to measured rows ([Memory], [Fit]).
//
// Instructions. The paper counts PTX instructions at Issue_cycles each;
// a pow or a division is many of them. A flop here costs its kind's cycle
// weight over the addition's, from the device file's cycles section
// (measured on the table's arith rows): on the H100 a multiplication is
// 0.94 instructions, a division 8.1, a special function 5.8 and a pow
// 56.7 (PoCL: 0.86, 4.1, 11.7, 836). Integer operations, local accesses
// and barriers are one each; a device without cycle weights prices every
// flop as one, as the paper does.
//
// Calibration rows. The memory parameters describe DRAM, so they are
// fitted on the rows that move global bytes no faster than the device's
// bandwidth: a faster row was served by caches, which the model does not
// have. On the GPUs a second rule, which also leaves out rows whose bytes
// fit in the last-level cache, wins the leave-one-class-out comparison
// ([Fit]); the parameters stay inside [BoundsOf]'s physical ranges. On
// the shipped tables (bounds of Mem_LD 9.99–639 cycles on the H100, 6.97–446
// on the H200, 2.24–1145 on PoCL; leave-one-class-out error of the two
// rules on the measurement rows, bandwidth then dram; before this
// calibration 0.578, 0.597, 0.588, 0.614 and 0.522):
//
//	table          Mem_LD  dep. coal  dep. uncoal  rows  rule       CV
//	H100 CUDA      113.3   11.93      3.876        221   dram       0.505, 0.460
//	H200 CUDA      119.6    9.367     2.583        239   dram       0.513, 0.448
//	H100 OpenCL    101.0   12.36      4.019        195   dram       0.535, 0.509
//	H200 OpenCL    113.1    9.716     2.511        219   dram       0.610, 0.515
//	PoCL paper      83.24   2.601     5.831        856   bandwidth  0.473, 0.643
//	PoCL quick      76.40   2.388     6.171        133   bandwidth  0.617
//
// On the H100 through CUDA, MWP_Without_BW is 113.3/11.93 = 9.5 warps, and
// a coalesced warp access of 128 bytes every 11.93 cycles per SM is 2.80
// TB/s over 132 SMs at 1.98 GHz, 84% of the rated 3.35. Mem_LD, 57 ns, is
// the latency per request in flight rather than a DRAM round trip (several
// hundred ns): the model lets a warp have one memory request outstanding,
// where Hopper's warps issue their independent loads back to back.
//
// What it cannot describe: caches (the rows left out above, 942 of 1199
// on the H100 CUDA table; the convolution test kernel, whose 885 global
// loads per work-item mostly hit L1, is predicted at 10 times its time),
// launch overhead (a launch of a few µs whatever its work: the empty
// kernels have no instructions to price and are left out), and
// instruction-level parallelism within a warp.
package hongkim
