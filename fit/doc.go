// Package fit turns measured kernel run times and property counts into
// per-device weights by relative-error least squares, the fitting half of
// Stevens and Klöckner's unified, hardware-fitted performance model (seed
// 001, §4.3).
//
// [Fit] solves for a [Weights] table from [Sample] rows under [Options]
// ([DefaultOptions] is the non-negative fit); [Weights.Predict] prices new
// counts; [NewPrecision] and [NewCoverage] say how well the rows determine
// the weights, a fit records those they determine weakly
// ([Diagnostics].Weak) beside those it held at zero, and [Weights.Doubt]
// says how much of a prediction rests on either, without the rows;
// [RelativeError] and [GeoMean] measure predictions. Weight
// tables on disk are package [github.com/uniperf/uniperf/fit/weightsio];
// the paper's Table 1 and Table 2 layouts, derived rates and plots are
// package [github.com/uniperf/uniperf/fit/report].
//
// # Fitting
//
// The model predicts a kernel's wall time as T ≈ Σ_i α_i p_i: one weight α_i
// (seconds per operation) per property p_i (global loads by size and stride
// class, flops by kind, barriers, work-groups, a constant, ...). [Fit] finds
// the weights that minimise the squared relative error over the measurement
// rows,
//
//	Σ_j (1 − Σ_i α_i p_ij / T_j)²,
//
// that is, it solves A α ≈ 1 in the least-squares sense with A_ij = p_ij/T_j.
// Counts span a dozen orders of magnitude (one launch against 10^12 flops),
// so each column of A is scaled to unit 2-norm before the solve and the
// scaling is undone afterwards; the singular value decomposition of the
// scaled matrix gives the rank and the condition number reported in
// [Diagnostics].
//
// Properties that are zero in every row carry no information; they are left
// out of the fit and listed in [Diagnostics.Dropped]. Fewer rows than the
// remaining properties is an error. A rank-deficient matrix, where some
// properties are collinear over the measurement set (a duplicated column, a
// column proportional to another, or any linear dependency), is an error of
// type [*RankError] that names the properties involved, because any split
// of the time between collinear properties is arbitrary and would produce
// weights that look meaningful and are not. [Options.MinNorm] asks for the
// minimum-norm solution instead (minimum norm in the column-scaled
// coordinates), with the deficiency recorded in the diagnostics.
//
// The paper's free fit produced negative weights (its Table 2).
// [Options.NonNegative] solves the same problem under α ≥ 0 with the
// Lawson–Hanson active-set method, on the n × n triangle R of the rows'
// thin QR factorisation A = QR rather than on A's thousand rows: the
// problem in R has the same solution, gradients and singular values, and
// each step's subproblem is 20 times smaller. [Options.Balance] weighs the rows so
// that every kernel class counts the same ([ClassWeights]), and
// [Options.Robust] minimises the sum of absolute relative errors instead
// of their squares (iteratively reweighted least squares).
//
// # The default fit
//
// [DefaultOptions] is the non-negative fit; the zero [Options] is the
// paper's free fit (uniperf fit --free). The choice was made by
// leave-one-class-out cross-validation on the measurement rows alone
// (models.Counter.CrossValidate: fit without one kernel class, predict
// its rows), not on the test rows. Each candidate's error is the
// geometric mean over kernels of the geometric-mean relative error of
// their rows, on the rows every candidate predicts, and the comparison
// with the non-negative fit is the mean and standard error over kernels
// of the log ratio of the two errors:
//
//	fit                      round 2           round 1           (earlier run)     pocl-epyc-quick
//	                         382 rows          356 rows          346 rows          48 rows
//	free (seed 001)          0.805 +0.58±0.33  0.644 +0.25±0.30  0.657 +0.35±0.35  1.511 +0.85±0.55
//	free, balanced           0.876 +0.67±0.35  0.605 +0.19±0.32  0.789 +0.54±0.36  1.548 +0.88±0.61
//	free, robust             0.737 +0.50±0.35  0.606 +0.19±0.36  0.745 +0.48±0.33  1.488 +0.84±0.55
//	non-negative             0.449             0.503             0.462             0.643
//	non-negative, balanced   0.449 −0.00±0.07  0.506 +0.01±0.04  0.533 +0.14±0.06  0.710 +0.10±0.19
//	non-negative, robust     0.518 +0.14±0.09  0.497 −0.01±0.06  0.464 +0.01±0.07  0.440 −0.38±0.17
//	non-negative, both       0.505 +0.12±0.14  0.510 +0.02±0.04  0.469 +0.02±0.07  0.673 +0.05±0.24
//
// Round 2 is the paper-suite table shipped before the current one, with
// the uniform_loads class; round 1 the one before it, measured without
// that class on another host, and the earlier run a measurement of that
// suite on that host with half the time budget per run; pocl-epyc-quick
// the shipped quick-suite table of a third host. The free fits are worse
// than the non-negative one on every table; among the non-negative fits
// no variant is better by more than a standard error on the paper-suite
// tables, and by the one-standard-error rule the simplest of them, the
// plain non-negative fit, is the default. The robust fit is better by two
// standard errors only on the small quick table (two sizes per series);
// --robust keeps it at hand. On the shipped pocl-epyc-paper (830 rows,
// the first table measured with the library's constant-trip loops
// unrolled), each fit on the rows it predicts: non-negative 0.246 (769
// rows), robust 0.237, balanced 0.273, both 0.262, free 0.341 (697 rows),
// free balanced 0.369, free robust 0.334. Robust against non-negative is
// −0.04±0.08 in log ratio, within one standard error, so the default
// stays. A second measurement of the whole suite on the same host, right
// after it, gave 0.240 for the non-negative fit, 0.274 robust (+0.13±0.11)
// and 0.364 free, and 0.054 across the test kernels (0.091 on the shipped
// table; the budget rule chose larger sizes for matmul_skinny, predicted
// within 0.06 there and 0.21 in the shipped table).
//
// The non-negative fit's 0.246 is the geometric mean over held-out
// kernels of these errors:
//
//	arith: add f32 0.58, add f64 0.20, mul f32 0.91, mul f64 0.81,
//	       div 0.06 and 0.18, pow f32 0.20, rsqrt 0.11 and 0.08
//	arith_mix 0.10 and 0.08, empty 0.05, empty_1d 0.05
//	global_fan: fan_out 0.59, fan_in 0.23
//	global_stride1: copy 0.28, add4 0.45, store_index 0.24
//	global_strided: copy 0.42, store 0.96
//	matmul_naive 0.61, matmul_tiled 0.14, matvec_t_unrolled 0.21
//	stride2_filled 0.33, stride3_filled 0.07, transpose 0.48
//	uniform_loads (scaled_sum) 0.24, vector_norms: sumsq 0.24,
//	inv_norm 0.25, vector_scale_add 0.40, vector_sums 2.06
//
// On the table shipped before it, measured the same day on the same host
// with the loops rolled and matvec_t in place of matvec_t_unrolled, it
// was 0.262 (747 of 792 rows): held out, scaled_sum 1.21, matvec_t 0.84,
// fan_in 0.77, fan_out 0.71, sumsq 0.47 and inv_norm 0.48. PoCL runs a
// loop in a work-item serially and vectorizes across work-items only the
// straight-line code around it (go doc ./measurekernels/library), so a
// rolled loop made a kernel run as its counts, which are taken across
// work-items as a GPU runs them, do not describe: fan_in with S = 4 took
// 19.5 ms at n = 2^24 rolled and takes 8.9 ms unrolled, and matvec_t,
// whose loop over the parameter m walked a column of a in every
// work-item, had a training error of 0.83; its slowness raised the
// weight of uniform loads, so that scaled_sum held out was predicted about
// 2.2 times too slow. Unrolled, the matvec class has a training
// error of 0.10. vector_sum, new in the same table, sums the components
// of the vectors of vector_norms, so that the filled stride-2 and
// stride-3 loads vary apart from the pow and rsqrt that outweigh them
// there: convolution's image loads (filled stride 3) had the weight zero
// and convolution was predicted 25% too fast; they now cost 1.7e-10 s
// each, and convolution is predicted within 11%. Held out,
// vector_sum itself is predicted three times too slow (2.06), since
// without it the filled-stride weights come from the classes where pow
// and local memory hide them.
//
// On the table before that, without empty_1d, it was 0.307, with empty
// held out predicted zero: the other classes price launches into their
// own weights, and the non-negative fit left launch.const and
// launch.groups at zero without the empty class. empty_1d, the empty
// kernel on a 1-D grid with other work-group sizes, gives the launch
// overhead a second class. On the table before that (round 2) it was
// 0.474. Flops then cost time only in the compute-bound arith class, and
// stride-1 stores varied apart from loads only in global_stride1 and
// global_strided: held out, a class that alone sets a property apart
// leaves that weight to classes where it hides behind memory traffic
// (without arith the fit priced f32 adds at 2e-12 s and rsqrt at zero;
// without global_stride1 the stride-1 store weight was zero). The
// arith_mix class (mixed arithmetic whose operations vary apart) and the
// global_fan class (one load to several stores and back, beyond the
// last-level cache) give each a second class. What remains is not a
// matter of weighting the rows:
//
//   - Within a streaming class the sizes straddle the last-level cache
//     (32 MiB on the EPYCs that measured the tables; on round 2
//     global_copy moved its footprint at 68 to 121 GB/s up to 16 MiB and
//     at 27 to 33 GB/s from 64 MiB), and global_strided, global_fan and
//     vector_scale_add behave likewise, so one weight per access fits
//     neither regime.
//   - A loop over a parameter cannot be unrolled and still runs serially
//     in each work-item on PoCL: matmul_naive (held out 0.61) and the
//     arithmetic kernels, whose chains of dependent operations are timed
//     by their latency more than by the throughput a weight per
//     operation stands for.
//   - Held out, arith's multiplications are priced by arith_mix alone,
//     where they cost next to nothing: mul f32 is predicted 8 times too
//     fast. Contraction into multiply-adds is not the reason. Measured
//     again on 2026-11-25 with #pragma OPENCL FP_CONTRACT OFF, arith_mix
//     took the same time (median ratio 1.01 over its 96 rows), arith_mul
//     0.79 of its time (its sum accumulates through a multiply-add, whose
//     latency is longer than an addition's) and matmul_naive 0.84; with
//     the 13 kernels that multiply and add replaced by those rows, the
//     leave-one-class-out error was 0.283, against 0.273 with a control
//     re-measurement of the same kernels with contraction on (0.262 on
//     the rows of the previous table: re-measuring alone moves it by
//     0.01). A third compute class tried the same day, arith_unfused
//     (multiplications that no addition absorbs: (k + 0.5) times six
//     constants, and an add-only chain, lengths varied apart), brought mul
//     f64 from 0.81 to 0.31 and mul f32 to 0.63, yet the
//     leave-one-class-out error rose to 0.289 and it was not shipped: on
//     this CPU additions and multiplications issue to separate pipes and
//     overlap (a product of six sums, 6 additions and 5 multiplications,
//     took 0.65 ns per term and work-item, four additions alone 0.48 ns),
//     which a sum of one weight per operation cannot express, so pricing
//     multiplications took time from the memory kernels' loads and
//     stores.
//   - global_store_strided held out is predicted next to zero (0.96):
//     strided stores vary apart from strided loads only in
//     global_strided.
//
// Other fits tried on the table shipped before the current one, each
// against the non-negative fit's 0.262 (leave-one-class-out) and 0.094
// (test kernels, across kernels) there: minimising the squared logarithm of predicted over measured
// time (the geometric mean's own measure, by Gauss–Newton under α ≥ 0)
// 0.352 and 0.125; one weight for the loads and stores of a stride class
// 0.340 and 0.091; one weight for an operation in f32 and f64 0.324 and
// 0.109; without the global.minldst properties 0.268 and 0.095; leaving
// out the rows of streaming kernels that move less than 16, 32 or 64 MiB
// 0.305, 0.290 and 0.346. A non-negative ridge fit (penalty 0.0001 to
// 0.1 in the column-scaled coordinates) gave 0.256 to 0.257 on the 28
// kernels it predicts (the two of global_strided fall out), where the
// non-negative fit gives 0.247 on the same kernels. A property for the
// bytes a kernel's footprint exceeds the last-level cache by (or all its
// bytes where it exceeds 16, 32 or 64 MiB), a DRAM term beside the
// per-access weights, gave 0.304 to 0.314.
//
// On round 2, keeping only the rows of streaming kernels whose footprint
// exceeds twice the last-level cache (simulating a suite sized as the
// seed's GPU sizes are, far beyond cache) gave 0.464, and one weight per
// stride class for loads and stores together on top of that 0.407, with
// the cross-kernel error on the test kernels at 0.082 and 0.079.
//
// On the GPU tables (measured 2026-11-27) the order holds. Left out one
// class at a time, the non-negative fit's error is 0.204 on the H100
// through CUDA, 0.193 through OpenCL, 0.182 and 0.158 on the H200, and
// with one grid-fill saturation (below) 0.162, 0.169, 0.138 and 0.132,
// with the two saturations 0.153, 0.154, 0.133 and 0.128, and with the
// default's ties (below) 0.152, 0.154, 0.122 and 0.128 (932 of 995 rows
// through CUDA, 884 of 947 through OpenCL); the free fit's 0.253, 0.244,
// 0.219 and 0.209 (860 and 812 rows). On the test kernels the default
// fit gives 0.080, 0.246, 0.098 and 0.273 across kernels, without the
// ties 0.178, 0.246, 0.122 and 0.273, with one saturation 0.178, 0.285,
// 0.132 and 0.315, without the grid fill 0.175, 0.337, 0.203 and 0.363,
// the free fit 0.174, 0.340, 0.203 and 0.377. Through OpenCL n-body
// (0.31) and convolution (0.33 and 0.43) account for most of it.
//
// # The grid fill
//
// Seed 001's model prices a kernel by its counts alone, so a grid too
// small to fill the device is predicted in proportion to its work while
// it runs in the time of its busiest compute unit: n-body at the suite's
// sizes launches 4 to 32 blocks on the 132 SMs of an H100 and was
// mispredicted by 0.94. [GridFill] scales every count but the launch
// terms by U·max(⌈G/U⌉·wg, S)/(G·wg) for G groups of wg work-items on U
// units, S being the work-items a unit needs for full throughput; the
// suite's grid_fill_chain and grid_fill_stream classes vary G alone at
// fixed work per work-item so that the rows pin S, and grid_fill_local
// (a chain of local loads and rsqrt, issue 29) does the same for the
// latency-bound saturation below. Weights record the
// GridFill they were fitted with ([Weights].Fill) and are used with it.
//
// One S cannot serve every kernel: n-body's serial chain of local loads
// and reciprocal square roots needs S ≈ 640 to 768 work-items an SM to
// hide its latency, where convolution's independent loads need 256 or
// less. The default grid fill therefore gives the latency-bound
// properties ([LatencyBound]: local accesses, divisions, powers and
// special functions) a saturation of their own ([GridFill].Latency),
// chosen with S among models.SaturationCandidates by training error,
// by coordinate search (the best shared S, then the latency-bound one
// with S held, then S with it held, until neither moves): on all five
// shipped tables it finds the pair that a search of every pair finds,
// with a tenth of the fits (validate --cv on the H100 CUDA table: 56 s
// for every pair, 12 s; 4.4 s since the non-negative fit factorises the
// rows once, see Fitting above). In the tables shipped so far no
// measurement class varies G with latency-bound work, so that the
// latency-bound S is set by how the rows of other classes fit (n-body is
// 0.31 through OpenCL with 384, 0.035 to 0.047 through CUDA with 640);
// the suite's grid_fill_local class, measured into tables from now on,
// varies G alone at fixed work per work-item of local loads and rsqrt,
// so that its rows choose it. The form was chosen by leave-one-class-out
// cross-validation on the measurement rows alone
// (models.Counter.CrossValidate, each fold choosing its saturations
// again), the
// geometric mean over the held-out rows' kernels, among:
//
//	form (saturations)                         H100 CUDA  H100 OpenCL  H200 CUDA  H200 OpenCL  PoCL
//	one S for every count (multiplicative)     0.162      0.169        0.138      0.132        0.235
//	additive: counts + p·(F−1) per property    0.174      0.161        0.144      0.128
//	global accesses apart (2)                  0.157      0.160        0.137      0.126        0.235
//	latency-bound apart (2, every pair)        0.155      0.153        0.134      0.127        0.235
//	latency-bound apart (2, coordinate; default) 0.153    0.154        0.133      0.128        0.235
//	latency-bound and global apart (3)         0.152      0.149        0.136      0.124
//
// (the additive form keeps the counts unscaled and gives each scaled
// property p a second weight on p·(F−1), F the factor of one S; the
// three-saturation form was searched coordinate by coordinate, three
// passes; every form chooses among the candidates with 640, without
// which one S gave 0.253 on PoCL, the figure shipped before, and the
// same on the GPU tables. PoCL's grid is always filled: the split form
// leaves its test kernels at 0.081.) Both split forms beat one S on all four GPU tables, and the
// additive form is worse than one S on both CUDA tables. The
// three-saturation form is within 0.004 of the default on every table,
// better on three and worse on one, with a third parameter (a full
// search of its triples would take ten times the default's fits); the
// two-saturation form is kept as the simpler. The
// saturations chosen on the whole tables are 0 and 0 (H100 CUDA), 128
// and 640 (H200 CUDA), 192 and 384 (both OpenCL tables) and 1024 and
// 768 (PoCL). The test kernels, which chose nothing, go from 0.178,
// 0.285, 0.132 and 0.315 across kernels to 0.178, 0.246, 0.122 and
// 0.273 (PoCL 0.081 either way); n-body on the H200 through CUDA from
// 0.55 to 0.06, and convolution there from 0.06 to 0.21, because the
// filled stride-3 loads, which only stride3_filled and vector_sum
// separate from vector_norms' powers and square roots, are priced 38%
// higher once those flops take the latency saturation.
// uniperf fit --one-saturation fits the form before.
//
// # Ties
//
// A weight that the measurement rows cannot set apart from the others of
// the few kernels that have it can vanish or swing: the filled stride-2
// and stride-3 loads (stride=k/k, a work-group's accesses of stride k
// that together use every element) occur in stride2_filled,
// stride3_filled, vector_sum and vector_norms only, beside powers and
// square roots, and their weight was held at zero or moved 38% with the
// latency-bound saturation, pricing convolution's 147 image loads per
// output at nothing or too much. Of the remedies for such a weight, a
// ridge toward a prior was tried before, on PoCL's table (0.256 to 0.257
// against 0.247, above), and grouping was not tried; [Weights].Ties, one
// weight for properties that move the same bytes, are kept: they have a
// physical reason on a GPU, whose coalescing unit turns a warp's filled
// stride-k accesses into the same cache lines as stride-1 ones, and no
// free strength to choose. [FilledStrideTies] ties the filled loads and
// stores to the stride-1 ones of their type ([TieColumns] merges the
// counts), and the default fit (models.LinearOptions.ChooseTies) fits
// the rows both ways, each with its own saturations, and keeps the ties
// only where leave-one-class-out cross-validation of the measurement
// rows, with each fit's saturations held and over the rows both
// predict, gives the lower error ([TieCheck]): a tie never lowers the
// training error, so the training error cannot choose it. A CPU's vector
// lanes gather strided accesses rather than coalesce them, so on a
// device whose device file says cpu the ties are not offered.
//
// On the shipped tables cross-validation chooses the ties on both CUDA
// tables (0.136 tied against 0.139 apart on the H100, 0.114 against
// 0.125 on the H200, 932 rows) and keeps the weights apart on both
// OpenCL tables (0.127 against 0.120 and 0.102 against 0.100, 884
// rows). Tied, the H100's saturations move from 0 and 0 to 0 and 640;
// the test kernels, which chose nothing, go across kernels from 0.178 to
// 0.080 on the H100 and from 0.122 to 0.098 on the H200 (convolution
// 0.243 to 0.180 and 0.211 to 0.118, n-body 0.549 to 0.035 and 0.062 to
// 0.047), and on the larger sizes of datasets/gpu convolution at n =
// 1024 to 4096 from 0.47 to 0.31 (H100) and 0.52 to 0.26 (H200), n-body
// at n = 4096 to 65536 from 0.48 to 0.05 and 0.08 to 0.06. With the
// latency-bound saturation moved by 10% either way (576 to 704; on the
// H200 the other, 128, too) the cross-kernel error stays within 0.063
// to 0.098 on the H100 and 0.047 to 0.115 on the H200, where n-body at
// 576 is 0.100. Leave-one-class-out with the
// ties chosen on all the rows (each fold re-choosing its saturations)
// is 0.152 and 0.122 (0.153 and 0.133 apart). On PoCL's table the same
// cross-validation would choose the ties (0.165 against 0.188) and
// convolution, whose stride-3 image loads a CPU gathers, would go from
// 0.107 to 0.406: the reason for keeping CPUs out. uniperf fit --no-ties
// keeps every weight apart.
//
// # How well the rows determine the weights
//
// [Precision] gives the standard error of every weight, σ̂ √((AᵀA)⁻¹)_ii
// in the relative-error regression, and the leverage of any prediction
// against the measurement rows; [Coverage] reports, for the properties of
// the test kernels, which kernel classes exercise each and how well its
// weight is determined, and warns where a prediction extrapolates or
// leans on a weight that one class alone supports or that its classes
// disagree on (uniperf fit --coverage). The standard errors assume that
// the model fits every class alike; the weight refitted without each of
// its classes in turn shows where that fails, as it often does on a CPU. For robust fits they are the least-squares formulas
// evaluated at the robust solution, an approximation.
//
// # Errors of predictions
//
// [RelativeError] is |predicted − measured| / measured, and [GeoMean]
// summarises errors by their geometric mean, as the paper does. A relative
// error of exactly zero (which rounded timings can produce) would make any
// geometric mean zero; errors below [ErrorFloor] enter the mean as
// ErrorFloor.
package fit
