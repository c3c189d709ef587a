package fit

import "math"

// ErrorFloor is the smallest relative error a geometric mean takes in.
//
// Rounded or lucky timings can give a relative error of exactly zero (the
// paper's Table 1 has one: K40 finite differences at size a, 0.70 ms
// measured and 0.70 ms predicted), and a single zero makes a geometric mean
// zero however bad the other predictions are. Skipping zeros would instead
// reward an exact hit by dropping it. A relative error below one part in a
// thousand is below what kernel timings resolve (the paper's minimum and
// mean over 26 runs differ by up to 5%), so such errors count as 1e-3.
// With this floor the Table 1 geometric means recomputed from the rounded
// times all lie within the range the rounding allows around the printed
// values (see the package tests).
const ErrorFloor = 1e-3

// RelativeError returns |predicted − measured| / measured. The measured time
// must be positive; the predicted one may have any sign (a fit with negative
// weights can predict a negative time).
func RelativeError(predicted, measured float64) float64 {
	return math.Abs(predicted-measured) / measured
}

// GeoMean returns the geometric mean of relative errors, each raised to at
// least ErrorFloor. It returns NaN for an empty slice or when any error is
// NaN or negative.
func GeoMean(errs []float64) float64 {
	if len(errs) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, e := range errs {
		if math.IsNaN(e) || e < 0 {
			return math.NaN()
		}
		sum += math.Log(math.Max(e, ErrorFloor))
	}
	return math.Exp(sum / float64(len(errs)))
}
