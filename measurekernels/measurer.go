package measurekernels

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/uniperf/uniperf/counts"
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

	programs map[string]*program       // by programKey
	irs      map[string]*counts.Kernel // parsed kernels, by programKey
	failed   map[string]bool           // programs that failed to build or check
	times    map[datasets.Key]float64
	overhead float64

	// For progress and budget: cases planned, done so far, and the time
	// each measured series took, to extrapolate the next size.
	total, done int
	series      map[string][]point
	measured    map[datasets.Key]bool // cases measured in this run
	// exponent is, per kernel, the exponent e of t ~ N^e that
	// calibration found, for series with one size measured.
	exponent map[string]float64
	cal      calibration // the table's, added to as kernels are calibrated
	last     lastArrays
}

type point struct{ n, secs float64 }

// plan is an entry's cases at the base size chosen for the device.
type plan struct {
	entry *suite.Kernel
	p     int
	cases []suite.Case
}

func newMeasurer(dev gpu.Device, out *datasets.Writer, opts Options, cal calibration) *measurer {
	info := dev.Info()
	class := opts.SizeClass
	if class == "" {
		class = suite.SizeClass(info.MaxGroupSize)
	}
	m := &measurer{dev: dev, info: info, out: out, opts: opts, class: class, start: time.Now(),
		report: &Report{}, programs: map[string]*program{}, irs: map[string]*counts.Kernel{}, failed: map[string]bool{},
		times: map[datasets.Key]float64{}, series: map[string][]point{}, measured: map[datasets.Key]bool{},
		exponent: map[string]float64{}, cal: cal}
	for _, r := range out.Table().Rows {
		m.times[r.Key()] = r.TimeS
	}
	return m
}

func (m *measurer) close() {
	m.last.bufs.Close()
	for _, p := range m.programs {
		p.Close()
	}
}

// caseKey is the key of the row a case writes. A row records the
// work-group the kernel launches, which is smaller than the case's where
// the group is wider than the domain at small sizes; a key made from the
// case's group would not find those rows, and a resumed run would time
// them again and be refused the row as a duplicate.
func (m *measurer) caseKey(c suite.Case) datasets.Key {
	local := c.Group
	if ir, err := m.ir(c.Entry.Kernel, c.Consts); err == nil {
		if _, l, err := launch.Grid(ir, c.Params); err == nil {
			local = l
		}
	}
	return datasets.MakeKey(c.Entry.Kernel, c.Consts, c.Params, local)
}

