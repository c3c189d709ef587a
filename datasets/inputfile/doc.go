// Package inputfile opens and reads the files a user gives uniperf (tables,
// kernels, weights, calibrations, programs, device files) within a size
// cap, and refuses anything that is not a regular file, to read or, with
// CheckOutput, to replace by a written output.
//
// [Open] opens an input as a [File] that reads no further than the size
// it was checked at, and [ReadFile] reads one whole, each refusing, as an
// [*Error], a file that is not regular or is larger than [MaxBytes].
// [ReadText] refuses too a file with a NUL byte, from its first 64 KiB
// before the buffer for the whole is allocated, [ReadChecked] a file that
// a format's check refuses from a few bytes (a table's Arrow footer),
// [ReadFS] reads text from an [fs.FS] and [ReadAll] a stream (standard
// input) within the same cap; [CheckOutput] refuses an output path that names
// something other than a regular file, a symbolic link among them. Under
// [Guard], which a command-line program turns on for each command, an
// output that is one of the command's inputs is refused too.
//
// Without it, reading an input whole let /dev/zero exhaust memory, a FIFO
// block forever and a sparse multi-gigabyte file take seconds and
// gigabytes before being refused. With it, reading an input allocates at
// most [MaxBytes] plus one read buffer; the Arrow reader of package
// arrowfile then allocates at most 64 times the file's size (at least 64
// MiB) for its buffers.
package inputfile
