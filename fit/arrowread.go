package fit

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// openArrow opens an in-memory Arrow IPC file for reading with an allocator
// that refuses buffers larger than the file allows. The Arrow reader sizes
// buffers from lengths recorded in the file, so a corrupt length would
// otherwise ask for terabytes and kill the process instead of returning an
// error. Tables uniperf reads are uncompressed, so no buffer exceeds the
// file; the slack covers padding and small compressed buffers.
//
// checkArrowFooter guards the allocations the reader sizes from the footer.
// Callers must recover the allocator's panic (see recoverCorrupt).
func openArrow(data []byte) (*ipc.FileReader, error) {
	if err := checkArrowFooter(data); err != nil {
		return nil, err
	}
	alloc := &cappedAllocator{limit: 16*len(data) + 1<<16}
	r, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(alloc))
	if err != nil {
		return nil, fmt.Errorf("not an Arrow IPC file: %w", err)
	}
	return r, nil
}

type cappedAllocator struct {
	limit int
	memory.GoAllocator
}

// errCorrupt is the panic value of an allocation the file cannot justify.
type errCorrupt struct{ size int }

func (e errCorrupt) Error() string {
	return fmt.Sprintf("a buffer of %d bytes recorded in a file too small to hold it", e.size)
}

func (a *cappedAllocator) Allocate(size int) []byte {
	if size < 0 || size > a.limit {
		panic(errCorrupt{size})
	}
	return a.GoAllocator.Allocate(size)
}

func (a *cappedAllocator) Reallocate(size int, b []byte) []byte {
	if size < 0 || size > a.limit {
		panic(errCorrupt{size})
	}
	return a.GoAllocator.Reallocate(size, b)
}

// recoverCorrupt turns a panic of the Arrow reader on a corrupt file into
// an error. Use as: defer recoverCorrupt(&err).
func recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("corrupt Arrow file: %v", r)
	}
}
