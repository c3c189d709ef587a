package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
)

// TestValidateSpread validates the shipped quick table's test rows and
// checks each case's median and maximum against the order statistics of
// its row's kept raw times, sorted here, and the within-the-noise mark
// against the median's excess over the minimum; the report shows the same
// figures in ms.
func TestValidateSpread(t *testing.T) {
	weights := filepath.Join(t.TempDir(), "w.arrow")
	if code, _, stderr := runCommand(t, fitCmd, "fit", embeddedPrefix+shippedTable, "--out", weights); code != 0 {
		t.Fatalf("fit: exit %d: %s", code, stderr)
	}
	code, out, stderr := runCommand(t, validateCmd, "validate", "--weights", weights, embeddedPrefix+shippedTable, "--json")
	var got validationJSON
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("exit %d: %s\n%s", code, stderr, out)
	}
	tab, err := datasets.OpenShipped(shippedTable)
	if err != nil {
		t.Fatal(err)
	}
	noisy := 0
	for _, c := range got.Cases {
		i := slices.IndexFunc(tab.Rows, func(r datasets.Row) bool {
			return r.Kernel == c.Kernel && r.Role == "test" &&
				r.Key() == datasets.MakeKey(c.Kernel, c.Consts, c.Params, c.LocalSize)
		})
		if i < 0 || c.MedianS == nil || c.MaxS == nil || c.WithinNoise == nil || c.RelativeError == nil {
			t.Fatalf("case %s %s: row %d, %+v", c.Kernel, c.Size, i, c)
		}
		r := tab.Rows[i]
		kept := slices.Sorted(slices.Values(r.RawTimesS[r.RunsDiscarded:]))
		n := len(kept)
		median := keptMedian(r)
		if *c.MedianS != median || *c.MaxS != kept[n-1] || c.MeasuredS != kept[0] {
			t.Errorf("%s %s: min/median/max %g %g %g, want %g %g %g from the raw times", c.Kernel, c.Size,
				c.MeasuredS, *c.MedianS, *c.MaxS, kept[0], median, kept[n-1])
		}
		if want := *c.RelativeError < (median-kept[0])/kept[0]; *c.WithinNoise != want {
			t.Errorf("%s %s: error %g, runs %g above the minimum: within_noise %v", c.Kernel, c.Size, *c.RelativeError, median/kept[0]-1, *c.WithinNoise)
		}
		if *c.WithinNoise {
			noisy++
		}
	}
	code, out, _ = runCommand(t, validateCmd, "validate", "--weights", weights, embeddedPrefix+shippedTable)
	if code != 0 || !strings.Contains(out, "median") || strings.Count(out, "~\n") != noisy {
		t.Errorf("report with %d cases within the noise:\n%s", noisy, out)
	}
}

// keptMedian is the median of a row's kept runs: the middle one of the
// sorted runs, or the mean of the middle two.
func keptMedian(r datasets.Row) float64 {
	kept := slices.Sorted(slices.Values(r.RawTimesS[r.RunsDiscarded:]))
	n := len(kept)
	return (kept[(n-1)/2] + kept[n/2]) / 2
}
