package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runAll runs uniperf with args after resetting every flag of every
// command, and returns the exit status and the error message. It resets
// them again afterwards: the tests that reset only their own command's
// flags would otherwise inherit a bad --max-input.
func runAll(t *testing.T, args ...string) (int, string) {
	t.Helper()
	resetAllFlags()
	defer resetAllFlags()
	code, _, msg := runCommand(t, rootCmd, args...)
	return code, msg
}

// runOut is runAll returning standard output.
func runOut(t *testing.T, args ...string) (int, string) {
	t.Helper()
	resetAllFlags()
	defer resetAllFlags()
	code, out, _ := runCommand(t, rootCmd, args...)
	return code, out
}

// fileCommands are command lines that read the file FILE.
var fileCommands = [][]string{
	{"table", "FILE"},
	{"fit", "FILE", "--out", "OUT"},
	{"compare", "FILE"},
	{"validate", "--weights", "FILE", "embedded:pocl-epyc-quick"},
	{"predict", "--weights", "FILE", "global_copy", "--param", "n=1024"},
	{"predict", "--program", "FILE", "--device-file", "pocl-cpu"},
	{"export", "FILE"},
	{"count", "FILE"},
	{"kernels", "show", "FILE"},
	{"blocksize", "global_copy", "--device-file", "FILE", "--param", "n=1024", "--model", "hongkim"},
	{"tune", "global_copy", "--space", "FILE", "--weights", "W"},
	{"tune", "--evaluate", "FILE"},
}

// Every file input is refused, at once and as bad input, when it is a
// device, a FIFO, a directory or larger than --max-input; none is read.
func TestInputsBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		t.Fatal(err)
	}
	f.Close()
	bad := []struct{ file, want string }{
		{"/dev/zero", "a device, not a regular file"},
		{fifo, "a FIFO, not a regular file"},
		{dir, "a directory, not a regular file"},
		{sparse, "2147483648 bytes, more than the 67108864 bytes an input may have (raise --max-input)"},
	}
	for _, cmd := range fileCommands {
		for _, b := range bad {
			args := make([]string, len(cmd))
			for i, a := range cmd {
				args[i] = strings.NewReplacer("FILE", b.file, "OUT", filepath.Join(dir, "out.arrow")).Replace(a)
			}
			start := time.Now()
			code, msg := runAll(t, args...)
			if code != 2 || !strings.Contains(msg, b.file+": "+b.want) {
				t.Errorf("uniperf %s: exit %d, %q; want 2 and %q", strings.Join(args, " "), code, msg, b.want)
			}
			// Not a timing assertion of speed: a read of the 2 GB file or
			// a blocked open of the FIFO would take far longer.
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("uniperf %s took %v", strings.Join(args, " "), d)
			}
		}
	}
	if code, msg := runAll(t, "table", sparse, "--max-input", "1"); code != 2 || !strings.Contains(msg, "raise --max-input") {
		t.Errorf("--max-input 4096: exit %d, %q", code, msg)
	}
	for _, v := range []string{"0", "-1", "9223372036854775807"} {
		if code, msg := runAll(t, "table", sparse, "--max-input", v); code != 2 || !strings.Contains(msg, "--max-input "+v+": want a positive number") {
			t.Errorf("--max-input %s: exit %d, %q", v, code, msg)
		}
	}
}
