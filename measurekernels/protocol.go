package measurekernels

import (
	"fmt"

	"github.com/uniperf/uniperf/measurekernels/launch"
)

// inputSeed seeds the random inputs of every timed launch, so that a case
// measured again, by the suite or on its own, runs on the same data.
const inputSeed = 0x2545F4914F6CDD1D

// Inputs allocates the arrays of k at sizes (its arrays' at params) and
// fills the arrays it reads with the random inputs of the timing protocol.
// On failure nothing stays allocated.
func Inputs(k *launch.Kernel, sizes, params map[string]int64) (launch.Buffers, error) {
	bufs, err := k.Alloc(sizes)
	if err != nil {
		return nil, err
	}
	if err := k.FillInputs(bufs, sizes, params, inputSeed); err != nil {
		bufs.Close()
		return nil, err
	}
	return bufs, nil
}

// TimeRuns launches k, bound to its arrays, runs times back to back on the
// grid and returns every run's time in seconds by the device's event
// timers, as the suite times each row and uniperf measure KERNEL one
// kernel (seed 001 §4.2); datasets.MinKept then keeps the minimum after
// the discarded first runs. A time that is not positive is an error: the
// timer failed, and a zero would pass for the fastest run.
func TimeRuns(k *launch.Kernel, global, local []int64, runs int) ([]float64, error) {
	raw := make([]float64, runs)
	for i := range raw {
		var err error
		if raw[i], err = k.Run(global, local); err != nil {
			return nil, err
		}
		if !(raw[i] > 0) {
			return nil, fmt.Errorf("the device timer reported %g s", raw[i])
		}
	}
	return raw, nil
}