// ir is the parsed library kernel at consts, parsed once for the rows'
// keys and the program alike. Its error is the parser's, which program
// reports.
func (m *measurer) ir(name string, consts map[string]int64) (*counts.Kernel, error) {
	key := programKey(name, consts)
	if k, ok := m.irs[key]; ok {
		return k, nil
	}
	k, err := parseLibrary(name, consts)
	if err != nil {
		return nil, err
	}
	m.irs[key] = k
	return k, nil
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
		ir, err := m.ir(c.Entry.Kernel, c.Consts)
		if err == nil {
			p, err = buildProgram(m.dev, m.opts.Generate, ir, c.Entry.Kernel, c.Consts)
		}
		var limit *localLimitError
		if errors.As(err, &limit) {
			// A device limit, not a fault, as a work-group too large is.
			m.failed[key] = true
			m.skip(limit.Error())
			return nil, errSkip
		}
		if err != nil {
			m.failed[key] = true
			m.report.Failures = append(m.report.Failures, err)
			m.progress("FAILED %s: %v", key, err)
			return nil, errSkip
		}
		m.programs[key] = p
	}
	if group := groupSize(c.Group); group > p.MaxGroup() {
		// A device limit, not a fault: the rest of the suite runs.
		m.failed[key] = true
		hint := ""
		if p.MaxGroup() >= 256 && c.Entry.GroupSizes == nil {
			hint = " (--size-class small keeps to 256)"
		}
		m.skip(fmt.Sprintf("%s: a work-group of %d work-items exceeds this kernel's limit of %d on %s; its cases are not measured%s",
			key, group, p.MaxGroup(), m.info.Name, hint))
		return nil, errSkip
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

// groupSize is the number of work-items in a work-group of extents g.
func groupSize(g []int64) int64 {
	n := int64(1)
	for _, v := range g {
		n *= v
	}
	return n
}

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
// empty kernel's time (the largest p that fits when none does), lowered
// to fit the entry's time budget (see budgetP).
func (m *measurer) calibrate(e *suite.Kernel) (*plan, error) {
	if pl, ok, err := m.recalled(e); ok {
		return pl, err
	}
	// The sizes of neighbouring p overlap; the p whose smallest sizes the
	// table holds is the one measured before.
	best, bestHits := -1, [2]int{}
	for p := 0; p <= slices.Max(e.Sizes.P); p++ {
		cases, err := m.opts.Suite.Cases(e, m.class, p)
		if err != nil {
			continue
		}
		var hits [2]int // of the smallest size, of all
		for _, c := range cases {
			if m.out.Has(m.caseKey(c)) {
				hits[0] += btoi(c.T == cases[0].T)
				hits[1]++
			}
		}
		if hits[0] > bestHits[0] || hits[0] == bestHits[0] && hits[1] > bestHits[1] {
			best, bestHits = p, hits
		}
	}
	if best >= 0 {
		return m.remember(e, best)
	}
	chosen := -1
	var chosenCase suite.Case
	var chosenProg *program
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
		chosen, chosenCase, chosenProg = p, c, prog
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
	if budget, keep := m.opts.Suite.Budget(e); budget > 0 && e.Class != "empty" && m.overhead > 0 {
		chosen = m.budgetP(e, chosen, chosenCase, chosenProg, budget, keep)
	}
	return m.remember(e, chosen)
}

// recalled plans e from the calibration of an earlier run, if it has one.
func (m *measurer) recalled(e *suite.Kernel) (*plan, bool, error) {
	p, ok := m.cal.P[e.Kernel]
	if !ok {
		return nil, false, nil
	}
	if x, ok := m.cal.Exponent[e.Kernel]; ok {
		m.exponent[e.Kernel] = x
	}
	pl, err := m.plan(e, p)
	return pl, true, err
}

// remember records p as e's base size in the table, and plans it.
func (m *measurer) remember(e *suite.Kernel, p int) (*plan, error) {
	pl, err := m.plan(e, p)
	if err != nil {
		return nil, err
	}
	m.cal.P[e.Kernel] = p
	if x, ok := m.exponent[e.Kernel]; ok {
		m.cal.Exponent[e.Kernel] = x
	}
	data, err := json.Marshal(m.cal)
	if err != nil {
		return nil, &fatalError{err}
	}
	if err := m.out.SetCalibration(string(data)); err != nil {
		return nil, &fatalError{err}
	}
	return pl, nil
}

// budgetP lowers p, below the suite's list if need be, until the first
// keep sizes of the entry are predicted to take at most budget seconds a
// run. The prediction extrapolates the time of the smallest size's most
// expensive extra values (the largest listed), t ~ N^e, with the exponent
// e measured between p and p−1; it is kept for the series that have one
// size measured. Lowering stops where the smallest size would fall below
// OverheadFactor times the launch overhead or launch fewer work-groups
// than the device has compute units, or where the variants' size
// expressions stop being exact.
func (m *measurer) budgetP(e *suite.Kernel, p int, c suite.Case, prog *program, budget float64, keep int) int {
	step, ts := e.Sizes.Step, e.Sizes.T
	// A size that cannot be probed (an inexact size expression, too
	// little memory for the largest extras) ends the lowering, and so does
	// one that launches fewer work-groups than the device has compute
	// units, which leaves some of them idle.
	probe := func(p int) (float64, bool) {
		if p+step*ts[0] < 0 {
			return 0, false
		}
		cases, err := m.opts.Suite.Cases(e, m.class, p)
		if err != nil {
			return 0, false
		}
		pc := probeCase(cases, c)
		if groups, err := workGroups(prog, pc); err != nil || groups < int64(m.info.ComputeUnits) {
			return 0, false
		}
		secs, err := m.quickTime(prog, pc)
		return secs, err == nil && secs > 0
	}
	tp, ok := probe(p)
	if !ok {
		return p
	}
	for {
		tq, ok := probe(p - 1)
		if !ok {
			return p
		}
		exp := math.Max(0, math.Log2(tp/tq))
		m.exponent[e.Kernel] = exp
		est := tp * math.Pow(2, exp*float64(step*(ts[keep-1]-ts[0])))
		if est <= budget || tq < m.opts.OverheadFactor*m.overhead {
			if est > budget {
				m.progress("%s: p=%d is the smallest size above the overhead; its size %d is predicted at %s a run, beyond the %s budget",
					e.Kernel, p, keep, seconds(est), seconds(budget))
			}
			return p
		}
		p, tp = p-1, tq
	}
}

// workGroups is the number of work-groups a case launches.
func workGroups(prog *program, c suite.Case) (int64, error) {
	global, local, err := prog.Grid(c.Params)
	if err != nil {
		return 0, err
	}
	groups := int64(1)
	for ax := range global {
		groups *= global[ax] / local[ax]
	}
	return groups, nil
}

// probeCase is the case among the smallest sizes of cases that runs the
// same program as c (same variant and work-group size) with the last,
// largest, values of the extra variables.
func probeCase(cases []suite.Case, c suite.Case) suite.Case {
	var out suite.Case
	for _, x := range cases {
		if x.T == cases[0].T && x.Variant == c.Variant && slices.Equal(x.Group, c.Group) {
			out = x
		}
	}
	return out
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
	raw, _, err := m.timeCase(p, c, 4)
	if err != nil {
		return 0, err
	}
	return datasets.MinKept(raw, 1), nil
}

// grid is a launch's global and work-group sizes.
type grid struct{ global, local []int64 }

// timeCase times runs launches of the case on its arrays (see arrays),
// and returns the grid it launched: finding a grid searches the kernel's
// domain, a sixth of a GPU suite's wall time when it was done twice a
// case.
func (m *measurer) timeCase(p *program, c suite.Case, runs int) ([]float64, grid, error) {
	sizes, err := m.fits(p, c)
	if err != nil {
		return nil, grid{}, err
	}
	bufs, err := m.arrays(p, sizes, c.Params)
	if err != nil {
		return nil, grid{}, err
	}
	global, local, err := p.Grid(c.Params)
	if err != nil {
		return nil, grid{}, err
	}
	if err := p.Bind(bufs, c.Params); err != nil {
		return nil, grid{}, err
	}
	raw, err := TimeRuns(p.Kernel, global, local, runs)
	return raw, grid{global, local}, err
}

// arrays returns the device arrays of a case, allocated and filled with
// random inputs, or those of the case timed before when it ran the same
// kernel at the same sizes. The suite times each size at three work-group
// sizes in a row, and drawing and copying the inputs of the largest
// stride-1 cases (gigabytes on a GPU) took longer than timing them. The
// next case then starts from what the last one's runs left in its
// outputs, as each run of a case does from the run before. The arrays
// stay allocated until a case needs others or the run ends.
func (m *measurer) arrays(p *program, sizes, params map[string]int64) (launch.Buffers, error) {
	key := programKey(p.name, sizes)
	if slices.ContainsFunc(p.IR.Inames, func(in *counts.Iname) bool { return in.Data != nil }) {
		// The bounds of a data-bounded loop are drawn up to its max,
		// which the parameters set.
		key += programKey(" at", params)
	}
	if m.last.bufs != nil && m.last.key == key {
		return m.last.bufs, nil
	}
	m.last.bufs.Close()
	m.last = lastArrays{}
	bufs, err := Inputs(p.Kernel, sizes, params)
	if err != nil {
		return nil, err
	}
	m.last = lastArrays{key, bufs}
	return bufs, nil
}

// lastArrays are the device arrays of the last case timed, by kernel and
// array sizes.
type lastArrays struct {
	key  string
	bufs launch.Buffers
}

// measureCase measures one case and appends its row, unless the table
// has it, the program is unusable, or memory or budget rule it out.
func (m *measurer) measureCase(c suite.Case) error {
	key := m.caseKey(c)
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
	if budget, keep := m.opts.Suite.Budget(c.Entry); budget > 0 && slices.Index(c.Entry.Sizes.T, c.T) >= keep {
		if est := m.predict(c); est > budget {
			m.skip(fmt.Sprintf("%s: predicted %s a run, beyond the time budget of %s", m.describe(c), seconds(est), seconds(budget)))
			return nil
		}
	}
	if m.opts.Budget > 0 {
		est := m.predict(c) * float64(m.opts.Runs)
		if left := m.opts.Budget - time.Since(m.start); time.Duration(est*float64(time.Second)) > left {
			m.skip(fmt.Sprintf("%s: predicted %.3g s, beyond the budget (%s left)", m.describe(c), est, left.Round(time.Second)))
			return nil
		}
	}
	raw, g, err := m.timeCase(p, c, m.opts.Runs)
	if err != nil {
		m.report.Failures = append(m.report.Failures, fmt.Errorf("%s: %w", m.describe(c), err))
		m.progress("FAILED %s: %v", m.describe(c), err)
		return nil
	}
	row := datasets.Row{
		Device: m.info.Name, Backend: string(m.info.Backend),
		Kernel: c.Entry.Kernel, Class: c.Entry.Class, Role: c.Entry.Role, Variant: c.Variant.Name,
		Consts: c.Consts, Params: c.Params, LocalSize: g.local, GlobalSize: g.global,
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
	return fmt.Sprintf("%s %q %s %s", c.Entry.Kernel, c.Variant.Name, launch.SizeString(c.Group), launch.ParamString(c.Params))
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
// series: t ~ N^e with e fitted to the two largest sizes below the case's
// (with one, the kernel's exponent from calibration, or 2); 0 when nothing
// is known yet.
func (m *measurer) predict(c suite.Case) float64 {
	n := float64(int64(1) << (c.P + c.Entry.Sizes.Step*c.T))
	var below []point
	for _, pt := range m.series[seriesKey(c)] {
		if pt.n < n {
			below = append(below, pt)
		}
	}
	if len(below) == 0 {
		return 0
	}
	slices.SortStableFunc(below, func(a, b point) int { return cmp.Compare(a.n, b.n) })
	last := below[len(below)-1]
	e, ok := m.exponent[c.Entry.Kernel]
	if !ok {
		e = 2
	}
	if len(below) >= 2 {
		prev := below[len(below)-2]
		if prev.n != last.n && prev.secs > 0 {
			e = math.Max(0, math.Log(last.secs/prev.secs)/math.Log(last.n/prev.n))
		}
	}
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

// btoi counts or orders by a condition: 1 where it holds.
func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
