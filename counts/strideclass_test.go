package counts

import (
	"math/big"
	"testing"
)

// The stride classes of seed 001 §3: strides 0 and 1 by themselves,
// "k/s" for s = 2, 3 and 4, "k/>4" beyond; 4 is the last named class.
func TestStrideName(t *testing.T) {
	for _, c := range []struct {
		stride, num int64
		want        string
	}{
		{0, 1, "0"}, {1, 1, "1"}, {2, 1, "1/2"}, {3, 2, "2/3"}, {4, 3, "3/4"}, {4, 4, "4/4"}, {5, 1, "1/>4"}, {64, 4, "4/>4"},
	} {
		if got := strideName(c.stride, c.num); got != c.want {
			t.Errorf("strideName(%d, %d) = %q, want %q", c.stride, c.num, got, c.want)
		}
	}
	for s, want := range map[int64]int64{2: 2, 3: 3, 4: 4, 5: 4, 100: 4} {
		if got := classDenominator(s); got != want {
			t.Errorf("classDenominator(%d) = %d, want %d", s, got, want)
		}
	}
}

// utilClass against its definition computed with rationals: the
// utilization fp/filled times den, rounded to the nearest integer with
// halves up, clamped to 1..den. fp = 3, filled = 8, den = 4 is 1.5 and
// rounds to 2; fp = 5, filled = 6, den = 3 is 2.5 and rounds to 3.
func TestUtilClassRoundsHalvesUp(t *testing.T) {
	if got := utilClass(3, 8, 4); got != 2 {
		t.Errorf("utilClass(3, 8, 4) = %d, want 2 (1.5 rounds up)", got)
	}
	if got := utilClass(5, 6, 3); got != 3 {
		t.Errorf("utilClass(5, 6, 3) = %d, want 3 (2.5 rounds up)", got)
	}
	half := big.NewRat(1, 2)
	for den := int64(2); den <= 4; den++ {
		for filled := int64(1); filled <= 24; filled++ {
			for fp := int64(1); fp <= filled; fp++ {
				x := new(big.Rat).SetFrac64(fp*den, filled)
				x.Add(x, half)
				k := new(big.Int).Quo(x.Num(), x.Denom()).Int64() // floor, x > 0
				k = min(max(k, 1), den)
				if got := utilClass(fp, filled, den); got != k {
					t.Errorf("utilClass(%d, %d, %d) = %d, want %d", fp, filled, den, got, k)
				}
			}
		}
	}
	if got := utilClass(1<<62, 1<<62, 4); got != 4 {
		t.Errorf("utilClass at 2^62 = %d, want 4 (no overflow)", got)
	}
}
