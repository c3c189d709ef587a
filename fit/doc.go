// Package fit turns measured kernel run times and property counts into
// per-device weights, and weights and counts back into predicted run times:
// the fitting, prediction and reporting half of Stevens and Klöckner's
// unified, hardware-fitted performance model (seed 001, §4.3 and §5).
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
// Lawson–Hanson active-set method.
//
// # Errors and reports
//
// [RelativeError] is |predicted − measured| / measured, and [GeoMean]
// summarises errors by their geometric mean, as the paper does. A relative
// error of exactly zero (which rounded timings can produce) would make any
// geometric mean zero; errors below [ErrorFloor] enter the mean as
// ErrorFloor. [Report] lays out measured and predicted times per kernel,
// size and device with per-kernel, cross-device and cross-kernel geometric
// means, in the layout of the paper's Table 1.
//
// # Weight tables
//
// [Weights] is a fitted weight table. [WriteWeights] and [ReadWeights] store
// it as an Apache Arrow IPC file (schema weights/1: columns device, model,
// property, weight; metadata with the uniperf version, the property-set id,
// the input tables' hashes and the fit diagnostics). [Comparison] puts the
// weights of several devices side by side with derived sustained rates
// ([DerivedRate]: GB/s per memory access class, GFLOP/s per operation
// class) and writes them as Markdown, CSV, JSON or Arrow. [PlotValidation]
// and [PlotRates] draw predicted-against-measured and rate plots as SVG.
package fit
