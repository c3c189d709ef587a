package hongkim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	seed "github.com/uniperf/uniperf/fit/hongkim"
	"github.com/uniperf/uniperf/fit/models"
	"gonum.org/v1/gonum/optimize"
)

// Fit reports how Calibrate fitted the memory parameters.
//
// The memory parameters describe DRAM traffic, and only that: a row
// without global accesses does not depend on them (its time is the
// instructions at Issue_cycles and their prices), and a row whose DRAM
// bytes (Load_bytes_per_warp per memory instruction: every global access
// under the paper's traffic, the DRAM share under the hierarchy's) moved
// faster than the device's bandwidth was served by caches that the
// traffic does not see. Both are left out, and so are the rows of kernels
// with gathers, scatters or atomics (analytic.PerThread.Addressed): the
// model prices each such access as one transaction per work-item, where
// what it costs hangs on the data (a gather's addresses, the contention of
// an atomic), so that no memory parameter describes their times. The rows
// of kernels with global accesses of 1- or 2-byte elements (b8, b16, f16)
// are left out too: the model issues a warp's access as one instruction
// whatever the element's width, where a CPU packs more narrow work-items
// into one (on the PoCL paper table a u8 copy runs in less than its
// instructions' issue time), and f16 conversions are instructions the
// counts do not see. Leaving them out took leave-one-class-out error on
// that table's 1547 measurement rows from 0.577 to 0.543 (leaving out u8
// alone 0.557, u8 and u16 0.567, f16 alone 0.565). Two rules then compete
// for the rows the fit sees:
// "bandwidth", every other row, and "dram", only those that also moved
// more bytes than the last-level cache holds (a smaller working set may
// have stayed in it). The rule with the lower leave-one-class-out error
// on the calibration rows wins (RuleCV): each kernel class is predicted,
// all its rows, by the parameters fitted without it.
//
// The fit minimises the squared relative error Σ (predicted/measured − 1)²
// over the rows, as seed 001 fits its weights, in the logarithms of the
// three parameters within their physical bounds ([BoundsOf]). The model
// is piecewise in its parameters (minima, case selection), so a
// gradient-free method is used: a coarse grid of powers of ten, then
// Nelder–Mead (gonum/optimize) from the grid's best point and from the
// start, keeping the better result.
type Fit struct {
	Rows int `json:"rows"`
	// Rule is the rows rule the fit used, "bandwidth" or "dram", and
	// RuleCV each rule's leave-one-class-out error (none in a
	// cross-validation fold, which keeps the rule of the fit on every
	// row: Model.CalibrateFold).
	Rule   string      `json:"rule"`
	RuleCV []RuleScore `json:"rule_cv,omitempty"`
	// Skipped lists rows the model cannot price (no instructions).
	Skipped []string `json:"skipped,omitempty"`
	// Compute, Addressed, Narrow and Cached count the rows the memory
	// parameters cannot describe, left out: without global accesses, with
	// accesses at data-chosen addresses, with accesses of 1- or 2-byte
	// elements, and moved faster than the bandwidth (or, under the "dram"
	// rule, within the last-level cache).
	Compute   int `json:"compute_rows,omitempty"`
	Addressed int `json:"addressed_rows,omitempty"`
	Narrow    int `json:"narrow_rows,omitempty"`
	Cached    int `json:"cached_rows,omitempty"`
	// Start is where the search starts: the device file's values, or
	// Table 6's FX5600 values (420, 4, 10) where the file has none, within
	// the bounds.
	Start Memory `json:"start"`
	// Held lists parameters that no row exercises (no coalesced or no
	// uncoalesced access), held at their start.
	Held []string `json:"held,omitempty"`
	// Bounds are the physical ranges the parameters are kept in
	// ([BoundsOf]); AtBound lists the parameters the fit drove to one.
	Bounds  Bounds   `json:"bounds"`
	AtBound []string `json:"at_bound,omitempty"`
	// RMSRelativeError is √(mean (predicted/measured − 1)²) at the fit,
	// GeoMeanRelativeError the geometric mean of |predicted/measured − 1|.
	RMSRelativeError     float64 `json:"rms_relative_error"`
	GeoMeanRelativeError float64 `json:"geomean_relative_error"`
}

