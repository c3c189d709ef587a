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

// medianOfRuns sets the time of each test row of tabs to the median of
// its time there and in the same-named tables of dirs, other complete
// runs of the corpus on the device. Each run's time is the minimum of its
// kept runs, the statistic a fitted row is; their median, unlike their
// minimum, stays that statistic while one run's outlier (a core that came
// late for a whole row) no longer decides. A row missing from a run is
// refused: the reference would mix one-run and three-run times.
func medianOfRuns(tabs map[string]*datasets.Table, dirs []string) error {
	for path, t := range tabs {
		var runs [][]datasets.Row
		for _, dir := range dirs {
			other := filepath.Join(dir, filepath.Base(path))
			o, err := datasets.Read(other)
			if err != nil {
				return err
			}
			runs = append(runs, o.Rows)
		}
		for i, r := range t.Rows {
			if r.Role != datasets.RoleTest {
				continue
			}
			times := []float64{r.TimeS}
			for j, rows := range runs {
				k := slices.IndexFunc(rows, func(o datasets.Row) bool { return sameRow(o, r) })
				if k < 0 {
					return fmt.Errorf("%s: no row %s %s (local size %v, device %s) as in %s: every run must hold every row", filepath.Join(dirs[j], filepath.Base(path)), r.Kernel, r.Variant, r.LocalSize, r.Device, path)
				}
				times = append(times, rows[k].TimeS)
			}
			t.Rows[i].TimeS = median(times)
		}
	}
	return nil
}
