package arrowfile_test

import "testing"

// FuzzRead feeds arbitrary bytes to Read and renders every value of every
// record: the outcome must be the records or an error, never a panic, a
// stack overflow or an allocation that exhausts memory. The seed corpus
// (testdata/fuzz/FuzzRead) holds files from the Arrow writer with nested
// and dictionary-encoded columns, plain, LZ4 and ZSTD, and a hand-built
// footer whose struct field lists one child twice.
func FuzzRead(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		readAll(data)
	})
}
