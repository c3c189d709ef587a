package main

import (
	"os"
	"path/filepath"
	"runtime"
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

// sparseFile creates a sparse file of size bytes (no disk blocks) in dir.
func sparseFile(t *testing.T, dir string, size int64) string {
	t.Helper()
	path := filepath.Join(dir, "sparse")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	return path
}

// A 2 GB sparse file (all NUL bytes) is refused by every command that reads
// a file, before anything of its size is allocated: past --max-input 4096B
// from its size, and under --max-input 4096 (MiB) from its first bytes, a
// text input at its first NUL and a table at its missing Arrow footer.
// Before, under 4096 MiB each read took 2 GB (and --evaluate's CSV reader
// 17 GB and minutes) before a parser refused it. Bytes allocated are read
// from runtime.MemStats around each command, in process.
func TestMaxInputSparseUnallocated(t *testing.T) {
	dir := t.TempDir()
	sparse := sparseFile(t, dir, 2<<30)
	text := map[string]bool{"--program": true, "count": true, "kernels": true, "--device-file": true, "--space": true}
	const most = 8 << 20 // the commands' own work: validate decodes an embedded table (650 KiB)
	for _, limit := range []string{"4096B", "4096"} {
		for _, cmd := range fileCommands {
			args := []string{"--max-input", limit}
			isText := false
			for _, a := range cmd {
				isText = isText || text[a]
				args = append(args, strings.NewReplacer("FILE", sparse, "OUT", filepath.Join(dir, "out.arrow")).Replace(a))
			}
			want := sparse + ": 2147483648 bytes, more than the 4096 bytes an input may have (raise --max-input)"
			switch {
			case limit == "4096" && isText:
				want = sparse + ": byte 0 is NUL: not a text file"
			case limit == "4096" && cmd[1] == "--evaluate":
				want = sparse + ": byte 0 is NUL: neither an Arrow file nor the text of JSON or CSV"
			case limit == "4096":
				want = sparse + ": not an Arrow IPC file: no ARROW1 trailer"
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code, msg := runAll(t, args...)
			runtime.ReadMemStats(&after)
			if code != 2 || !strings.Contains(msg, want) {
				t.Errorf("uniperf %s: exit %d, %q; want 2 and %q", strings.Join(args, " "), code, msg, want)
			}
			if got := after.TotalAlloc - before.TotalAlloc; got > most {
				t.Errorf("uniperf %s allocated %d bytes, more than %d", strings.Join(args, " "), got, most)
			}
		}
	}
}

// --max-input is a number of MiB, as it always was, or a size with a
// unit; the values are worked by hand.
func TestParseInputSize(t *testing.T) {
	for s, want := range map[string]int64{
		"64": 64 << 20, "1": 1 << 20, "4096B": 4096, "4096b": 4096, "1B": 1, "4KiB": 4096, "4kib": 4096,
		"3MiB": 3 << 20, "2GiB": 2 << 30, "8796093022207": 8796093022207 << 20, "9223372036854775807B": 1<<63 - 1,
	} {
		if got, err := parseInputSize(s); err != nil || got != want {
			t.Errorf("parseInputSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"0", "0B", "-1", "-4KiB", "1.5MiB", "MiB", "", "4 KB", "8796093022208", "8589934592GiB", "9223372036854775808B"} {
		if got, err := parseInputSize(s); err == nil || !strings.Contains(err.Error(), "--max-input "+s+": want a positive number of MiB") {
			t.Errorf("parseInputSize(%q) = %d, %v; want it refused", s, got, err)
		}
	}
}

// A measurement table given where weights go says to fit it first, for
// each command that reads weights, rather than "stat embedded:...: no such
// file" (embedded: names tables only).
func TestWeightsNotATable(t *testing.T) {
	for _, args := range [][]string{
		{"predict", "--weights", "embedded:pocl-epyc-quick", "global_copy", "--param", "n=1024"},
		{"validate", "--weights", "embedded:pocl-epyc-quick", "embedded:pocl-epyc-quick"},
		{"export", "embedded:pocl-epyc-quick"},
	} {
		code, msg := runAll(t, args...)
		if code != 2 || !strings.Contains(msg, "embedded:pocl-epyc-quick is a measurement table, not weights") ||
			!strings.Contains(msg, "uniperf fit embedded:pocl-epyc-quick --out W.arrow") {
			t.Errorf("uniperf %s: exit %d, %q", strings.Join(args, " "), code, msg)
		}
	}
}
