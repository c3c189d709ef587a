package arrowfile

import (
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow/ipc"
)

// Check checks the footer of the Arrow IPC file r of size bytes, as Read
// does first: a caller that reads a file whole checks it with Check before,
// so that what is no Arrow file is refused from a few bytes.
func Check(r io.ReaderAt, size int64) error {
	return checkFooter(r, size)
}

// Read checks the Arrow IPC file in r, opens it and calls use with its
// reader, which is closed when use returns. Records and arrays obtained
// from the reader are valid only during use.
//
// An error returned by use is returned unchanged. Any other problem is an
// error that says the file is not Arrow or is corrupt; that includes panics
// during use, because the Arrow arrays of a damaged file can index out of
// range when use reads them.
func Read(r ipc.ReadAtSeeker, use func(*ipc.FileReader) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			// A runtime panic's text (slice bounds out of range) is the
			// reader's, not the user's: only the damage is reported.
			err = errors.New("corrupt Arrow IPC file: a length or offset in it points outside its data")
			if e, ok := p.(errOverBudget); ok {
				err = fmt.Errorf("corrupt Arrow IPC file: %w", e)
			}
		}
	}()
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	if err := checkFooter(r, size); err != nil {
		return err
	}
	fr, err := ipc.NewFileReader(r, ipc.WithAllocator(newBudget(size)))
	if err != nil {
		return fmt.Errorf("not an Arrow IPC file: %w", err)
	}
	defer fr.Close()
	return use(fr)
}
