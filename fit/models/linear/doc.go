// Package linear is seed 001's unified model on uniperf's counts: one
// weight per property and device, fitted by relative-error least squares
// (package fit), a prediction the dot product of weights and counts. It
// registers itself with package models as "linear" ([Model]).
//
// [CalibrateTables] fits a device's weights on the measurement rows of its
// tables, [Calibrate] on rows the caller chooses, as [Options] say (the
// grid fill and its saturations, ties, integer operations); [Validate]
// and [ValidateTerms] pair predictions of rows with their measurements;
// [CrossValidate] leaves one kernel class out at a time; [Coverage]
// reports how well the measurement rows determine the test rows.
// [Predict] and [PredictLaunch] predict one launch, [NewPredictor]
// compiles a kernel's prediction for many parameter sets.
//
// docs/models.md describes the fit at length.
package linear
