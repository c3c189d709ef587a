// Package datasets defines uniperf's measurement tables (Apache Arrow IPC
// files): their schema, row-complete writing with resume, reading with
// validation, export to Parquet and CSV, and the tables shipped with the
// binary.
//
// [Decode] reads a table and [Writer] writes one row at a time; [Shipped]
// lists the tables embedded in the binary, [OpenShipped] opens one, and
// [ShippedFor] says which of them serve as a device's measurements.
package datasets

// Version is the uniperf release recorded in every table uniperf writes.
const Version = "0.1.0"
