package measurekernels

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/launch"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// measurer is the state of one Measure call.
type measurer struct {
	dev    gpu.Device
	info   gpu.Info
	out    *datasets.Writer
	opts   Options
	class  string
	start  time.Time
	report *Report

	programs map[string]*program // by programKey
	failed   map[string]bool     // programs that failed to build or check
	times    map[datasets.Key]float64
	overhead float64

	// For progress and budget: cases planned, done so far, and the time
	// each measured series took, to extrapolate the next size.
	total, done int
	series      map[string][]point
	measured    map[datasets.Key]bool // cases measured in this run
}

type point struct{ n, secs float64 }

// plan is an entry's cases at the base size chosen for the device.
type plan struct {
	entry *suite.Kernel
	p     int
	cases []suite.Case
}

func newMeasurer(dev gpu.Device, out *datasets.Writer, opts Options) *measurer {
	info := dev.Info()
	class := opts.SizeClass
	if class == "" {
		class = suite.SizeClass(info.MaxGroupSize)
	}
	m := &measurer{dev: dev, info: info, out: out, opts: opts, class: class, start: time.Now(),
		report: &Report{}, programs: map[string]*program{}, failed: map[string]bool{},
		times: map[datasets.Key]float64{}, series: map[string][]point{}, measured: map[datasets.Key]bool{}}
	for _, r := range out.Table().Rows {
		m.times[r.Key()] = r.TimeS
	}
	return m
}

func (m *measurer) close() {
	for _, p := range m.programs {
		p.Close()
	}
}

// fatalError marks an error that stops the run (the table cannot be
// written); other errors belong to one kernel or case.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

func fatal(err error) bool {
	var f *fatalError
	return errors.As(err, &f)
}

func caseKey(c suite.Case) datasets.Key {
	return datasets.MakeKey(c.Entry.Kernel, c.Consts, c.Params, c.Group)
}

// seriesKey groups the cases that differ only in size.
func seriesKey(c suite.Case) string {
	return fmt.Sprintf("%s|%s|%v|%v", c.Entry.Kernel, c.Variant.Name, c.Group, c.Extra)
}

// program returns the compiled, checked program of a case, building it on
// first use. A program that failed once is not tried again.
func (m *measurer) program(c suite.Case) (*program, error) {
	key := programKey(c.Entry.Kernel, c.Consts)
	if m.failed[key] {
		return nil, errSkip
	}
	p, ok := m.programs[key]
	if !ok {
		var err error
		p, err = buildProgram(m.dev, m.opts.Generate, c.Entry.Kernel, c.Consts)
		if err != nil {
			m.failed[key] = true
			m.report.Failures = append(m.report.Failures, err)
			m.progress("FAILED %s: %v", key, err)
			return nil, errSkip
		}
		m.programs[key] = p
	}
	if err := p.check(c.Entry, c.Variant); err != nil {
		m.failed[key] = true
		err = fmt.Errorf("%s %q: correctness check failed, not timed: %w", key, c.Variant.Name, err)
		m.report.Failures = append(m.report.Failures, err)
		m.progress("FAILED %v", err)
		return nil, errSkip
	}
	return p, nil
}

// errSkip reports that a case's program is unusable; the failure is
// already in the report.
var errSkip = errors.New("skipped")

// fits checks a case against the device's memory.
func (m *measurer) fits(p *program, c suite.Case) (map[string]int64, error) {
	sizes, total, err := p.Sizes(c.Params)
	if err != nil {
		return nil, err
	}
	limit := int64(m.opts.MemoryFraction * float64(m.info.GlobalMemBytes))
	if total > limit {
		return nil, fmt.Errorf("needs %d bytes of device memory, more than %g of the device's %d", total, m.opts.MemoryFraction, m.info.GlobalMemBytes)
	}
	for _, a := range p.IR.Arrays {
		if n, ok := sizes[a.Name]; ok && n*int64(a.DType.Size()) > m.info.MaxAllocBytes {
			return nil, fmt.Errorf("array %s needs %d bytes, more than the device's largest allocation of %d", a.Name, n*int64(a.DType.Size()), m.info.MaxAllocBytes)
		}
	}
	return sizes, nil
}

