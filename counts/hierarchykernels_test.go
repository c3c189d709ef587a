package counts_test

import (
	"fmt"
	"math/rand/v2"
)

// The memory-hierarchy classes' kernels (reuse_group, reread_l2,
// reread_dram, column_walk, accumulate_global, core_fill), checked against direct Go sums in the
// interpreter's order.

// sumCheck returns the arrays and a check that out[i] is the sum, in
// order, of a at the indices cells(i) lists.
func sumCheck(a []float32, n int64, cells func(i int64) []int64) (map[string]any, func() error) {
	out := poisonF32(n)
	return map[string]any{"a": a, "out": out}, func() error {
		for i := range n {
			var want float32
			for _, c := range cells(i) {
				want += a[c]
			}
			if out[i] != want {
				return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
			}
		}
		return nil
	}
}

// span lists start, start + step, ... (count values).
func span(start, step, count int64) []int64 {
	out := make([]int64, count)
	for j := range out {
		out[j] = start + step*int64(j)
	}
	return out
}

func reuseGroupSetup(k int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		return sumCheck(randF32(rng, n+k-1), n, func(i int64) []int64 { return span(i, 1, k) })
	}
}

func rereadL2Setup(lx int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nr := p["n"], p["nr"]
		return sumCheck(randF32(rng, nr*lx), n, func(i int64) []int64 { return span(i%lx, lx, nr) })
	}
}

// rowSumSetup checks reread_dram and accumulate_global: out[i] is the sum
// of column i of the rows x n array a, rows given by the parameter named
// rows.
func rowSumSetup(rows string) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, r := p["n"], p[rows]
		return sumCheck(randF32(rng, r*n), n, func(i int64) []int64 { return span(i, n, r) })
	}
}

// columnWalkSetup checks column_walk: out[i] is the sum of column i of
// the nr x p array a, whose columns past n are never read.
func columnWalkSetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n, nr, pitch := p["n"], p["nr"], p["p"]
	return sumCheck(randF32(rng, nr*pitch), n, func(i int64) []int64 { return span(i, pitch, nr) })
}

// coreFillSetup checks core_fill with groups of lx work-items: out[g, l]
// is the f32 sum over k < nk of ((((((k + a[g, l]) - 2.2) + 3.3) - 4.4) +
// 5.5) - 6.6) + 7.7, each operation rounded to f32 in order.
func coreFillSetup(lx int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		return coreFillCheck(lx*p["ng"], p["nk"], rng)
	}
}

func coreFillCheck(n, nk int64, rng *rand.Rand) (map[string]any, func() error) {
	a := randF32(rng, n)
	out := poisonF32(n)
	return map[string]any{"a": a, "out": out}, func() error {
		for i, x0 := range a {
			var sum float32
			for k := range nk {
				x := float32(k) + x0
				x = x - 2.2
				x = x + 3.3
				x = x - 4.4
				x = x + 5.5
				x = x - 6.6
				x = x + 7.7
				sum += x
			}
			if out[i] != sum {
				return fmt.Errorf("out element %d = %v, want %v", i, out[i], sum)
			}
		}
		return nil
	}
}
