package examples_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/examples"
)

// readmeSplits reads the corpus table of README.md: the rows whose first
// cell is a .knl file, by file, with the split their last cell gives.
func readmeSplits(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(strings.Trim(line, " |"), "|")
		if len(cells) < 2 {
			continue
		}
		file := strings.Trim(strings.TrimSpace(cells[0]), "`")
		if !strings.HasSuffix(file, ".knl") || strings.ContainsAny(file, " ,") {
			continue
		}
		if _, dup := out[file]; dup {
			t.Errorf("README.md lists %s twice", file)
		}
		out[file] = strings.TrimSpace(cells[len(cells)-1])
	}
	return out
}

// readmeLists reads README.md's lists of development and held-out kernels,
// "- development: a, b, ...;" and "- held-out: c, d, ...." (names without
// .knl), which may run over several lines.
func readmeLists(t *testing.T) map[examples.Split][]string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	out := map[examples.Split][]string{}
	for _, s := range []examples.Split{examples.Development, examples.HeldOut} {
		_, rest, ok := strings.Cut(text, "\n- "+string(s)+": ")
		if !ok {
			t.Fatalf("README.md has no list of %s kernels", s)
		}
		end := strings.IndexAny(rest, ";.")
		if end < 0 {
			t.Fatalf("README.md's list of %s kernels does not end", s)
		}
		for _, name := range strings.Split(rest[:end], ",") {
			out[s] = append(out[s], strings.TrimSpace(name)+".knl")
		}
		slices.Sort(out[s])
	}
	return out
}

// TestSplit recomputes the split from README.md's rule (the first byte of
// the SHA-256 of the file's base name: even development, odd held-out) for
// every kernel file, and checks README.md's table and lists, SplitOf and
// Files against it.
func TestSplit(t *testing.T) {
	files, err := filepath.Glob("*.knl")
	if err != nil {
		t.Fatal(err)
	}
	table := readmeSplits(t)
	want := map[examples.Split][]string{}
	for _, f := range files {
		s := examples.HeldOut
		if sha256.Sum256([]byte(f))[0]%2 == 0 {
			s = examples.Development
		}
		want[s] = append(want[s], f)
		if got := examples.SplitOf(f); got != s {
			t.Errorf("SplitOf(%s) = %s, the rule gives %s", f, got, s)
		}
		if got, ok := table[f]; !ok {
			t.Errorf("README.md's table does not list %s (split %s)", f, s)
		} else if got != string(s) {
			t.Errorf("README.md's table gives %s as %q, the rule gives %s", f, got, s)
		}
		delete(table, f)
	}
	for f := range table {
		t.Errorf("README.md's table lists %s, which is not a file here", f)
	}
	lists := readmeLists(t)
	for _, s := range []examples.Split{examples.Development, examples.HeldOut} {
		if !slices.Equal(lists[s], want[s]) {
			t.Errorf("README.md lists as %s %v, the rule gives %v", s, lists[s], want[s])
		}
		got, err := examples.Files(s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want[s]) {
			t.Errorf("Files(%s) = %v, want %v", s, got, want[s])
		}
	}
}

func ExampleFiles() {
	dev, err := examples.Files(examples.Development)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(slices.Contains(dev, "transpose.knl"), examples.SplitOf("gemm.knl"))
	// Output: true held-out
}
