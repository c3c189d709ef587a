package gpus

import "fmt"

// The ranges below bound every number of a device file to what hardware
// could have, with room to spare (a factor of about a thousand above
// today's largest device), so that the occupancy arithmetic stays far from
// int64 overflow (a block's registers are at most 2^16 per thread × 2^10
// lanes × 2^20 warps) and the models' products and quotients of constants
// stay finite. A number outside its range is a typo or a hostile file,
// refused on load with the field's name; package doc lists the ranges.
const (
	maxSMs      = 1 << 16 // sm_count
	maxLanes    = 1 << 10 // warp_size, reg_sub_partitions, warp_alloc_granularity
	maxThreads  = 1 << 20 // threads, warps and blocks per block or SM
	maxRegs     = 1 << 30 // registers per SM or block
	maxRegsUnit = 1 << 20 // reg_alloc_unit
	maxRegsThrd = 1 << 16 // max_regs_per_thread
	maxShared   = 1 << 32 // shared memory per SM or block, and its reservation, bytes
	maxSharedAU = 1 << 20 // shared_alloc_unit, bytes
	maxSimUnits = 1 << 16 // resios.simulation's warps and units (the simulation runs that many)

	minClockHz = 1e3  // clock_hz: 1 kHz
	maxClockHz = 1e12 // 1 THz
	minBytesPS = 1e3  // mem_bandwidth_bytes_per_s when given
	maxBytesPS = 1e18
	// minConst and maxConst bound every model constant that is given
	// (cycles, counts of transactions or warps, bytes, seconds, MB/s):
	// the smallest shipped one is 4e-6 s, the largest 5000 MB/s.
	minConst = 1e-9
	maxConst = 1e9
)

// intRange is an integer field with its bounds; optional fields may also
// be zero (absent).
type intRange struct {
	path     string
	v        int
	lo, hi   int
	optional bool
}

func (r intRange) check() error {
	if r.optional && r.v == 0 {
		return nil
	}
	if r.v < r.lo || r.v > r.hi {
		if r.optional {
			return fmt.Errorf("%s must be 0 (absent) or %d to %d, have %d", r.path, r.lo, r.hi, r.v)
		}
		return fmt.Errorf("%s must be %d to %d, have %d", r.path, r.lo, r.hi, r.v)
	}
	return nil
}

// floatRange is a float field that is zero (absent) unless required, or
// lies within [lo, hi]; NaN is outside every range.
type floatRange struct {
	path     string
	v        float64
	lo, hi   float64
	required bool
}

func (r floatRange) check() error {
	if !r.required && r.v == 0 {
		return nil
	}
	if !(r.v >= r.lo && r.v <= r.hi) {
		if r.required {
			return fmt.Errorf("%s must be %g to %g, have %g", r.path, r.lo, r.hi, r.v)
		}
		return fmt.Errorf("%s must be 0 (absent) or %g to %g, have %g", r.path, r.lo, r.hi, r.v)
	}
	return nil
}
