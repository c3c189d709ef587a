package inputfile

import (
	"os"
	"path/filepath"
	"testing"
)

// withGuard turns Guard on for one test.
func withGuard(t *testing.T) {
	t.Cleanup(Guard())
}

func readInput(t *testing.T, path string) {
	t.Helper()
	if _, err := ReadFile(path); err != nil {
		t.Fatal(err)
	}
}

// Under Guard an output that is an input is refused, whichever comes
// first and however it is spelt: the same path, another spelling, a hard
// link; a file that is neither is written as before.
func TestGuardRefusesInputsAsOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "t.arrow")
	if err := os.WriteFile(in, []byte("table"), 0o644); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.arrow")
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	linkedDir := filepath.Join(dir, "linked")
	if err := os.Symlink(dir, linkedDir); err != nil {
		t.Fatal(err)
	}
	want := "this output is the same file as the input " + in + ", which writing it would destroy: name another output file"
	for _, out := range []string{hard, sub + "/../t.arrow", filepath.Join(linkedDir, "t.arrow")} {
		withGuard(t)
		readInput(t, in)
		refusedAs(t, CheckOutput(out), out, want)
	}
	withGuard(t)
	readInput(t, in)
	refusedAs(t, CheckOutput(in), in, "this output is the input "+in+", which writing it")
	if err := CheckOutput(filepath.Join(dir, "w.arrow")); err != nil {
		t.Errorf("a new output beside the input: %v", err)
	}

	// The output first, then the input (a weight table read after the
	// measurement table was opened for writing).
	withGuard(t)
	if err := CheckOutput(hard); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(in)
	refusedAs(t, err, hard, "this output is the same file as the input "+in)
	// An output not yet written, and an input at its path.
	withGuard(t)
	fresh := filepath.Join(dir, "fresh.arrow")
	if err := CheckOutput(fresh); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fresh, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(sub + "/../fresh.arrow")
	refusedAs(t, err, fresh, "this output is the same file as the input "+sub+"/../fresh.arrow")
	// Reading an output back (a resumed table) is no input.
	if f, err := OpenOutput(fresh); err != nil {
		t.Errorf("OpenOutput of the command's own output: %v", err)
	} else {
		f.Close()
	}

	// Without Guard, a program may read a file and write it back.
	Guard()()
	readInput(t, in)
	if err := CheckOutput(in); err != nil {
		t.Errorf("without Guard: %v", err)
	}
}
