package program

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
)

// ShareTime is one device's part of a data-parallel step: the predicted time of
// its slice of the work (a Breakdown's Total, say).
type ShareTime struct {
	Device  string
	Seconds float64
}

// Transfer is the data moved between devices after each step, priced by
// Xu's transfer model (5-10): T = V/B + L·N_msg.
type Transfer struct {
	Bytes     float64 // V, the bytes crossing the slowest link
	Bandwidth float64 // B, bytes per second
	Latency   float64 // L, seconds per message
	Messages  int     // N_msg
}

// Seconds is the exchange's time, (5-10). No bytes and no messages cost
// nothing, whatever the bandwidth.
func (x Transfer) Seconds() (float64, error) {
	if !(x.Bytes >= 0) || math.IsInf(x.Bytes, 0) || !(x.Latency >= 0) || math.IsInf(x.Latency, 0) || x.Messages < 0 {
		return 0, fmt.Errorf("exchange: bytes (%g), latency (%g s) and messages (%d) must be finite and non-negative",
			x.Bytes, x.Latency, x.Messages)
	}
	t := x.Latency * float64(x.Messages)
	if x.Bytes == 0 {
		return t, nil
	}
	if !(x.Bandwidth > 0) || math.IsInf(x.Bandwidth, 0) {
		return 0, fmt.Errorf("exchange: %g bytes need a positive, finite bandwidth, have %g bytes/s", x.Bytes, x.Bandwidth)
	}
	return t + x.Bytes/x.Bandwidth, nil
}

// ParameterServerBytes is the volume through a parameter server's link
// when each of devices workers pushes its gradients and pulls the updated
// parameters, params bytes each way (Xu's PS mode, Figure 6-2). The thesis
// gives no formula; this is the plain count.
func ParameterServerBytes(params float64, devices int) float64 {
	return 2 * float64(devices) * params
}

// RingAllReduceBytes is the volume each device sends in a ring all-reduce
// of params bytes over devices devices, 2·(p−1)/p·params (the NCCL mode of
// Figure 6-3). The thesis gives no formula; this is the standard cost of
// the ring algorithm.
func RingAllReduceBytes(params float64, devices int) float64 {
	if devices <= 1 {
		return 0
	}
	p := float64(devices)
	return 2 * (p - 1) / p * params
}

// Step is a data-parallel step's predicted time.
type Step struct {
	Total    float64 // Compute + Transfer
	Compute  float64 // the slowest share, (5-13)
	Transfer float64 // the exchange, (5-10)
	Slowest  string  // the device of the slowest share
}

// ParallelStep is the time of one data-parallel step over several devices
// (seed 003, Ch. 5–6): the devices run their shares at once, so the step
// takes as long as the slowest share (the parallel-task rule (5-2b), (5-13)),
// followed by the parameter exchange.
func ParallelStep(shares []ShareTime, x Transfer) (Step, error) {
	if len(shares) == 0 {
		return Step{}, errors.New("data parallel: no device shares")
	}
	var s Step
	for i, sh := range shares {
		if !(sh.Seconds >= 0) || math.IsInf(sh.Seconds, 0) {
			return Step{}, fmt.Errorf("data parallel: share %d (%s) must be finite and non-negative, have %g s", i+1, sh.Device, sh.Seconds)
		}
		if i == 0 || sh.Seconds > s.Compute {
			s.Compute, s.Slowest = sh.Seconds, sh.Device
		}
	}
	t, err := x.Seconds()
	if err != nil {
		return Step{}, err
	}
	s.Transfer = t
	s.Total = s.Compute + s.Transfer
	return s, nil
}

// Proportional divides total units of work (a batch, or SMs as in Chapter 4) in
// proportion to the throughputs, as (4-8)–(4-10) do for two kernels:
// part_i / total = K_i / ΣK. Parts are whole numbers; the remainder after
// rounding down goes one unit at a time to the largest fractional parts
// (ties to the earlier device), so the parts add up to total.
func Proportional(total int64, throughputs []float64) ([]int64, error) {
	if total < 0 {
		return nil, fmt.Errorf("split: total must not be negative, have %d", total)
	}
	if len(throughputs) == 0 {
		return nil, errors.New("split: no throughputs")
	}
	sum := new(big.Rat)
	ks := make([]*big.Rat, len(throughputs))
	for i, k := range throughputs {
		if !(k > 0) || math.IsInf(k, 0) {
			return nil, fmt.Errorf("split: throughput %d must be positive and finite, have %g", i+1, k)
		}
		ks[i] = new(big.Rat).SetFloat64(k)
		sum.Add(sum, ks[i])
	}
	// Exact arithmetic: part_i = ⌊total·K_i/ΣK⌋, remainder r_i.
	parts := make([]int64, len(ks))
	rems := make([]*big.Rat, len(ks))
	var given int64
	for i, k := range ks {
		exact := new(big.Rat).Mul(new(big.Rat).SetInt64(total), k)
		exact.Quo(exact, sum)
		q := new(big.Int).Quo(exact.Num(), exact.Denom())
		parts[i] = q.Int64() // ≤ total, so it fits
		rems[i] = exact.Sub(exact, new(big.Rat).SetInt(q))
		given += parts[i]
	}
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rems[order[a]].Cmp(rems[order[b]]) > 0 })
	for i := 0; given < total; i++ {
		parts[order[i]]++
		given++
	}
	return parts, nil
}
