package counts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/polyhedra"
)

// gridStride is the load of histogram256 (examples in the corpus): 240
// groups of 192 work-items stride through data by 46080 = 240*192, so
// that subscript 192*g + l + 46080*k takes every value 0..n - 1 once.
func gridStride(extent string) string {
	return "kernel gs\ndomain [n] -> { [g, l] : 0 <= g < 240 and 0 <= l < 192 }\n" +
		"domain { [k] : k >= 0 and 192*g + l + 46080*k < n }\n" +
		"array data i32 [" + extent + "]\narray out i32 [46080]\n" +
		"for k\n  <i32> d = data[192*g + l + 46080*k]\n  out[192*g + l] = d\nend\n"
}

// TestCheckBoundsGridStride checks the bounds of the grid-stride load at
// sizes where the exact projection of its subscript's values took 16 GB
// (n = 100000) and more: the enclosure of its range is 0..n - 1, the
// hand-derived range, so an extent of n passes without a projection. An
// extent of n - 1 is doubtful; the check then reports the overrun or
// stops at a work limit, within a heap budget of 512 MiB. Under -short
// the doubtful extent is checked at 46080 (the overrun found) and 100000
// (the work limit) but not at 2^40, where the projection stops at the
// same step as at 100000; the enclosure is checked at all three.
func TestCheckBoundsGridStride(t *testing.T) {
	for _, n := range []int64{46080, 100000, 1 << 40} {
		params := map[string]int64{"n": n}
		for _, extent := range []string{"n", "n - 1"} {
			if testing.Short() && extent != "n" && n > 100000 {
				continue
			}
			k, err := ParseKernel("gs.knl", []byte(gridStride(extent)), nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			c.plan.opts.Limits = polyhedra.Limits{MaxHeap: 512 << 20}
			for _, b := range c.plan.bounded {
				if b.acc.Array.Name != "data" {
					continue
				}
				r, ok := c.enclosedRange(b, b.acc.Index[0], params)
				if !ok || r != (ival{lo: 0, hi: n - 1}) {
					t.Errorf("n = %d: enclosure %+v (ok %v), want 0..%d", n, r, ok, n-1)
				}
			}
			err = c.CheckBounds(params)
			if extent == "n" {
				if err != nil {
					t.Errorf("n = %d, extent n: %v", n, err)
				}
				continue
			}
			over := fmt.Sprintf("takes 0..%d, and data has extent %d there", n-1, n-1)
			undecided := fmt.Sprintf("cannot decide whether subscript 1 (192*g + l + 46080*k) stays within 0..%d at n=%d: it takes values within 0..%d", n-2, n, n-1)
			if err == nil || !strings.Contains(err.Error(), over) && !strings.Contains(err.Error(), undecided) {
				t.Errorf("n = %d, extent n - 1: %v, want %q or %q", n, err, over, undecided)
			}
			t.Logf("n = %d, extent n - 1: %v", n, err)
		}
	}
}
