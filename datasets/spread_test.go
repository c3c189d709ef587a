package datasets

import (
	"math"
	"testing"
)

func TestSpreadOf(t *testing.T) {
	for _, c := range []struct {
		raw     []float64
		discard int
		want    Spread
	}{
		// The first two runs are discarded; 3, 1, 2 kept.
		{[]float64{9, 9, 3, 1, 2}, 2, Spread{1, 2, 3}},
		// An even count takes the mean of the middle two.
		{[]float64{9, 4, 1, 2, 8}, 1, Spread{1, 3, 8}},
		{[]float64{5}, 0, Spread{5, 5, 5}},
	} {
		if got := SpreadOf(c.raw, c.discard); got != c.want {
			t.Errorf("SpreadOf(%v, %d) = %+v, want %+v", c.raw, c.discard, got, c.want)
		}
	}
	if s := SpreadOf([]float64{1, 2}, 2); !math.IsNaN(s.Min) || !math.IsNaN(s.Median) {
		t.Errorf("no run kept: %+v", s)
	}
	if n := (Spread{Min: 2, Median: 2.5, Max: 4}).Noise(); n != 0.25 {
		t.Errorf("noise %g, want 0.25", n)
	}
	if m := SpreadOf([]float64{9, 3, 1, 2}, 1).Min; m != MinKept([]float64{9, 3, 1, 2}, 1) {
		t.Errorf("the spread's minimum %g is not the recorded time", m)
	}
}
