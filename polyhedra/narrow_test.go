package polyhedra

import (
	"fmt"
	"testing"
)

// TestCardNarrowDivs counts projections of tiles onto their inner
// variable, whose divs have periods longer than the variable's range,
// against enumeration: { ii : exists io : a <= ii <= a + w - 1 and
// lo <= T*io + ii <= hi } and its mirror image, with w <= T.
func TestCardNarrowDivs(t *testing.T) {
	type tc struct {
		a, w, T int64
		neg     bool
		lo, hi  string
		l, h    func(n, m int64) int64
	}
	var cases []tc
	for _, T := range []int64{2, 3, 16} {
		for _, w := range []int64{1, T / 2, T} {
			if w < 1 {
				continue
			}
			for _, a := range []int64{0, -1, 3} {
				for _, neg := range []bool{false, true} {
					cases = append(cases,
						tc{a, w, T, neg, "1", "n - 2", func(n, m int64) int64 { return 1 }, func(n, m int64) int64 { return n - 2 }},
						tc{a, w, T, neg, "m", "n + m", func(n, m int64) int64 { return m }, func(n, m int64) int64 { return n + m }})
				}
			}
		}
	}
	for _, c := range cases {
		op, s := "+", int64(1)
		if c.neg {
			op, s = "-", -1
		}
		src := fmt.Sprintf("[n, m] -> { [ii] : exists (io : %d <= ii <= %d and %s <= %d*io %s ii <= %s) }",
			c.a, c.a+c.w-1, c.lo, c.T, op, c.hi)
		checkCounts(t, src, -3, 40, -5, 5, func(n, m int64) int64 {
			var want int64
			for ii := c.a; ii < c.a+c.w; ii++ {
				for io := int64(-40); io <= 40; io++ {
					if v := c.T*io + s*ii; c.l(n, m) <= v && v <= c.h(n, m) {
						want++
						break
					}
				}
			}
			return want
		})
	}
}
