// Package plots draws checked predictions and fitted rates as SVG, with
// gonum/plot: predicted against measured time on log-log axes, per kernel
// ([Validation]) or per model ([Comparison]), sustained rates of several
// devices as grouped bars ([Rates]), and run time across a size sweep
// ([Sweep]).
//
// It is apart from package report, which lays the same cases and weights
// out as tables, so that the packages that produce cases (fit/models)
// need no plotting library.
package plots
