// Package tune ranks a kernel's tuning space by predicted time and
// speaks Kernel Tuner's formats.
//
// A Space is a tuning space: tunable parameters with their values and
// restrictions on their combinations. ReadSpace reads Kernel Tuner's T1
// input format (kernel_tuner/schema/T1/1.0.0/input-schema.json in
// github.com/KernelTuner/kernel_tuner: ConfigurationSpace.TuningParameters
// with Name, Type and Values, ConfigurationSpace.Conditions with
// Expression, KernelSpecification's LocalSize, GridDivX/Y/Z and
// ProblemSize) or tune_kernel's "tune_params" and "restrictions" as
// Kernel Tuner's scripts and cache files write them. Values and
// restrictions are Python expressions; ParseExpr reads the subset Kernel
// Tuner's examples use (comparisons, and, or, not, in, arithmetic with
// // and %, list literals, range and comprehensions) with a small
// evaluator that never runs anything else, and refuses the rest at
// line:col.
//
// A Mapping computes a kernel's consts from a configuration's tunables.
// Rank predicts every valid configuration (Space.Configs) once per
// distinct binding of the consts (configurations that bind the same
// consts are the same kernel, counted once) and sorts them. WriteT4
// writes the ranking in Kernel Tuner's T4 results schema
// (kernel_tuner/schema/T4/1.0.0/results-schema.json: "schema_version",
// "results" of "configuration", "times", "invalidity", "correctness",
// "measurements" and "objectives"), each configuration with a
// "predicted_time" measurement in ms; WriteCSV and WriteArrow write the
// same table.
//
// ReadMeasured reads measured times (T4 results, Kernel Tuner cache
// files, CSV), and Evaluate compares a ranking with them: Kendall's
// τ-b, and the best measured time among the predicted best, top 1% and
// top 10 against the optimum, beside the exact expectation of as many
// random picks (ExpectedMin).
package tune
