package inputfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// ReadFile allocates the file's size once: io.ReadAll's doubling took two
// to three times it, and a 2 GB sparse file under --max-input 4096 ran out
// of memory. The work is counted in bytes allocated.
func TestReadFileAllocatesOnce(t *testing.T) {
	const size = 32 << 20
	path := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	data, err := ReadFile(path)
	runtime.ReadMemStats(&after)
	if err != nil || len(data) != size {
		t.Fatalf("%d bytes (%v), want %d", len(data), err, size)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > size+size/4 {
		t.Fatalf("reading %d bytes allocated %d", size, got)
	}
}
