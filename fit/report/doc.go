// Package report lays out checked predictions and fitted weights as seed
// 001 does: measured against predicted times per kernel, size and device
// (the paper's Table 1) and weights side by side with the rates they imply
// (its Table 2). Its subpackage plots draws both as SVG, apart so that
// packages producing cases, such as fit/models, do not depend on a plotting
// library.
//
// [NewReport] groups [Case] values, one checked prediction each, into a
// [Report] with per-kernel, cross-device and cross-kernel geometric means;
// [CompareWeights] puts the weight tables of several devices side by side
// in a [WeightComparison], written as Markdown, CSV, JSON or Arrow, with
// sustained rates from [DerivedRate] (GB/s per memory access class,
// GFLOP/s per operation class). [GroupVariants] and [RankVariants] score
// how well the predictions order a kernel's work-group-size variants (the
// autotuning use): pairs ordered right, wrong or tied, and the cost of the
// variant predicted fastest.
package report