// calibrate chooses the entry's base size p and returns its cases: on a
// resumed table the p whose cases the table already holds, otherwise the
// smallest p whose smallest case takes at least OverheadFactor times the
// empty kernel's time (the largest p that fits when none does).
func (m *measurer) calibrate(e *suite.Kernel) (*plan, error) {
	best, bestHits := -1, 0
	for _, p := range e.Sizes.P {
		cases, err := m.opts.Suite.Cases(e, m.class, p)
		if err != nil {
			return nil, err
		}
		hits := 0
		for _, c := range cases {
			if m.out.Has(caseKey(c)) {
				hits++
			}
		}
		if hits > bestHits {
			best, bestHits = p, hits
		}
	}
	if best >= 0 {
		return m.plan(e, best)
	}
	chosen := -1
	for _, p := range e.Sizes.P {
		cases, err := m.opts.Suite.Cases(e, m.class, p)
		if err != nil {
			return nil, err
		}
		c, prog, ok := m.usable(cases)
		if !ok {
			return nil, nil
		}
		if _, err := m.fits(prog, c); err != nil {
			break
		}
		chosen = p
		if e.Class == "empty" || m.overhead == 0 {
			break
		}
		secs, err := m.quickTime(prog, c)
		if err != nil {
			return nil, fmt.Errorf("calibrating %s: %w", e.Kernel, err)
		}
		m.addPoint(c, secs)
		if secs >= m.opts.OverheadFactor*m.overhead {
			break
		}
	}
	if chosen < 0 {
		m.skip(fmt.Sprintf("%s: even the smallest size (p=%d) does not fit the device's memory", e.Kernel, e.Sizes.P[0]))
		return nil, nil
	}
	return m.plan(e, chosen)
}

// usable returns the first of the smallest cases whose program builds and
// passes its check; every program tried on the way is reported if it
// fails.
func (m *measurer) usable(cases []suite.Case) (suite.Case, *program, bool) {
	for _, c := range cases {
		if c.T != cases[0].T {
			break
		}
		if p, err := m.program(c); err == nil {
			return c, p, true
		}
	}
	return suite.Case{}, nil, false
}

func (m *measurer) plan(e *suite.Kernel, p int) (*plan, error) {
	cases, err := m.opts.Suite.Cases(e, m.class, p)
	if err != nil {
		return nil, err
	}
	m.progress("%s: p=%d, %d cases", e.Kernel, p, len(cases))
	return &plan{entry: e, p: p, cases: cases}, nil
}

// quickTime is the minimum of three runs after a warm-up, for calibration.
func (m *measurer) quickTime(p *program, c suite.Case) (float64, error) {
	raw, err := m.timeCase(p, c, 4)
	if err != nil {
		return 0, err
	}
	return datasets.MinKept(raw, 1), nil
}

// timeCase allocates and fills the case's arrays and times runs launches.
func (m *measurer) timeCase(p *program, c suite.Case, runs int) ([]float64, error) {
	sizes, err := m.fits(p, c)
	if err != nil {
		return nil, err
	}
	bufs, err := p.Alloc(sizes)
	if err != nil {
		return nil, err
	}
	defer bufs.Close()
	if err := p.FillInputs(bufs, sizes, 0x2545F4914F6CDD1D); err != nil {
		return nil, err
	}
	global, local, err := p.Grid(c.Params)
	if err != nil {
		return nil, err
	}
	if err := p.Bind(bufs, c.Params); err != nil {
		return nil, err
	}
	raw := make([]float64, runs)
	for i := range raw {
		if raw[i], err = p.Run(global, local); err != nil {
			return nil, err
		}
		if !(raw[i] > 0) {
			return nil, fmt.Errorf("the device timer reported %g s", raw[i])
		}
	}
	return raw, nil
}

