package polyhedra

// minSampleSplits is the number of splits from which disjointSum places
// the full grid of sample points in its cells, and below which it places
// the coarse one: evaluating the divs of the full grid costs more than
// the FM runs of a few splits (min(n, m) has four).
const minSampleSplits = 16

// sampleValues are the values of each parameter at which samplePoints
// places points, by the number of parameters: dense near 0, where
// domains start, and sparser up to where differences such as
// m <= n - 6 and 2m >= n + 2 both hold.
var sampleValues = [][]int64{
	1: {-64, -40, -30, -24, -20, -16, -14, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 24, 28, 32, 40, 48, 64, 100},
	2: {-64, -40, -30, -24, -20, -16, -14, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 27, 30, 36, 44, 64},
	3: {-9, -5, -3, -2, -1, 0, 1, 2, 3, 5, 8, 13, 21},
}

// coarseSampleValues are sampleValues thinned for disjointSum's few
// splits: a point on each side of a split spares the FM runs that find
// that no side is empty, and a smaller grid is cheap enough to place
// for a handful of splits.
var coarseSampleValues = [][]int64{
	1: {-16, -4, -1, 0, 1, 2, 3, 4, 5, 7, 10, 16, 33, 64, 100},
	2: {-16, -1, 0, 1, 2, 3, 5, 8, 13, 21, 34, 64, 100},
	3: {-1, 0, 1, 3, 8, 21},
}

// samplePoints returns, for a set of parameters and divs of them, the
// parameter points of grid (by the number of parameters, as
// sampleValues) with the values of the divs that rows use; none for more
// parameters than grid has, or for dimensions. The other divs are left
// 0: the common divs of disjointSum's pieces are mostly their polys',
// and filling them was most of the cost of a point. Points whose divs
// overflow are left out.
func (b *bset) samplePoints(grid [][]int64, rows [][]int64) [][]int64 {
	if b.nd != 0 || b.np >= len(grid) || b.np == 0 {
		return nil
	}
	need := b.divsUsed(nil, rows)
	vals := grid[b.np]
	total := 1
	for range b.np {
		total *= len(vals)
	}
	// The points share one allocation: a grid of them was the largest
	// source of allocations in counting the library's sets.
	flat := make([]int64, 0, total*b.width())
	var out [][]int64
	x := b.newRow()
	var rec func(c int)
	rec = func(c int) {
		if c > b.np {
			if !b.fillDivsOf(x, need) {
				return
			}
			start := len(flat)
			flat = append(flat, x...)
			out = append(out, flat[start:len(flat):len(flat)])
			return
		}
		for _, v := range vals {
			x[c] = v
			rec(c + 1)
		}
	}
	x[0] = 1
	rec(1)
	return out
}

// tightRow returns a copy of the inequality r tightened by tightenIneq.
func tightRow(r []int64) []int64 {
	r = copyRow(r)
	tightenIneq(r)
	return r
}

func fitTo(r []int64, w int) []int64 {
	if len(r) < w {
		r = append(r, make([]int64, w-len(r))...)
	}
	return r
}
