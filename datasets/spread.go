package datasets

import (
	"math"
	"slices"
)

// Spread is how the kept runs of a row scatter: their minimum (the time
// the row records), median and maximum, in seconds.
type Spread struct {
	Min, Median, Max float64
}

// SpreadOf returns the spread of raw after the first discard runs; with no
// run kept every figure is NaN.
func SpreadOf(raw []float64, discard int) Spread {
	kept := slices.Clone(raw[min(discard, len(raw)):])
	if len(kept) == 0 {
		return Spread{math.NaN(), math.NaN(), math.NaN()}
	}
	slices.Sort(kept)
	n := len(kept)
	median := kept[n/2]
	if n%2 == 0 {
		median = (kept[n/2-1] + kept[n/2]) / 2
	}
	return Spread{kept[0], median, kept[n-1]}
}

// Noise is the median's excess over the minimum, relative to the minimum:
// how far a typical run lies from the recorded time. A prediction closer
// to the measurement than this cannot be told from it.
func (s Spread) Noise() float64 { return s.Median/s.Min - 1 }
