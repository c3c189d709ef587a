package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/uniperf/uniperf/datasets"
)

// sameRow reports whether a and b are one corpus row in two complete
// runs: one key (kernel, consts, sizes, work-group size) and one variant,
// which holds the digest of the kernel's text.
func sameRow(a, b datasets.Row) bool {
	return a.Key() == b.Key() && a.Variant == b.Variant && a.Device == b.Device
}

// repeatRuns are the folders of the corpus's other complete runs
// (-repeats) and the rows of their tables read so far, by path: a -train
// table may also be one of the corpus tables given, and both take their
// times from the same files.
type repeatRuns struct {
	dirs []string
	rows map[string][]datasets.Row
}

func newRepeatRuns(dirs []string) *repeatRuns {
	return &repeatRuns{dirs: dirs, rows: map[string][]datasets.Row{}}
}

// table returns the rows of the table at path, read on first use.
func (r *repeatRuns) table(path string) ([]datasets.Row, error) {
	if rows, ok := r.rows[path]; ok {
		return rows, nil
	}
	t, err := datasets.Read(path)
	if err != nil {
		return nil, err
	}
	r.rows[path] = t.Rows
	return t.Rows, nil
}

// medianOfRuns sets the time of each test row of tabs to the median of
// its time there and in the same-named tables of runs. Each run's time is
// the minimum of its kept runs, the statistic a fitted row is; their
// median, unlike their minimum, stays that statistic while one run's
// outlier (a core that came late for a whole row) no longer decides. A
// row missing from a run is refused: the reference would mix one-run and
// three-run times.
func medianOfRuns(tabs map[string]*datasets.Table, runs *repeatRuns) error {
	for path, t := range tabs {
		var others [][]datasets.Row
		for _, dir := range runs.dirs {
			rows, err := runs.table(filepath.Join(dir, filepath.Base(path)))
			if err != nil {
				return err
			}
			others = append(others, rows)
		}
		for i, r := range t.Rows {
			if r.Role != datasets.RoleTest {
				continue
			}
			times := []float64{r.TimeS}
			for j, rows := range others {
				k := slices.IndexFunc(rows, func(o datasets.Row) bool { return sameRow(o, r) })
				if k < 0 {
					return fmt.Errorf("%s: no row %s %s (local size %v, device %s) as in %s: every run must hold every row", filepath.Join(runs.dirs[j], filepath.Base(path)), r.Kernel, r.Variant, r.LocalSize, r.Device, path)
				}
				times = append(times, rows[k].TimeS)
			}
			t.Rows[i].TimeS = median(times)
		}
	}
	return nil
}
