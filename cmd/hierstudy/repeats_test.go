package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

// TestMedianOfRuns checks a corpus row's time against the median of three
// runs worked by hand, a measurement row left as it is, and the refusal
// of a run that lacks a row.
func TestMedianOfRuns(t *testing.T) {
	base, err := datasets.Read("../../datasets/examples-pocl/bicg.arrow")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(run string, times ...float64) *datasets.Table {
		t.Helper()
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
	first := write("a", 2e-6, 7e-6, 40e-6)
	first.Rows[2].Role = datasets.RoleMeasurement
	write("b", 1e-6, 9e-6, 10e-6)
	write("c", 5e-6, 8e-6, 20e-6)
	tabs := map[string]*datasets.Table{"a/bicg.arrow": first}
	if err := medianOfRuns(tabs, []string{filepath.Join(dir, "b"), filepath.Join(dir, "c")}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{2e-6, 8e-6, 40e-6} {
		if got := first.Rows[i].TimeS; got != want {
			t.Errorf("row %d: time %g, want %g", i, got, want)
		}
	}
	write("short", 1e-6)
	err = medianOfRuns(map[string]*datasets.Table{"a/bicg.arrow": first}, []string{filepath.Join(dir, "short")})
	if err == nil {
		t.Fatal("a run without the row: no error")
	}
}
