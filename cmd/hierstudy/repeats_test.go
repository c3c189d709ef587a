package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

// writeRun writes dir/run/bicg.arrow: the first len(times) rows of the
// shipped bicg table, timed times (every raw run too), as one complete
// run of the corpus.
func writeRun(t *testing.T, dir, run string, times ...float64) *datasets.Table {
	t.Helper()
	base, err := datasets.Read("../../datasets/examples-pocl/bicg.arrow")
	if err != nil {
		t.Fatal(err)
	}
	tab := *base
	tab.Rows = append([]datasets.Row(nil), base.Rows[:len(times)]...)
	for i := range times {
		tab.Rows[i].TimeS = times[i]
		tab.Rows[i].RawTimesS = nil
		for range base.Rows[i].RawTimesS {
			tab.Rows[i].RawTimesS = append(tab.Rows[i].RawTimesS, times[i])
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, run), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := datasets.WriteFile(filepath.Join(dir, run, "bicg.arrow"), &tab); err != nil {
		t.Fatal(err)
	}
	return &tab
}

// TestMedianOfRuns checks a corpus row's time against the median of three
// runs worked by hand, a measurement row left as it is, and the refusal
// of a run that lacks a row.
func TestMedianOfRuns(t *testing.T) {
	dir := t.TempDir()
	first := writeRun(t, dir, "a", 2e-6, 7e-6, 40e-6)
	first.Rows[2].Role = datasets.RoleMeasurement
	writeRun(t, dir, "b", 1e-6, 9e-6, 10e-6)
	writeRun(t, dir, "c", 5e-6, 8e-6, 20e-6)
	tabs := map[string]*datasets.Table{"a/bicg.arrow": first}
	if err := medianOfRuns(tabs, newRepeatRuns([]string{filepath.Join(dir, "b"), filepath.Join(dir, "c")})); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{2e-6, 8e-6, 40e-6} {
		if got := first.Rows[i].TimeS; got != want {
			t.Errorf("row %d: time %g, want %g", i, got, want)
		}
	}
	writeRun(t, dir, "short", 1e-6)
	err := medianOfRuns(map[string]*datasets.Table{"a/bicg.arrow": first}, newRepeatRuns([]string{filepath.Join(dir, "short")}))
	if err == nil {
		t.Fatal("a run without the row: no error")
	}
}

// TestMedianOfRunsReadsOnce gives one table as -train's and as a corpus
// table, as run does: the second takes its medians from the runs' tables
// as first read, so it still gets the medians worked by hand after the
// runs' folders are gone.
func TestMedianOfRunsReadsOnce(t *testing.T) {
	dir := t.TempDir()
	train := writeRun(t, dir, "a", 2e-6, 7e-6)
	corpus := writeRun(t, dir, "a", 2e-6, 7e-6)
	writeRun(t, dir, "b", 1e-6, 9e-6)
	writeRun(t, dir, "c", 5e-6, 8e-6)
	runs := newRepeatRuns([]string{filepath.Join(dir, "b"), filepath.Join(dir, "c")})
	if err := medianOfRuns(map[string]*datasets.Table{"a/bicg.arrow": train}, runs); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{"b", "c"} {
		if err := os.RemoveAll(filepath.Join(dir, run)); err != nil {
			t.Fatal(err)
		}
	}
	if err := medianOfRuns(map[string]*datasets.Table{"a/bicg.arrow": corpus}, runs); err != nil {
		t.Fatalf("the corpus table, its runs' tables read again: %v", err)
	}
	for i, want := range []float64{2e-6, 8e-6} {
		if got := corpus.Rows[i].TimeS; got != want {
			t.Errorf("corpus row %d: time %g, want %g", i, got, want)
		}
	}
}
