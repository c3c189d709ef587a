package arrowfile

import (
	"errors"
	"fmt"
)

// Errors of the footer checks, wrapped with %w in where they were met
// ("corrupt Arrow IPC footer: schema: field 3: offset out of bounds").
// They are unexported: a caller of Read needs to know only that the file
// is damaged, which every error of Read but those of use says.
var (
	// errBounds is an offset, or a flatbuffer field at it, that lies
	// outside the footer.
	errBounds = errors.New("offset out of bounds")
	// errCorruptTable is a flatbuffer table whose vtable or object
	// lengths do not fit the footer.
	errCorruptTable = errors.New("corrupt table")
)

// errOverBudget is the panic value of an allocation the file cannot
// justify; Read recovers it.
type errOverBudget struct{ size, limit, fileSize int64 }

func (e errOverBudget) Error() string {
	return fmt.Sprintf("a buffer of %d bytes would take allocations past %d bytes, the most a %d-byte file may need",
		e.size, e.limit, e.fileSize)
}