// measureCase measures one case and appends its row, unless the table
// has it, the program is unusable, or memory or budget rule it out.
func (m *measurer) measureCase(c suite.Case) error {
	key := caseKey(c)
	if m.measured[key] {
		return nil
	}
	m.measured[key] = true
	m.done++
	if m.out.Has(key) {
		m.report.Resumed++
		m.addPoint(c, m.times[key])
		return nil
	}
	p, err := m.program(c)
	if err == errSkip {
		return nil
	}
	if _, err := m.fits(p, c); err != nil {
		m.skip(fmt.Sprintf("%s: %v", m.describe(c), err))
		return nil
	}
	if m.opts.Budget > 0 {
		est := m.predict(c) * float64(m.opts.Runs)
		if left := m.opts.Budget - time.Since(m.start); time.Duration(est*float64(time.Second)) > left {
			m.skip(fmt.Sprintf("%s: predicted %.3g s, beyond the budget (%s left)", m.describe(c), est, left.Round(time.Second)))
			return nil
		}
	}
	raw, err := m.timeCase(p, c, m.opts.Runs)
	if err != nil {
		m.report.Failures = append(m.report.Failures, fmt.Errorf("%s: %w", m.describe(c), err))
		m.progress("FAILED %s: %v", m.describe(c), err)
		return nil
	}
	global, local, _ := p.Grid(c.Params)
	row := datasets.Row{
		Device: m.info.Name, Backend: string(m.info.Backend),
		Kernel: c.Entry.Kernel, Class: c.Entry.Class, Role: c.Entry.Role, Variant: c.Variant.Name,
		Consts: c.Consts, Params: c.Params, LocalSize: local, GlobalSize: global,
		RawTimesS: raw, RunsKept: int32(m.opts.Runs - m.opts.Discard), RunsDiscarded: int32(m.opts.Discard),
		TimeS: datasets.MinKept(raw, m.opts.Discard), Timestamp: time.Now().UTC(), Version: datasets.Version,
	}
	if err := m.out.Append(row); err != nil {
		return &fatalError{err}
	}
	m.times[key] = row.TimeS
	m.addPoint(c, row.TimeS)
	m.report.Rows++
	for _, t := range raw {
		m.report.KernelSeconds += t
	}
	m.progress("%s: %s", m.describe(c), seconds(row.TimeS))
	return nil
}

func (m *measurer) describe(c suite.Case) string {
	return fmt.Sprintf("%s %q %s %s", c.Entry.Kernel, c.Variant.Name, groupString(c.Group), launch.ParamString(c.Params))
}

func groupString(g []int64) string {
	parts := make([]string, len(g))
	for i, v := range g {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, "x")
}

func (m *measurer) skip(why string) {
	m.report.Skipped = append(m.report.Skipped, why)
	m.progress("skipped %s", why)
}

func (m *measurer) addPoint(c suite.Case, secs float64) {
	k := seriesKey(c)
	m.series[k] = append(m.series[k], point{n: float64(int64(1) << (c.P + c.Entry.Sizes.Step*c.T)), secs: secs})
}

// predict extrapolates a case's run time from the smaller sizes of its
// series: t ~ N^e with e fitted to the last two sizes (2 with one size
// measured); 0 when nothing is known yet.
func (m *measurer) predict(c suite.Case) float64 {
	pts := m.series[seriesKey(c)]
	if len(pts) == 0 {
		return 0
	}
	last := pts[len(pts)-1]
	e := 2.0
	if len(pts) >= 2 {
		prev := pts[len(pts)-2]
		if prev.n != last.n && prev.secs > 0 {
			e = math.Max(0, math.Log(last.secs/prev.secs)/math.Log(last.n/prev.n))
		}
	}
	n := float64(int64(1) << (c.P + c.Entry.Sizes.Step*c.T))
	return last.secs * math.Pow(n/last.n, e)
}

// progress writes a line with the elapsed time and, for measured cases,
// an estimate of the time left.
func (m *measurer) progress(format string, args ...any) {
	if m.opts.Progress == nil {
		return
	}
	elapsed := time.Since(m.start).Round(time.Second)
	if m.total == 0 {
		fmt.Fprintf(m.opts.Progress, "measure [calibrating, %s elapsed]: %s\n", elapsed, fmt.Sprintf(format, args...))
		return
	}
	fmt.Fprintf(m.opts.Progress, "measure [%d/%d, %s elapsed, %s left]: %s\n", m.done, m.total, elapsed, m.left(), fmt.Sprintf(format, args...))
}

// left estimates the remaining time: the measured time per case so far
// times the cases left, capped by the budget.
func (m *measurer) left() string {
	if m.done == 0 || m.total == 0 {
		return "?"
	}
	elapsed := time.Since(m.start)
	est := time.Duration(float64(elapsed) / float64(m.done) * float64(m.total-m.done))
	if m.opts.Budget > 0 {
		est = min(est, m.opts.Budget-elapsed)
	}
	return "~" + max(est, 0).Round(time.Second).String()
}

func seconds(s float64) string {
	switch {
	case s < 1e-3:
		return fmt.Sprintf("%.1f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3f ms", s*1e3)
	default:
		return fmt.Sprintf("%.3f s", s)
	}
}
