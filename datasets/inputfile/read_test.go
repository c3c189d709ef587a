package inputfile

import (
	"errors"
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
	_, err := readAll("grown", strings.NewReader("12345"), 4)
	refusedAs(t, err, "grown", "5 bytes, more than the 4 bytes")
	if data, err := readAll("fits", strings.NewReader("1234"), 4); err != nil || string(data) != "1234" {
		t.Errorf("readAll = %q, %v", data, err)
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
}
