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

// A File is an input opened for reading: reads, seeks and ReadAt see its
// bytes up to the size it had when it was checked, so that a file that
// grows afterwards still reads as no larger than MaxBytes.
type File struct {
	*io.SectionReader
	f *os.File
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Open opens the regular file at path for reading, after checking, without
// opening it, that it is one and that it is no larger than MaxBytes: opening
// a FIFO would block until a writer came. Under Guard it refuses a file
// that is an output of the command, and records it as an input.
func Open(path string) (*File, error) {
	f, size, err := open(path, true)
	if err != nil {
		return nil, err
	}
	return &File{io.NewSectionReader(f, 0, size), f}, nil
}

// OpenOutput is Open for reading back an output of the command, the table
// a measurement resumes: it is not an input, and Guard records nothing.
func OpenOutput(path string) (*File, error) {
	f, size, err := open(path, false)
	if err != nil {
		return nil, err
	}
	return &File{io.NewSectionReader(f, 0, size), f}, nil
}

// open opens path for Open and OpenOutput (input: whether Guard records
// it) and returns the size it checked.
func open(path string, input bool) (*os.File, int64, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	if err := check(path, info); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	// The path may have been replaced between Stat and Open.
	if info, err = f.Stat(); err == nil {
		err = check(path, info)
	}
	if err == nil && input {
		err = recordInput(path, info)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, info.Size(), nil
}

// ReadFile reads the regular file at path whole, as Open checks it.
func ReadFile(path string) ([]byte, error) {
	return readFile(path, true, false)
}

// ReadOutput is ReadFile for an output of the command read back, as
// OpenOutput opens it.
func ReadOutput(path string) ([]byte, error) {
	return readFile(path, false, false)
}

// ReadText is ReadFile for a file that must be text (a kernel, a program,
// JSON, CSV): a NUL byte refuses it, as an [*Error] giving its offset,
// when it is read, before the buffer of the file's size is allocated when
// it is in the first 64 KiB. A 2 GB sparse file (all NULs) under a larger
// --max-input took 2 GB before the kernel's lexer refused it.
func ReadText(path string) ([]byte, error) {
	return readFile(path, true, true)
}

// ReadChecked is ReadFile that first calls check with the file and its
// size, so that a reader can refuse what is not its format from a few
// bytes before the file is read whole (a table's reader checks its
// footer: a 2 GB sparse file under a larger --max-input took 2 GB before
// its decoder refused it). An error of check is returned naming path.
func ReadChecked(path string, check func(r io.ReaderAt, size int64) error) ([]byte, error) {
	f, size, err := open(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := check(io.NewSectionReader(f, 0, size), size); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return readAll(path, f, size, false)
}

func readFile(path string, input, text bool) ([]byte, error) {
	f, size, err := open(path, input)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(path, f, size, text)
}

// ReadAll reads r, a stream that has no size to check (standard input),
// to its end, refusing it as an [*Error] naming name past MaxBytes.
func ReadAll(name string, r io.Reader) ([]byte, error) {
	return readAll(name, r, 0, false)
}

// ReadFS is ReadText for the file name in fsys; its errors call the file
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
	return readAll(path, f, info.Size(), true)
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

// textHead is how much of a text file is read, and checked for a NUL
// byte, before the buffer for the whole file is allocated.
const textHead = 64 << 10

// readAll reads r to its end, but no more than MaxBytes: a file can grow
// after it was checked, and a stream has no size to check. size is the
// file's size when it was checked: the buffer is allocated once at that
// size, where io.ReadAll's doubling took up to twice it and more (a 2 GB
// file under --max-input 4096 ran out of memory). With text, a NUL byte
// ends the read with an error; the first textHead bytes are checked before
// the buffer is allocated.
func readAll(path string, r io.Reader, size int64, text bool) ([]byte, error) {
	r = io.LimitReader(r, MaxBytes+1)
	if text {
		r = &textReader{r: r}
	}
	var buf bytes.Buffer
	var err error
	if text {
		_, err = buf.ReadFrom(io.LimitReader(r, textHead))
	}
	if err == nil {
		buf.Grow(max(int(min(size, MaxBytes))-buf.Len(), 0) + bytes.MinRead)
		_, err = buf.ReadFrom(r)
	}
	if err != nil {
		var pe *fs.PathError
		var e *Error
		switch {
		case errors.As(err, &e):
			e.Path = path
		case !errors.As(err, &pe):
			err = &fs.PathError{Op: "read", Path: path, Err: err}
		}
		return nil, err
	}
	if int64(buf.Len()) > MaxBytes {
		return nil, &Error{Path: path, Reason: fmt.Sprintf("more than the %d bytes an input may have (raise --max-input)", MaxBytes)}
	}
	return buf.Bytes(), nil
}

// textReader passes on the bytes of r up to its first NUL byte, where it
// fails.
type textReader struct {
	r   io.Reader
	off int64
}

func (t *textReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if i := bytes.IndexByte(p[:n], 0); i >= 0 {
		return i, &Error{Reason: fmt.Sprintf("byte %d is NUL: not a text file", t.off+int64(i))}
	}
	t.off += int64(n)
	return n, err
}