// RuleScore is a rows rule's leave-one-class-out error: the geometric
// mean of |predicted/measured − 1| over the rows of every class predicted
// without it.
type RuleScore struct {
	Rule  string  `json:"rule"`
	Error float64 `json:"error"`
	Rows  int     `json:"rows"`
}

// rowRules are the rules for the rows the memory parameters are fitted
// on, the first winning ties.
var rowRules = []string{"bandwidth", "dram"}

// hongKimStart is Table 6's FX5600 column, where the search starts when
// the device file has no value.
var hongKimStart = Memory{MemLD: 420, DepartureDelCoal: 4, DepartureDelUncoal: 10}

// hongKimSample is one row's program parameters, measured time and kernel
// class, and whether each rule fits on it.
type hongKimSample struct {
	k        seed.Kernel
	measured float64
	class    string
	fits     map[string]bool
	// addressed marks a row with accesses at data-chosen addresses, and
	// narrow one with accesses of 1- or 2-byte elements, which no rule
	// fits on.
	addressed, narrow bool
}

// memParam is one of the three memory parameters, by name and place.
type memParam struct {
	name string
	at   func(*Memory) *float64
}

var memParams = []memParam{
	{"mem_ld", func(m *Memory) *float64 { return &m.MemLD }},
	{"departure_del_coal", func(m *Memory) *float64 { return &m.DepartureDelCoal }},
	{"departure_del_uncoal", func(m *Memory) *float64 { return &m.DepartureDelUncoal }},
}

// Evaluations per Nelder–Mead run: a search from scratch, and a refit
// from a nearby minimum (a fold's, which leaves one class out of a fit).
const (
	searchEvals = 4000
	refitEvals  = 400
)

// refit is where a fold's calibration starts (Model.CalibrateFold): the
// rows rule and the parameters of the fit on every row.
type refit struct {
	rule string
	mem  Memory
}

// calibrateHongKim fits the memory parameters to rows: from scratch,
// choosing the rows rule by cross-validation, or, with from, under from's
// rule and refitted from its parameters.
func calibrateHongKim(env *models.Env, d *gpus.Device, fixed gpus.HongKim, l *launches, rows []models.Row, from *refit) (Memory, *Fit, error) {
	c := &Fit{Start: hongKimStart, Bounds: BoundsOf(d, fixed.IssueCycles)}
	file := Memory{fixed.MemLD, fixed.DepartureDelCoal, fixed.DepartureDelUncoal}
	for _, p := range memParams {
		if v := *p.at(&file); v > 0 {
			*p.at(&c.Start) = v
		}
	}
	c.Start = c.Bounds.clamp(c.Start)
	all, skipped, err := samplesOf(env, d, fixed, l, rows)
	if err != nil {
		return Memory{}, nil, err
	}
	c.Skipped = skipped
	rules, start, evals := rowRules, c.Start, searchEvals
	if from != nil {
		rules, start, evals = []string{from.rule}, c.Bounds.clamp(from.mem), refitEvals
	}
	fitted := map[string]Memory{}
	for _, rule := range rules {
		sel := selectRule(all, rule, "")
		if len(sel) == 0 {
			continue
		}
		fitted[rule] = fitRows(d, fixed, sel, start, c.Bounds, evals)
	}
	if len(fitted) == 0 && from != nil {
		return calibrateHongKim(env, d, fixed, l, rows, nil)
	}
	if len(fitted) == 0 {
		return Memory{}, nil, fmt.Errorf("hongkim: no row to calibrate on: of %d rows, %d have no instructions and the others no global accesses or only ones served faster than the device's bandwidth (caches); calibrate on rows of kernels that stream global memory", len(rows), len(c.Skipped))
	}
	if from != nil {
		c.Rule = from.rule
	} else {
		c.Rule, c.RuleCV = chooseRule(d, fixed, all, fitted, c.Bounds)
	}
	samples := selectRule(all, c.Rule, "")
	c.Rows = len(samples)
	for _, s := range all {
		switch {
		case s.fits[c.Rule]:
		case s.addressed:
			c.Addressed++
		case s.narrow:
			c.Narrow++
		case s.k.CoalMemInsts+s.k.UncoalMemInsts == 0:
			c.Compute++
		default:
			c.Cached++
		}
	}
	mem := fitted[c.Rule]
	active, held := activeParams(samples)
	c.Held = held
	c.AtBound = c.Bounds.at(mem, active)
	errs := make([]float64, len(samples))
	var sq float64
	for i, s := range samples {
		r, err := seed.Predict(hongKimMachine(d, fixed, mem), s.k)
		if err != nil {
			return Memory{}, nil, err
		}
		rel := r.Seconds/s.measured - 1
		sq += rel * rel
		errs[i] = math.Abs(rel)
	}
	c.RMSRelativeError = math.Sqrt(sq / float64(len(samples)))
	c.GeoMeanRelativeError = fit.GeoMean(errs)
	return mem, c, nil
}

