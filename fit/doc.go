// Package fit turns measured kernel run times and property counts into
// per-device weights by relative-error least squares, the fitting half of
// Stevens and Klöckner's unified, hardware-fitted performance model (seed
// 001, §4.3).
//
// The model predicts a kernel's wall time as T ≈ Σ_i α_i p_i: one weight
// α_i (seconds per operation) per property p_i. [Fit] finds the weights
// that minimise the squared relative error over the measurement rows,
//
//	Σ_j (1 − Σ_i α_i p_ij / T_j)²,
//
// solving A α ≈ 1 with A_ij = p_ij/T_j, each column scaled to unit
// 2-norm. Properties zero in every row are dropped ([Diagnostics.Dropped]);
// collinear properties are a [*RankError] naming them, unless
// [Options.MinNorm] asks for the minimum-norm solution.
//
// [Fit] solves for a [Weights] table from [Sample] rows under [Options]:
// [DefaultOptions] is the non-negative fit (Lawson–Hanson on the rows'
// QR triangle), the zero Options the paper's free fit; [Options.Balance]
// weighs kernel classes alike and [Options.Robust] minimises absolute
// relative errors. [GridFill] scales the counts of a launch too small to
// fill the device, with saturations that [ReadSaturation] reads from the
// grid-fill classes' rows ([LatencyBound] and [Coalesced] say which
// properties take which); [Weights.Ties] and [FilledStrideTies] give
// properties that move the same bytes one weight ([TieColumns],
// [TieCheck]). [Weights.Predict] prices new counts; [NewPrecision] and
// [NewCoverage] say how well the rows determine the weights, a fit
// records those they determine weakly ([Diagnostics].Weak) beside those
// it held at zero, and [Weights.Doubt] says how much of a prediction
// rests on either, without the rows; [RelativeError] and [GeoMean]
// measure predictions (errors below [ErrorFloor] enter the mean as
// ErrorFloor).
//
// Weight tables on disk are package
// [github.com/uniperf/uniperf/fit/weightsio]; the paper's Table 1 and
// Table 2 layouts, derived rates and plots are package
// [github.com/uniperf/uniperf/fit/report]; the models behind one
// interface, cross-validation and the fit's choices of saturations and
// ties live under fit/models.
//
// Why the default fit is what it is — non-negative rather than free,
// three grid-fill saturations read from their classes, the ties chosen
// by leave-one-class-out cross-validation on the measurement rows —
// with the figures for and against every alternative tried, which
// held-out kernel classes are predicted worst and why, and why
// uniperf fit --fill-from is not the default, is docs/model.md in the
// repository; today's accuracy is docs/accuracy.md. The
// memory-hierarchy-aware model (uniperf --model hierarchy: reused loads
// left out, DRAM and L2 traffic placed by the cache capacities, the
// memory, compute and groups' costs overlapping) is
// fit/models/hierarchy; docs/model.md gives what each of its choices
// was made on, the paper's model (seed 001's, this package's) staying
// the default.
package fit
