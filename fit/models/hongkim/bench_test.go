package hongkim

import (
	"testing"

	"github.com/uniperf/uniperf/fit/models"
)

// BenchmarkCrossValidate is uniperf compare --cv's work for Hong–Kim on
// a shipped table: the fit on every measurement row, then each kernel
// class left out of it in turn.
func BenchmarkCrossValidate(b *testing.B) {
	d := shippedDevice(b, "h100-cuda-paper.arrow")
	b.ResetTimer()
	for range b.N {
		out, skipped := models.CrossValidate(d, "hongkim", models.New)
		if len(out) == 0 || len(skipped) > 0 {
			b.Fatalf("%d outcomes, skipped %v", len(out), skipped)
		}
	}
}
