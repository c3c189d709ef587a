package resios

import (
	"fmt"
	"math"

	"github.com/uniperf/uniperf/fit/gpus"
)

// Transfer is (4.2), the time in seconds to copy sizeMB megabytes between
// host and device: size/min(BW_peak, BW_inc(size)) with the linear
// bandwidth ramp BW_inc(size) = slope·size + intercept in MB/s. The thesis
// writes "size is the number of bytes", but its fit (BW_inc = 100·size + 692
// against a 5000 MB/s peak) only makes sense with size in megabytes, which
// is our reading.
func Transfer(o gpus.ResiosOverhead, sizeMB float64) (float64, error) {
	if !(sizeMB >= 0) || math.IsInf(sizeMB, 0) {
		return 0, fmt.Errorf("resios: transfer size must be finite and non-negative, have %g MB", sizeMB)
	}
	if sizeMB == 0 {
		return 0, nil
	}
	bw := math.Min(o.TransferPeakMBps, o.TransferSlope*sizeMB+o.TransferInterceptMB)
	if !(bw > 0) {
		return 0, fmt.Errorf("resios: the device's transfer bandwidth model gives %g MB/s for %g MB", bw, sizeMB)
	}
	return sizeMB / bw, nil
}

// Overhead is (4.3): the transfer time plus, when withContext is set, the
// CUDA context initialization, plus the kernel launch. Timing a kernel
// repeatedly in one context, as uniperf's measurements do, pays only the
// launch; sizeMB is then 0.
func Overhead(o gpus.ResiosOverhead, sizeMB float64, withContext bool) (float64, error) {
	t, err := Transfer(o, sizeMB)
	if err != nil {
		return 0, err
	}
	if withContext {
		t += o.ContextInitSeconds
	}
	return t + o.LaunchSeconds, nil
}
