package inputfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// DefaultMaxBytes is the default of MaxBytes: 64 MiB, over a hundred times
// the largest shipped table.
const DefaultMaxBytes = 64 << 20

// MaxBytes is the largest input, in bytes, that Open and ReadFile accept.
// The command line sets it once, from --max-input, before any file is read.
var MaxBytes int64 = DefaultMaxBytes

// Open opens the regular file at path for reading, after checking, without
// opening it, that it is one and that it is no larger than MaxBytes: opening
// a FIFO would block until a writer came. Under Guard it refuses a file
// that is an output of the command, and records it as an input.
func Open(path string) (*os.File, error) {
	f, err := OpenOutput(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil {
		err = recordInput(path, info)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenOutput is Open for reading back an output of the command, the table
// a measurement resumes: it is not an input, and Guard records nothing.
func OpenOutput(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := check(path, info); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	// The path may have been replaced between Stat and Open.
	if info, err = f.Stat(); err == nil {
		err = check(path, info)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file at path whole, as Open checks it.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return readAll(path, f, info.Size())
}

// ReadFS is ReadFile for the file name in fsys; its errors call the file
// path, which says where fsys is.
func ReadFS(fsys fs.FS, name, path string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := check(path, info); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(path, f, info.Size())
}

// check refuses what is not a regular file or is larger than MaxBytes.
func check(path string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return &Error{Path: path, Reason: kind(info.Mode()) + ", not a regular file"}
	}
	if info.Size() > MaxBytes {
		return tooLarge(path, info.Size())
	}
	return nil
}

// kind names what a file that is not regular is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return fmt.Sprintf("a file of type %s", m.Type())
}

func tooLarge(path string, size int64) error {
	return &Error{Path: path, Reason: fmt.Sprintf("%d bytes, more than the %d bytes an input may have (raise --max-input)", size, MaxBytes)}
}

// readAll reads r to its end, but no more than MaxBytes: a file can grow
// after it was checked. size is the file's size when it was checked: the
// buffer is allocated once at that size, where io.ReadAll's doubling took
// up to twice it and more (a 2 GB file under --max-input 4096 ran out of
// memory).
func readAll(path string, r io.Reader, size int64) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(min(max(size, 0), MaxBytes)) + bytes.MinRead)
	_, err := buf.ReadFrom(io.LimitReader(r, MaxBytes+1))
	data := buf.Bytes()
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = &fs.PathError{Op: "read", Path: path, Err: err}
		}
		return nil, err
	}
	if int64(len(data)) > MaxBytes {
		return nil, tooLarge(path, int64(len(data)))
	}
	return data, nil
}
