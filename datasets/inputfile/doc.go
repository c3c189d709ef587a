// Package inputfile opens and reads the files a user gives uniperf (tables,
// kernels, weights, calibrations, programs, device files) within a size
// cap, and refuses anything that is not a regular file, to read or, with
// CheckOutput, to replace by a written output.
//
// Without it, reading an input whole let /dev/zero exhaust memory, a FIFO
// block forever and a sparse multi-gigabyte file take seconds and
// gigabytes before being refused. With it, reading an input allocates at
// most [MaxBytes] plus one read buffer; the Arrow reader of package
// arrowfile then allocates at most 64 times the file's size (at least 64
// MiB) for its buffers.
package inputfile
