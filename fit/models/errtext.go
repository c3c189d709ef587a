package models

import (
	"fmt"
	"math"
)

// ErrorText prints a relative error to three decimals, and a dash where there
// is none (NaN), in the summaries of calibrated models and the comparison
// report alike.
func ErrorText(e float64) string {
	if math.IsNaN(e) {
		return "–"
	}
	return fmt.Sprintf("%.3f", e)
}