// samplesOf derives the program parameters of each row; skipped lists the
// rows without instructions, which the model cannot price.
func samplesOf(env *models.Env, d *gpus.Device, fixed gpus.HongKim, l *launches, rows []models.Row) (all []hongKimSample, skipped []string, err error) {
	for _, r := range rows {
		la, err := l.launch(env, d, fixed, models.CaseOf(r))
		k := la.k
		if errors.Is(err, models.ErrNoWork) {
			skipped = append(skipped, fmt.Sprintf("%s: %v", models.RowName(r), err))
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", models.RowName(r), err)
		}
		if !(r.TimeS > 0) {
			return nil, nil, fmt.Errorf("%s: measured time must be positive, have %g s", models.RowName(r), r.TimeS)
		}
		s := hongKimSample{k: k, measured: r.TimeS, class: r.Class, addressed: la.addressed, narrow: la.narrow, fits: map[string]bool{}}
		if !la.addressed && !la.narrow {
			s.fits = ruleFits(d, k, r.TimeS)
		}
		all = append(all, s)
	}
	return all, skipped, nil
}

// ruleFits says which rules fit on a row of kernel k measured in seconds.
// The bytes moved are Load_bytes_per_warp per warp access.
func ruleFits(d *gpus.Device, k seed.Kernel, seconds float64) map[string]bool {
	mem := k.CoalMemInsts + k.UncoalMemInsts
	warps := math.Ceil(float64(k.ThreadsPerBlock)/float64(d.Limits.WarpSize)) * float64(k.Blocks)
	bytes := mem * k.LoadBytesPerWarp * warps
	dram := mem > 0 && bytes/seconds <= d.MemBandwidth
	var cache int64
	if d.Caches != nil {
		cache = max(d.Caches.L2, d.Caches.L3)
	}
	return map[string]bool{"bandwidth": dram, "dram": dram && bytes > float64(cache)}
}

// selectRule returns the samples rule fits on, leaving out class skip.
func selectRule(all []hongKimSample, rule, skip string) []hongKimSample {
	var out []hongKimSample
	for _, s := range all {
		if s.fits[rule] && (skip == "" || s.class != skip) {
			out = append(out, s)
		}
	}
	return out
}

// activeParams returns the parameters the samples exercise, and the
// names of those they do not.
func activeParams(samples []hongKimSample) (active []memParam, held []string) {
	var coal, uncoal bool
	for _, s := range samples {
		coal = coal || s.k.CoalMemInsts > 0
		uncoal = uncoal || s.k.UncoalMemInsts > 0
	}
	used := map[string]bool{"mem_ld": coal || uncoal, "departure_del_coal": coal, "departure_del_uncoal": uncoal}
	for _, p := range memParams {
		if used[p.name] {
			active = append(active, p)
		} else {
			held = append(held, p.name)
		}
	}
	return active, held
}

// fitRows fits the memory parameters to samples from start, with at most
// evals evaluations in each Nelder–Mead run.
func fitRows(d *gpus.Device, fixed gpus.HongKim, samples []hongKimSample, start Memory, b Bounds, evals int) Memory {
	active, _ := activeParams(samples)
	if len(active) == 0 {
		return start
	}
	return fitMemory(hongKimObjective(d, fixed, samples, start, b, active), start, b, active, evals)
}

