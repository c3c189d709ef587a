// Package weightsio stores the weight tables of package fit as Apache Arrow
// IPC files.
//
// [WriteWeights] and [ReadWeights] write and read a file, [EncodeWeights]
// and [DecodeWeights] the bytes. The schema is weights/1 ([WeightsSchema]):
// columns device, model, property, weight; metadata with the uniperf
// version, the property-set id, the input tables' hashes and the fit
// diagnostics. Decoding validates everything it reads (schema, column
// types, nulls, one device and model, finite weights), so that a corrupt
// or foreign file is an error, not a table of wrong weights.
// [ReadWeights] also reads weights from the CSV that uniperf export writes
// ([DecodeWeightsCSV]), so that a table typed from a paper, seed 001's
// Table 2 say, predicts as a fitted one does.
// [WriteFileAtomic] is the crash-safe write that every output file of
// uniperf goes through, and [EncodeRecord] the Arrow IPC encoding that
// package report's comparisons share.
package weightsio
