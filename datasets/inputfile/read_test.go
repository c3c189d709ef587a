package inputfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// refusedAs checks that err is an *Error whose message names path and
// contains want.
func refusedAs(t *testing.T, err error, path, want string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want an *Error", err, err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, want) {
		t.Errorf("message %q: want it to name %s and say %q", msg, path, want)
	}
}

// withMax sets MaxBytes for one test.
func withMax(t *testing.T, n int64) {
	old := MaxBytes
	MaxBytes = n
	t.Cleanup(func() { MaxBytes = old })
}

func TestReadFile(t *testing.T) {
	withMax(t, 10)
	dir := t.TempDir()
	ok := filepath.Join(dir, "ten")
	if err := os.WriteFile(ok, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(ok); err != nil || string(data) != "0123456789" {
		t.Errorf("ReadFile of a 10-byte file under a 10-byte cap = %q, %v", data, err)
	}

	big := filepath.Join(dir, "eleven")
	if err := os.WriteFile(big, []byte("0123456789a"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(big)
	refusedAs(t, err, big, "11 bytes, more than the 10 bytes")

	_, err = ReadFile(dir)
	refusedAs(t, err, dir, "a directory")

	_, err = ReadFile("/dev/zero")
	refusedAs(t, err, "/dev/zero", "a device, not a regular file")

	if _, err := ReadFile(filepath.Join(dir, "absent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file gave %v, want os.ErrNotExist", err)
	}
}

// A sparse file far past the cap is refused from its size, without reading.
func TestSparseRefusedUnread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sparse")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFile(path)
	refusedAs(t, err, path, "2147483648 bytes")
}

// readAll stops at the cap even where the size checked was smaller (a file
// that grew after Stat).
func TestReadAllCapped(t *testing.T) {
	withMax(t, 4)
	for _, text := range []bool{false, true} {
		_, err := readAll("grown", strings.NewReader("12345"), 4, text)
		refusedAs(t, err, "grown", "more than the 4 bytes")
		if data, err := readAll("fits", strings.NewReader("1234"), 4, text); err != nil || string(data) != "1234" {
			t.Errorf("readAll = %q, %v", data, err)
		}
	}
	// A stream has no size: ReadAll stops at the cap all the same.
	_, err := ReadAll("-", strings.NewReader("12345"))
	refusedAs(t, err, "-", "more than the 4 bytes")
	if data, err := ReadAll("-", strings.NewReader("123")); err != nil || string(data) != "123" {
		t.Errorf("ReadAll = %q, %v", data, err)
	}
}

// ReadText refuses a NUL byte at its offset, wherever it lies; ReadFile
// reads binary files.
func TestReadText(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 3*textHead)
	for _, c := range []struct {
		data string
		nul  int // offset of the first NUL, -1 for none
	}{
		{"kernel k\n", -1},
		{"\x00", 0},
		{"ab\x00c\x00", 2},
		{long + "\x00", 3 * textHead},
		{long[:textHead-1] + "\x00", textHead - 1},
		{long[:textHead] + "\x00", textHead},
	} {
		path := filepath.Join(dir, "t")
		if err := os.WriteFile(path, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		data, err := ReadText(path)
		if c.nul < 0 {
			if err != nil || string(data) != c.data {
				t.Errorf("ReadText of %d bytes of text = %d bytes, %v", len(c.data), len(data), err)
			}
		} else {
			refusedAs(t, err, path, fmt.Sprintf("byte %d is NUL: not a text file", c.nul))
		}
		if data, err := ReadFile(path); err != nil || string(data) != c.data {
			t.Errorf("ReadFile of %d bytes = %d bytes, %v", len(c.data), len(data), err)
		}
	}
}

// A File reads as the size it was checked at, however the file grows
// afterwards.
func TestOpenPinsSize(t *testing.T) {
	withMax(t, 8)
	path := filepath.Join(t.TempDir(), "grows")
	if err := os.WriteFile(path, []byte("12345678"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(path, []byte("123456789abcdef"), 0o644); err != nil {
		t.Fatal(err)
	}
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil || end != 8 {
		t.Errorf("Seek to the end = %d, %v; want 8", end, err)
	}
	f.Seek(0, io.SeekStart)
	if data, err := io.ReadAll(f); err != nil || string(data) != "12345678" {
		t.Errorf("read %q, %v; want the 8 bytes checked", data, err)
	}
}

func TestReadFS(t *testing.T) {
	withMax(t, 3)
	fsys := fstest.MapFS{"a.knl": {Data: []byte("abc")}, "b.knl": {Data: []byte("abcd")}, "d": {Mode: os.ModeDir}}
	if data, err := ReadFS(fsys, "a.knl", "dir/a.knl"); err != nil || string(data) != "abc" {
		t.Errorf("ReadFS = %q, %v", data, err)
	}
	_, err := ReadFS(fsys, "b.knl", "dir/b.knl")
	refusedAs(t, err, "dir/b.knl", "4 bytes")
	_, err = ReadFS(fsys, "d", "dir/d")
	refusedAs(t, err, "dir/d", "a directory")
}

// An output may be new or a regular file, never a device or directory,
// which renaming the written file over it would replace.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "w.arrow")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{regular, filepath.Join(dir, "new.arrow")} {
		if err := CheckOutput(ok); err != nil {
			t.Errorf("CheckOutput(%s) = %v", ok, err)
		}
	}
	refusedAs(t, CheckOutput("/dev/null"), "/dev/null", "a device, not a regular file to write")
	refusedAs(t, CheckOutput(dir), dir, "a directory, not a regular file to write")
	link := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	refusedAs(t, CheckOutput(link), link, "a symbolic link (to /dev/null)")
	// A link to a regular file too: the rename would replace the link and
	// leave its target as it was (issue 45: --out /dev/stdout > f).
	toRegular := filepath.Join(dir, "latest.arrow")
	if err := os.Symlink(regular, toRegular); err != nil {
		t.Fatal(err)
	}
	refusedAs(t, CheckOutput(toRegular), toRegular, "a symbolic link (to "+regular+"), which an output would replace rather than write through: name "+regular+" itself")
	refusedAs(t, CheckOutput("/dev/stdout"), "/dev/stdout", "leave the output out to write to standard output")
	// A new output in a directory that is missing, or is a file: the
	// message names the output and the directory, not the temporary file
	// a write would have failed to create there.
	missing := filepath.Join(dir, "none", "w.arrow")
	refusedAs(t, CheckOutput(missing), missing, "its directory "+dir+"/none does not exist")
	deeper := filepath.Join(dir, "none", "sub", "w.arrow")
	refusedAs(t, CheckOutput(deeper), deeper, "its directory "+dir+"/none/sub does not exist")
	inFile := filepath.Join(regular, "w.arrow")
	refusedAs(t, CheckOutput(inFile), inFile, "its directory "+regular+" is not a directory")
}