// chooseRule cross-validates the rules by leaving each kernel class out in
// turn: the parameters are refitted without the class's rows, starting
// from the rule's fit on every row, and predict every row of the class.
// The rule with the lower geometric-mean error wins; with one class there
// is nothing to validate on, and the first rule fitted stands.
func chooseRule(d *gpus.Device, fixed gpus.HongKim, all []hongKimSample, fitted map[string]Memory, b Bounds) (string, []RuleScore) {
	var classes []string
	for _, s := range all {
		if !slices.Contains(classes, s.class) {
			classes = append(classes, s.class)
		}
	}
	best, bestErr := "", math.Inf(1)
	var scores []RuleScore
	for _, rule := range rowRules {
		full, ok := fitted[rule]
		if !ok {
			continue
		}
		if best == "" {
			best = rule
		}
		if len(classes) < 2 {
			continue
		}
		var errs []float64
		for _, class := range classes {
			sel := selectRule(all, rule, class)
			if len(sel) == 0 {
				continue
			}
			m := hongKimMachine(d, fixed, fitRows(d, fixed, sel, full, b, refitEvals))
			for _, s := range all {
				if s.class != class {
					continue
				}
				if r, err := seed.Predict(m, s.k); err == nil {
					errs = append(errs, math.Abs(r.Seconds/s.measured-1))
				}
			}
		}
		if len(errs) == 0 {
			continue
		}
		s := RuleScore{Rule: rule, Error: fit.GeoMean(errs), Rows: len(errs)}
		scores = append(scores, s)
		if s.Error < bestErr {
			best, bestErr = rule, s.Error
		}
	}
	return best, scores
}

// hongKimObjective returns the sum of squared relative errors as a
// function of the logarithms of the active parameters.
func hongKimObjective(d *gpus.Device, fixed gpus.HongKim, samples []hongKimSample, start Memory, b Bounds, active []memParam) func([]float64) float64 {
	return func(x []float64) float64 {
		m := hongKimMachine(d, fixed, withLogs(start, b, active, x))
		var sum float64
		for _, s := range samples {
			r, err := seed.Predict(m, s.k)
			if err != nil {
				return math.Inf(1)
			}
			rel := r.Seconds/s.measured - 1
			sum += rel * rel
		}
		return sum
	}
}

// withLogs sets the active parameters of mem to the exponentials of x,
// clamped to the bounds.
func withLogs(mem Memory, b Bounds, active []memParam, x []float64) Memory {
	for i, p := range active {
		*p.at(&mem) = math.Exp(x[i])
	}
	return b.clamp(mem)
}

// gridPoints is the points per parameter of fitMemory's grid, and
// gridStarts how many of its best points Nelder–Mead starts from.
const (
	gridPoints = 9
	gridStarts = 4
)

// fitMemory minimises f: from the start alone when evals is small (a
// refit near a known minimum), otherwise a grid first, gridPoints per
// parameter evenly spaced in the logarithm across its bounds (a departure
// delay's up to the largest Mem_LD), then Nelder–Mead from the grid's best
// points and from the start.
func fitMemory(f func([]float64) float64, start Memory, b Bounds, active []memParam, evals int) Memory {
	n := len(active)
	x0 := make([]float64, n)
	for i, p := range active {
		x0[i] = math.Log(*p.at(&start))
	}
	best, bestF := append([]float64(nil), x0...), f(x0)
	froms := [][]float64{x0}
	if evals >= 1000 {
		type point struct {
			x []float64
			f float64
		}
		var grid []point
		x := make([]float64, n)
		var walk func(i int)
		walk = func(i int) {
			if i == n {
				grid = append(grid, point{append([]float64(nil), x...), f(x)})
				return
			}
			lo, hi := b.DepartureMin, b.MemLDMax
			if active[i].name == "mem_ld" {
				lo = b.MemLDMin
			}
			for j := range gridPoints {
				x[i] = math.Log(lo) + float64(j)/(gridPoints-1)*math.Log(hi/lo)
				walk(i + 1)
			}
		}
		walk(0)
		// The model's minima and case switches leave local minima: the
		// search starts from the grid's best few points.
		slices.SortStableFunc(grid, func(a, b point) int { return cmp.Compare(a.f, b.f) })
		for _, p := range grid[:min(gridStarts, len(grid))] {
			froms = append(froms, p.x)
		}
	}
	// A run ends where its simplex collapsed, which a clamp's flat region
	// can cause away from the minimum: it restarts from its best point
	// once, with a fresh simplex.
	for _, from := range froms {
		for range 2 {
			settings := &optimize.Settings{FuncEvaluations: evals, Converger: &optimize.FunctionConverge{Relative: 1e-10, Iterations: 200}}
			// An error here is a run that stopped early (an evaluation
			// limit); its best point is still a candidate.
			res, _ := optimize.Minimize(optimize.Problem{Func: f}, from, settings, &optimize.NelderMead{})
			if res == nil {
				break
			}
			if res.F < bestF {
				best, bestF = res.X, res.F
			}
			from = res.X
		}
	}
	return withLogs(start, b, active, best)
}

