// Package datasets defines uniperf's measurement tables (Apache Arrow IPC
// files): their schema, row-complete writing with resume, reading with
// validation, export to Parquet and CSV, and the tables shipped with the
// binary.
package datasets

// Version is the uniperf release recorded in every table uniperf writes.
const Version = "0.1.0"
