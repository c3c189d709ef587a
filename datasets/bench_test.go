package datasets

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkAppend measures one row-complete append (validate, encode the
// whole table, write, fsync, rename) to a table that already holds 1000
// rows: the per-row cost of a measurement run's bookkeeping.
func BenchmarkAppend(b *testing.B) {
	path := filepath.Join(b.TempDir(), "m.arrow")
	if err := WriteFile(path, testTable(1000)); err != nil {
		b.Fatal(err)
	}
	w, err := OpenWriter(path, testMeta)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	i := 1000
	for b.Loop() {
		if err := w.Append(testRow(i)); err != nil {
			b.Fatal(err)
		}
		i++
	}
	fi, err := os.Stat(path)
	if err == nil {
		b.ReportMetric(float64(fi.Size())/float64(w.Len()), "bytes/row")
	}
}

// BenchmarkRead measures reading and validating a 1000-row table.
func BenchmarkRead(b *testing.B) {
	path := filepath.Join(b.TempDir(), "m.arrow")
	if err := WriteFile(path, testTable(1000)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Read(path); err != nil {
			b.Fatal(err)
		}
	}
}