// Bounds are the ranges that calibration keeps the memory parameters in,
// in SM cycles, from the device file (see [BoundsOf]).
type Bounds struct {
	MemLDMin     float64 `json:"mem_ld_min"`
	MemLDMax     float64 `json:"mem_ld_max"`
	DepartureMin float64 `json:"departure_min"`
}

// BoundsOf derives the physical ranges of the memory parameters from a
// device file's bandwidth, clock, SMs, warp width and warp limit, and its
// issue cycles:
//
//   - Mem_LD is at least the time the SM's share of the bandwidth takes to
//     move one coalesced warp access of 4-byte elements, W·4 bytes ×
//     #SMs × Freq / Mem_Bandwidth: below it, MWP_peak_BW (6) of that access
//     would be under one, one warp per SM already beyond the bandwidth.
//     It is at most N_max times that, N_max the warps an SM holds: above
//     it, MWP_peak_BW would exceed the warps there are, and no occupancy
//     could reach the bandwidth with the one request per warp in flight
//     that the model assumes (Little's law: bandwidth × latency = bytes in
//     flight). So 1 ≤ MWP_peak_BW ≤ N_max for the coalesced access. H100
//     SXM5: 128 × 132 × 1.98 GHz / 3.35 TB/s = 9.99 cycles, × 64 = 639;
//     H200 (4.8 TB/s): 6.97 and 446.
//   - The departure delays are at least Issue_cycles (a warp's requests
//     leave no sooner than its instruction issues) and at most Mem_LD
//     (MWP_Without_BW (16) of at least one warp).
//
// Table 6's measured values fall inside these ranges on their own files
// (TestBoundsHoldTable6).
func BoundsOf(d *gpus.Device, issueCycles float64) Bounds {
	share := float64(d.Limits.WarpSize) * 4 * float64(d.SMs) * d.ClockHz / d.MemBandwidth
	return Bounds{MemLDMin: share, MemLDMax: float64(d.Limits.MaxWarpsPerSM) * share, DepartureMin: issueCycles}
}

// clamp keeps Mem_LD in [MemLDMin, MemLDMax] and the departure delays in
// [DepartureMin, Mem_LD].
func (b Bounds) clamp(m Memory) Memory {
	m.MemLD = math.Min(math.Max(m.MemLD, b.MemLDMin), b.MemLDMax)
	dep := func(v float64) float64 { return math.Min(math.Max(v, b.DepartureMin), m.MemLD) }
	m.DepartureDelCoal, m.DepartureDelUncoal = dep(m.DepartureDelCoal), dep(m.DepartureDelUncoal)
	return m
}

// at names the active parameters of m within 1% of a bound.
func (b Bounds) at(m Memory, active []memParam) []string {
	near := func(v, bound float64) bool { return math.Abs(v-bound) <= 0.01*bound }
	var out []string
	for _, p := range active {
		v := *p.at(&m)
		lo, hi := b.DepartureMin, m.MemLD
		if p.name == "mem_ld" {
			lo, hi = b.MemLDMin, b.MemLDMax
		}
		if near(v, lo) || near(v, hi) {
			out = append(out, p.name)
		}
	}
	return out
}
