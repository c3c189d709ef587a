package arrowfile

import (
	"sync/atomic"

	"github.com/apache/arrow/go/v17/arrow/memory"
)

// budget is an allocator that refuses to hand out, in total over one file,
// more bytes than the file can justify. The Arrow reader sizes message
// buffers from lengths in the file; a per-buffer cap would still let a
// damaged file ask for many large buffers. An uncompressed file never needs
// more than its own size; the slack covers LZ4 and ZSTD buffers, which
// decompress to many times their size. Freed bytes are not returned to the
// budget, so the bound holds even where a reference is leaked.
type budget struct {
	memory.GoAllocator
	fileSize, limit int64
	used            atomic.Int64
}

func newBudget(fileSize int64) *budget {
	return &budget{fileSize: fileSize, limit: max(64<<20, 64*fileSize)}
}

// take charges grow bytes for a buffer of size bytes to the budget.
func (a *budget) take(size, grow int) {
	if used := a.used.Add(int64(max(grow, 0))); size < 0 || used > a.limit {
		panic(errOverBudget{int64(size), a.limit, a.fileSize})
	}
}

func (a *budget) Allocate(size int) []byte {
	a.take(size, size)
	return a.GoAllocator.Allocate(size)
}

func (a *budget) Reallocate(size int, b []byte) []byte {
	a.take(size, size-len(b))
	return a.GoAllocator.Reallocate(size, b)
}
