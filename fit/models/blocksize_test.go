package models

import (
	"math"
	"slices"
	"testing"
)

func TestGroupConsts(t *testing.T) {
	for _, c := range []struct {
		kernel string
		params map[string]int64
		want   []GroupConst
	}{
		{"global_copy", map[string]int64{"n": 4096}, []GroupConst{{"LX", 0}}},
		// At n = 64 the extent caps the group below LX = 256 and 512;
		// halving LX to 32 shows it.
		{"global_copy", map[string]int64{"n": 64}, []GroupConst{{"LX", 0}}},
		// STRIDE changes the work-items, not the group.
		{"vector_scale_add", map[string]int64{"n": 4096}, []GroupConst{{"LX", 0}}},
		{"matmul_tiled", map[string]int64{"n": 256, "m": 256, "ell": 256}, []GroupConst{{"LX", 0}, {"LY", 1}}},
	} {
		got, err := GroupConsts(Library, c.kernel, nil, c.params)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.kernel, got, err, c.want)
		}
	}
	if _, err := GroupConsts(Library, "no_such_kernel", nil, nil); err == nil {
		t.Error("unknown kernel accepted")
	}
}

func TestDefaultSizes(t *testing.T) {
	one := DefaultSizes([]GroupConst{{"LX", 0}}, 32, 1024)
	if want := [][]int64{{32}, {64}, {128}, {256}, {512}, {1024}}; !slices.EqualFunc(one, want, slices.Equal) {
		t.Errorf("1-D: %v, want %v", one, want)
	}
	two := DefaultSizes([]GroupConst{{"LX", 0}, {"LY", 1}}, 8, 4096)
	if want := [][]int64{{4, 2}, {4, 4}, {8, 4}, {8, 8}, {16, 8}, {16, 16}, {32, 16}, {32, 32}}; !slices.EqualFunc(two, want, slices.Equal) {
		t.Errorf("2-D: %v, want %v", two, want)
	}
}

// TestSpearman checks the rank correlation against values derived by
// hand: 1 for the same order, −1 for the reverse, and for x = 1, 2, 3, 4
// against y = 10, 30, 20, 40: ranks 1, 3, 2, 4, d² = 0+1+1+0, so
// 1 − 6·2/(4·15) = 0.8. With a tie, y = 5, 5, 1, 9 has ranks 2.5, 2.5, 1,
// 4, and the Pearson correlation of the ranks follows by hand below.
func TestSpearman(t *testing.T) {
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{10, 20, 30}, 1},
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 3, 4}, []float64{10, 30, 20, 40}, 0.8},
		// Ranks 1,2,3,4 against 2.5,2.5,1,4: means 2.5; covariance
		// sum (−1.5·0)+(−0.5·0)+(0.5·−1.5)+(1.5·1.5) = 1.5; variances 5 and
		// 0+0+2.25+2.25 = 4.5.
		{[]float64{1, 2, 3, 4}, []float64{5, 5, 1, 9}, 1.5 / math.Sqrt(5*4.5)},
	} {
		got, err := Spearman(c.x, c.y)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Spearman(%v, %v) = %g, %v; want %g", c.x, c.y, got, err, c.want)
		}
	}
	for _, bad := range [][2][]float64{{{1}, {2}}, {{1, 2}, {1}}, {{1, 1}, {2, 3}}} {
		if _, err := Spearman(bad[0], bad[1]); err == nil {
			t.Errorf("Spearman(%v, %v) accepted", bad[0], bad[1])
		}
	}
}

func TestMeasuredRanks(t *testing.T) {
	got := MeasuredRanks([]float64{3e-3, 1e-3, 2e-3, 1e-3})
	if want := []int{4, 1, 3, 2}; !slices.Equal(got, want) {
		t.Errorf("ranks %v, want %v", got, want)
	}
}
