package cycles_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/cycles"
)

// Calibrate the adjusting weight on one measured size, then predict
// another.
func ExampleEstimate_AdjustingWeight() {
	vectorAdd := func(n float64) cycles.Kernel {
		return cycles.Kernel{Threads: n, Compute: map[string]float64{cycles.Add: 1}, GlobalAccesses: 3}
	}
	w := cycles.DefaultWeights()
	small, _ := cycles.Estimated(vectorAdd(1<<20), w, 1.5e9, 1)
	aw, err := small.AdjustingWeight(0.2e-3) // measured: 0.2 ms
	if err != nil {
		fmt.Println(err)
		return
	}
	large, _ := cycles.Estimated(vectorAdd(1<<24), w, 1.5e9, 1)
	t, _ := large.Seconds(aw)
	fmt.Printf("adjusting weight %.1f, predicted %.1f ms\n", aw, t*1e3)
	// Output: adjusting weight 5326.8, predicted 3.2 ms
}
