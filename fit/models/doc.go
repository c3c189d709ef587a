// Package models runs uniperf's performance models on measurement tables,
// every model from the same counts (package counts) and on the same rows.
//
// The shared vocabulary: a [Row] is a measured row with where it comes
// from ([Rows] selects them from tables); a [Source] gives a kernel's text
// by name ([Library], [Files]); a [Counter] ([NewCounter], [NewCounterWith]
// for another bank layout) counts kernels symbolically, once per kernel
// and binding of its consts, and evaluates the counts exactly for each
// row ([Counter.Counts]). An [Env] carries the Counter and the device's
// parameter file (package gpus), which the analytical models need.
//
// A [Model] is calibrated for one device (Calibrate) and then predicts a
// launch, a [Case] (Predict), explaining each [Prediction] by its
// intermediate quantities. The models live in packages of their own and
// register themselves by name ([Register]); [New] makes one by name and
// [Names] lists them. A program gets them by importing the packages:
//
//	linear   seed 001's unified model: one weight per property (fit/models/linear)
//	hongkim  seed 002, Hong and Kim's MWP–CWP model
//	xu       seed 003, Xu's occupancy model
//	cycles   seed 004, the cycle-weighted model
//	resios   seed 000, Resios's latency/throughput model
//	hierarchy  seed 001's weights on counts that place global traffic in the
//	         memory hierarchy, with an overlap form (fit/models/hierarchy)
//
// Each model package's documentation says which rows it calibrates on,
// its parameters on each shipped table and what it cannot describe, with
// figures (go doc ./fit/models/hongkim, ./fit/models/cycles).
//
// What only uses the interface lives here: [Compare] calibrates several
// models on the same rows and tests them on the same test rows
// ([Comparison.WriteMarkdown] reports it), [CrossValidate] leaves one
// kernel class out at a time (a [FoldCalibrator] calibrates each fold
// from the model fitted on every row), [RankCandidates] ranks the work-group sizes
// of a kernel ([Candidates], [Spearman]), and [EncodeCalibration] and
// [DecodeCalibration] keep a calibrated analytical model on disk. What
// the analytical models share (per-work-item counts, occupancy, warp
// traces, relative-error fits) is package fit/models/analytic.
//
// docs/models.md describes the models, the linear model's fit and the
// bank layouts at length.
package models
