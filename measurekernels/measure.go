// Package measurekernels measures uniperf's kernel library on a device:
// for every case of a suite it generates the kernel for the device's
// backend, checks it against the counts reference interpreter, times it
// with the device's event timers by the protocol of seed 001 §4.2, and
// appends one row to a measurement table (package datasets).
//
// [Measure] runs a suite on a device into a table whose metadata [Meta]
// gives; [Inputs] and [TimeRuns] are the timing protocol itself, which the
// suite's cases and uniperf measure KERNEL's single kernels share.
//
// Subpackages: gpu (the backend-neutral runtime interface, with opencl and
// cuda implementations loaded at run time), devices (discovery and
// selection), codegen (OpenCL C and CUDA C from the counts IR), suite (the
// suites' description) and library (the .knl kernels).
package measurekernels

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// Meta is the table metadata of a run of opts on device info. Its method
// text depends only on the options that change how a row is measured and
// on the host, so that a rerun with the same options resumes the table;
// the budget only decides which rows get measured, so a resumed run may
// give another.
func Meta(info gpu.Info, opts Options) datasets.Meta {
	opts.defaults()
	host, _ := os.Hostname()
	class := opts.SizeClass
	if class == "" {
		class = suite.SizeClass(info.MaxGroupSize)
	}
	method := fmt.Sprintf("uniperf %s measure, suite %s, work-group size class %s. "+
		"Each kernel is generated as %s C from its .knl description and checked against the counts reference interpreter "+
		"on random inputs with poisoned outputs before it is timed. "+
		"Timing: device event timers, %d runs per row back to back, the first %d discarded, time_s = minimum of the rest; "+
		"inputs random in [0.5, 1.5). Sizes N = 2^(p + step*t): p raised from the suite's list until the smallest size takes at least %g times "+
		"the empty kernel's time; cases needing more than %g of device memory skipped. %s"+
		"Host %s (%s/%s, %d CPUs).",
		datasets.Version, opts.Suite.Name, class, info.Backend, opts.Runs, opts.Discard, opts.OverheadFactor,
		opts.MemoryFraction, budgetMethod(opts.Suite), host, runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	return datasets.Meta{
		DeviceName: info.Name, DeviceVendor: info.Vendor, DeviceDriver: info.Driver,
		ComputeUnits: info.ComputeUnits, ClockMHz: info.ClockMHz,
		GlobalMemBytes: info.GlobalMemBytes, LocalMemBytes: info.LocalMemBytes,
		Backend: string(info.Backend), Suite: opts.Suite.Name, Method: method,
	}
}

// budgetMethod describes the suite's time budget for the method text, or
// is empty when it has none.
func budgetMethod(s *suite.Suite) string {
	var budgets []string
	for _, k := range s.Kernels {
		if b, _ := s.Budget(k); b > 0 && !slices.Contains(budgets, fmt.Sprint(b)) {
			budgets = append(budgets, fmt.Sprint(b))
		}
	}
	if len(budgets) == 0 {
		return ""
	}
	return fmt.Sprintf("Time budget per run %s s (per kernel in the suite): p then lowered, below the suite's list if need be, "+
		"until the first min_sizes sizes are predicted to fit it (t ~ N^e, e from the smallest size at p and p-1, for the largest extra values), "+
		"but not below the overhead rule nor below one work-group per compute unit; cases predicted beyond it skipped. ", strings.Join(budgets, " or "))
}

// Measure runs the suite on dev and appends a row per case to out. Cases
// already in out are skipped (a resumed run). A kernel that fails to
// compile or computes a wrong result is reported in the Report and never
// timed; the run goes on with the others. The error is for faults that
// stop the run: the device failing or the table not being writable.
func Measure(dev gpu.Device, out *datasets.Writer, opts Options) (*Report, error) {
	opts.defaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	cal, err := parseCalibration(out.Table().Meta.Calibration)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", out.Path(), err)
	}
	m := newMeasurer(dev, out, opts, cal)
	defer m.close()
	err = m.run()
	m.report.Wall = time.Since(m.start)
	return m.report, err
}

func (m *measurer) run() error {
	entries := m.entries()
	if len(entries) == 0 {
		return fmt.Errorf("measure: nothing to measure")
	}
	// The empty kernel goes first: its time is the launch overhead that
	// calibration compares against (seed 001 §4.2).
	slices.SortStableFunc(entries, func(a, b *suite.Kernel) int {
		return btoi(b.Class == "empty") - btoi(a.Class == "empty")
	})
	var plans []*plan
	for _, e := range entries {
		p, err := m.calibrate(e)
		if err != nil {
			if fatal(err) {
				return err
			}
			m.report.Failures = append(m.report.Failures, err)
			continue
		}
		if p == nil {
			continue
		}
		plans = append(plans, p)
		if e.Class == "empty" && m.overhead == 0 {
			if err := m.measureEmptyFirst(p); err != nil {
				return err
			}
		}
	}
	m.total = 0
	for _, p := range plans {
		m.total += len(p.cases)
	}
	// Smallest sizes of every kernel first, so that a budget that runs
	// out leaves every kernel measured at its small sizes.
	levels := 0
	for _, p := range plans {
		levels = max(levels, len(p.entry.Sizes.T))
	}
	for level := range levels {
		for _, p := range plans {
			for _, c := range p.cases {
				if slices.Index(p.entry.Sizes.T, c.T) != level {
					continue
				}
				if err := m.measureCase(c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (m *measurer) entries() []*suite.Kernel {
	var out []*suite.Kernel
	for _, k := range m.opts.Suite.Kernels {
		if len(m.opts.Kernels) == 0 && !k.OptIn || slices.Contains(m.opts.Kernels, k.Kernel) {
			out = append(out, k)
		}
	}
	return out
}

// measureEmptyFirst measures the empty kernel's smallest case, whose time
// is the launch overhead.
func (m *measurer) measureEmptyFirst(p *plan) error {
	if len(p.cases) == 0 {
		return nil
	}
	if err := m.measureCase(p.cases[0]); err != nil {
		return err
	}
	if t, ok := m.times[m.caseKey(p.cases[0])]; ok {
		m.overhead = t
		m.report.Overhead = t
	}
	return nil
}
