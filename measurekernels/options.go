package measurekernels

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/uniperf/uniperf/measurekernels/suite"
)

// Options configure a measurement run.
type Options struct {
	Suite     *suite.Suite
	Generate  Generator
	Runs      int           // timed runs per row (seed 001: 30)
	Discard   int           // leading runs left out of the minimum (seed 001: 4)
	Budget    time.Duration // wall-time budget; 0 means none
	SizeClass string        // work-group size class; "" picks one from the device
	// OverheadFactor: a kernel's smallest size is raised until its run
	// time is at least this multiple of the empty kernel's.
	OverheadFactor float64
	// MemoryFraction of the device's global memory that one case may use.
	MemoryFraction float64
	Kernels        []string  // only these library kernels; all when empty
	Progress       io.Writer // one line per case; nil for none
}

// Defaults of the timing protocol (seed 001 §4.2) and of calibration.
const (
	DefaultRuns           = 30
	DefaultDiscard        = 4
	DefaultOverheadFactor = 2
	DefaultMemoryFraction = 0.8
	// MaxRuns bounds Runs: the raw times of a row are allocated before
	// it is timed, and a row holds them all.
	MaxRuns = 10_000
)

func (o *Options) defaults() {
	if o.Runs == 0 {
		o.Runs = DefaultRuns
	}
	if o.Discard == 0 {
		o.Discard = DefaultDiscard
	}
	if o.OverheadFactor == 0 {
		o.OverheadFactor = DefaultOverheadFactor
	}
	if o.MemoryFraction == 0 {
		o.MemoryFraction = DefaultMemoryFraction
	}
}

// Validate reports options that cannot run: no suite or generator, runs
// that leave none to keep, out-of-range factors, kernels not in the suite.
// Zero values stand for the defaults. Measure validates too; callers check
// first to tell bad options from faults of the run.
func (o Options) Validate() error {
	o.defaults()
	switch {
	case o.Suite == nil || o.Generate == nil:
		return fmt.Errorf("measure: a suite and a code generator are required")
	case o.Runs < 1 || o.Discard < 0 || o.Discard >= o.Runs:
		return fmt.Errorf("measure: %d runs with %d discarded leaves none to keep", o.Runs, o.Discard)
	case o.Runs > MaxRuns:
		return fmt.Errorf("measure: %d runs, more than the %d a row may hold", o.Runs, MaxRuns)
	case o.Budget < 0 || o.OverheadFactor < 0 || o.MemoryFraction <= 0 || o.MemoryFraction > 1:
		return fmt.Errorf("measure: budget, overhead factor and memory fraction must be positive (memory fraction at most 1)")
	}
	for _, name := range o.Kernels {
		if !slices.ContainsFunc(o.Suite.Kernels, func(k *suite.Kernel) bool { return k.Kernel == name }) {
			return fmt.Errorf("measure: kernel %s is not in suite %s", name, o.Suite.Name)
		}
	}
	return nil
}

// Report summarizes a run.
type Report struct {
	Rows     int           // rows measured in this run
	Resumed  int           // cases already in the table, skipped
	Skipped  []string      // cases, or all cases of a program, not measured, with the reason (memory, budget, work-group limit)
	Failures []error       // kernels that failed to build or computed wrong results: never timed
	Overhead float64       // the empty kernel's time, seconds (0 without one)
	Wall     time.Duration // wall time of the run
	// KernelSeconds is the sum of every recorded run's device time.
	KernelSeconds float64
}

// Efficiency is the fraction of wall time spent inside the timed kernels.
func (r *Report) Efficiency() float64 {
	if r.Wall <= 0 {
		return 0
	}
	return r.KernelSeconds / r.Wall.Seconds()
}
