// Package arrowfile reads Arrow IPC files that may be damaged, so that a
// damaged file is an error and never the end of the process.
//
// Its one entry point, [Read], checks a file, opens it and hands its
// [ipc.FileReader] to a callback, turning damage found before or during
// the callback into an error.
//
// It exists because the Arrow Go v17 reader trusts the file. It sizes
// slices from flatbuffer vector lengths it never verifies (schema fields,
// children, metadata), follows child fields without a depth limit, and
// allocates message buffers as long as the lengths recorded in the file.
// A damaged length then asks for terabytes, and a field tree whose children
// share or wrap back to their parents recurses until the stack overflows;
// the Go runtime ends the process for both, and no recover can prevent it.
//
// [Read] guards against all three before and while the Arrow reader runs:
// it checks every offset, vector and string the reader takes from the
// footer against the footer's bounds, caps the field tree by depth and by
// total count, checks that every record batch and dictionary block lies in
// the file, and gives the reader an allocator with a budget the file's size
// can justify. What remains are ordinary panics (an index out of range on a
// damaged offset), which Read turns into errors.
//
// Both readers of uniperf's tables use it: package datasets for measurement
// tables and package fit for weight tables.
package arrowfile
