//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package inputfile

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO with no writer is refused at once; opening it would block.
func TestFIFORefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	refusedAs(t, err, path, "a FIFO, not a regular file")
}
