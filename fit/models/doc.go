// Package models runs uniperf's performance models on measurement tables:
// it counts the kernel of every measured row (package counts), calibrates a
// model for one device on the measurement rows, and predicts and checks
// launches, every model from the same counts and on the same rows.
//
// The shared vocabulary: a [Row] is a measured row with where it comes
// from ([Rows] selects them from tables); a [Source] gives a kernel's text
// by name ([Library], [Files]); a [Counter] ([NewCounter]) counts kernels
// symbolically, once per kernel and binding of its consts (work-group and
// tile sizes), and evaluates the counts exactly for each row. An [Env]
// carries the Counter and the device's parameter file (package gpus), which
// the analytical models need and the linear model does not.
//
// A [Model] is calibrated for one device (Calibrate) and then predicts
// kernel launches (Predict), explaining each prediction by its
// intermediate quantities. The models register themselves by name
// ([Register]); [New] makes one by name. The unified linear model of seed
// 001 is "linear"; the analytical models of the other seeds ("hongkim",
// "cycles", "resios", "xu") register in their own files. [Compare]
// calibrates several models on the same rows and tests them on the same
// test rows.
//
// # The linear model
//
// [Counter.CalibrateTables] fits the weights of one device on the
// measurement rows of its tables, [Counter.Calibrate] on rows the caller
// chooses (fitting, in package fit, is the least-squares solve that
// calibrating the linear model calls); [Counter.Validate]
// predicts rows and pairs each prediction with its measurement;
// [Counter.CrossValidate] leaves out one kernel class at a time, fits on
// the others, and predicts the rows left out that the others determine
// (seed 001 fits on measurement kernels and validates on test kernels;
// leaving classes out asks the same question of the measurement set
// itself); [Counter.Coverage] reports how well the measurement rows
// determine the weights and predictions of the test rows.
//
// [LinearOptions].Fill adds the grid fill (fit.GridFill), which seed
// 001 leaves out: the counts of each row are scaled by the factor of its
// launch, and Calibrate chooses the saturation among
// [SaturationCandidates] by training error, on the rows it fits alone;
// with the Fill's Latency set (uniperf's default) it gives the
// latency-bound properties (fit.LatencyBound) a second one, and reads
// each saturation that a grid-fill class of the rows pins from that
// class's rows (fit.ReadSaturation: grid_fill_chain the shared one,
// grid_fill_local the latency-bound one, grid_fill_stream a third, for
// the coalesced global accesses); those no class pins are searched by training
// error, the pair by coordinate search. [LinearOptions].Ties price properties by another's
// weight (fit.Weights.Ties); with ChooseTies (uniperf's default) Calibrate
// fits the rows with and without the ties of fit.FilledStrideTies and
// keeps the fit that leave-one-class-out cross-validation on the rows
// prefers, except on a device that its device file says is a CPU.
//
// A [Counter] classes local accesses by the bank conflicts of one bank
// layout ([NewCounterWith]); [DeviceBanks] gives a device's from its
// shipped device file (package fit/gpus), Calibrate records the Counter's
// in the weights, and predictions refuse a Counter of another layout than
// the weights' ([CheckBanks], [WeightsBanks]).
//
// Which properties enter the fit follows seed 001 §2, with integer
// operations besides: the paper leaves them out, because compilers remove
// most of them, but the bounds guards and index arithmetic of real kernels
// keep some, and the arith_int class prices them ([LinearOptions].NoInteger
// leaves them out as the paper does).
package models
