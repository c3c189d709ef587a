package cycles

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit"
	seed "github.com/uniperf/uniperf/fit/cycles"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
)

func init() {
	models.Register("cycles", func() models.Model { return &Model{} })
}

// Model is the cycle-weighted model of seed 004 (package fit/cycles) on
// uniperf's counts:
//
//	E.T = N_threads · (computation + memAccessGM + memAccessSM) / (F · O · adjustingWeight).
//
// Calibrate sets one adjusting weight per kernel (a kernel and its const
// binding) from one measured size of it, as the seed does. A kernel
// without measured rows is predicted with a fallback weight (uniperf's
// extension, so that the model can predict kernels it has not seen, like
// the others): the median of the calibrated kernels' adjusting weights,
// each taken at its smallest or its largest measured size, whichever
// predicts the calibration rows better when each kernel class is left
// out in turn (FallbackCV; package documentation for the figures).
// Kernels with gathers, scatters or atomics, and those with global
// accesses of 1- or 2-byte elements, keep their own weights but enter no
// fallback (Adjustment.Addressed, Adjustment.Narrow).
type Model struct {
	// CalibrateAt picks the measured size of each kernel that calibrates
	// its adjusting weight: "smallest" (the default, the seed's cheap
	// run) or "largest" measured time.
	CalibrateAt string `json:"calibrate_at,omitempty"`
	// RegsPerThread is the registers a work-item uses, for occupancy;
	// zero leaves registers out.
	RegsPerThread int    `json:"regs_per_thread,omitempty"`
	Device        string `json:"device"`
	// Weights are the cycle weights used: the device file's, falling back
	// to the seed's defaults; WeightsFrom says which. Under
	// TrafficHierarchy the l1 weight prices the accesses caches serve
	// (trafficWeights).
	Weights     map[string]float64 `json:"weights"`
	WeightsFrom string             `json:"weights_from"`
	// Traffic is what a global access stands for in the estimates:
	// TrafficHierarchy where the device file gives caches, else
	// TrafficPaper; empty (a calibration written before it) reads as
	// TrafficPaper.
	Traffic string `json:"traffic,omitempty"`
	// Kernels are the calibrated kernels, sorted by key.
	Kernels []Adjustment `json:"kernels"`
	// Fallback is the median of the kernels' adjusting weights, each
	// taken at the size FallbackAt names, over the kernels without
	// gathers, scatters or atomics.
	Fallback float64 `json:"fallback"`
	// FallbackAt is the size ("smallest" or "largest" measured time) at
	// which each kernel's adjusting weight enters the fallback, the one of
	// FallbackCV with the lower error.
	FallbackAt string `json:"fallback_at"`
	// FallbackCV is each candidate's leave-one-class-out error on the
	// calibration rows: every row of a kernel class predicted with the
	// fallback of the other classes' kernels, as a kernel never run is.
	FallbackCV []FallbackScore `json:"fallback_cv"`
	// Skipped lists kernels that could not be calibrated, with the reason.
	Skipped []string `json:"skipped,omitempty"`

	shares *dramShares
}

// Adjustment is one kernel's adjusting weight and the size it was
// calibrated on.
type Adjustment struct {
	Key             string           `json:"key"` // kernel name and consts: "matmul_tiled LX=16 LY=16"
	Params          map[string]int64 `json:"params"`
	MeasuredS       float64          `json:"measured_s"`
	EstimatedS      float64          `json:"estimated_s"` // with adjustingWeight = 1
	AdjustingWeight float64          `json:"adjusting_weight"`
	// OneRun marks a weight from one measured run given to OneRun rather
	// than from the calibration rows.
	OneRun bool `json:"one_run,omitempty"`
	// Addressed marks a kernel with global accesses at data-chosen
	// addresses (gathers, scatters, atomics), which the seed prices as
	// any access where their cost hangs on the data (a gather's
	// addresses, an atomic's contention): its weight predicts its own
	// sizes and enters no fallback.
	Addressed bool `json:"data_addressed,omitempty"`
	// Narrow marks a kernel with global accesses of 1- or 2-byte elements
	// (analytic.PerThread.Narrow: a CPU packs more of them into one
	// instruction, and f16 converts in instructions the counts do not
	// see): its weight predicts its own sizes and enters no fallback.
	Narrow bool `json:"narrow,omitempty"`
}

// FallbackScore is one fallback candidate's cross-validation error: the
// geometric-mean relative error over the rows.
type FallbackScore struct {
	At    string  `json:"at"`
	Error float64 `json:"error"`
	Rows  int     `json:"rows"`
}

// fallbackCandidates are the sizes a kernel's adjusting weight may enter
// the fallback at, the first winning ties.
var fallbackCandidates = []string{"smallest", "largest"}

// kernelKey names a kernel with its const binding.
func kernelKey(kernel string, consts map[string]int64) string {
	var b strings.Builder
	b.WriteString(kernel)
	for _, k := range slices.Sorted(maps.Keys(consts)) {
		fmt.Fprintf(&b, " %s=%d", k, consts[k])
	}
	return b.String()
}

// Name implements Model.
func (m *Model) Name() string { return "cycles" }

// Calibrate implements Model: one adjusting weight per kernel of the rows,
// from the row CalibrateAt picks.
func (m *Model) Calibrate(env *models.Env, rows []models.Row) error {
	return m.calibrate(env, rows, newDRAMShares())
}

// CalibrateFold implements models.FoldCalibrator, for uniperf compare
// --cv: a fold reads the DRAM shares that full, calibrated on every
// measurement row of the device, found (and adds its own), and chooses
// its fallback's size again on its rows.
func (m *Model) CalibrateFold(env *models.Env, rows []models.Row, full models.Model) error {
	f, ok := full.(*Model)
	if !ok || f.shares == nil || env.Device == nil || f.Device != env.Device.Name {
		return m.Calibrate(env, rows)
	}
	return m.calibrate(env, rows, f.shares)
}

// calibrate is Calibrate, keeping the launches' DRAM shares in shares.
func (m *Model) calibrate(env *models.Env, rows []models.Row, shares *dramShares) error {
	if env.Device == nil {
		return fmt.Errorf("the cycles model needs a device parameter file (package fit/gpus)")
	}
	pick, err := m.picker()
	if err != nil {
		return err
	}
	m.Device = env.Device.Name
	m.Traffic, m.shares = trafficOf(env.Device), shares
	base, from := env.Device.CycleWeights(seed.DefaultWeights())
	m.Weights, m.WeightsFrom = trafficWeights(env.Device, base, m.Traffic), from
	m.Kernels, m.Skipped, m.Fallback = nil, nil, 0
	groups := map[string][]models.Row{}
	for _, r := range rows {
		key := kernelKey(r.Kernel, r.Consts)
		groups[key] = append(groups[key], r)
	}
	var cal []calibrated
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		c, skip, err := m.calibrateKernel(env, key, groups[key], pick)
		if err != nil {
			return err
		}
		if skip != "" {
			m.Skipped = append(m.Skipped, skip)
			continue
		}
		cal = append(cal, c)
		m.Kernels = append(m.Kernels, c.Adjustment)
	}
	if len(cal) == 0 {
		return fmt.Errorf("cycles: no kernel to calibrate on (%d rows): %s", len(rows), strings.Join(m.Skipped, "; "))
	}
	m.FallbackAt, m.FallbackCV = chooseFallback(cal)
	m.Fallback = fallbackOf(cal, m.FallbackAt, "")
	if math.IsNaN(m.Fallback) {
		return fmt.Errorf("cycles: no kernel to take the fallback from: each of the %d calibrated has gathers, scatters, atomics or 1- or 2-byte elements, which enter none; give rows of kernels without them too", len(cal))
	}
	return nil
}

// calibrated is a kernel's calibration and, for the fallback's
// cross-validation, its class and every row's estimated / measured ratio
// in increasing measured time.
type calibrated struct {
	Adjustment
	class  string
	ratios []float64
}

// calibrateKernel calibrates one kernel's rows, or says why it is skipped.
func (m *Model) calibrateKernel(env *models.Env, key string, rows []models.Row, pick func([]models.Row) models.Row) (calibrated, string, error) {
	r := pick(rows)
	e, err := m.estimate(env, models.CaseOf(r))
	if errors.Is(err, models.ErrNoWork) {
		return calibrated{}, fmt.Sprintf("%s: %v", key, err), nil
	}
	if err != nil {
		return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
	}
	in, err := env.Inputs(models.CaseOf(r))
	if err != nil {
		return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
	}
	if ops := integerOps(in); ops != "" {
		// The seed's computation term has no integer operations: their
		// time would enter the adjusting weight, and through the
		// fallback every kernel's prediction (the arith_int class
		// moved PoCL's test kernels from 1.05 to 1.84).
		return calibrated{}, fmt.Sprintf("%s: it counts %s, which the model does not price", key, ops), nil
	}
	p, err := analytic.PerThreadOf(in)
	if err != nil {
		return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
	}
	aw, err := e.AdjustingWeight(r.TimeS)
	if err != nil {
		return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
	}
	c := calibrated{Adjustment: Adjustment{Key: key, Params: r.Params, MeasuredS: r.TimeS, EstimatedS: e.Unadjusted, AdjustingWeight: aw, Addressed: p.Addressed > 0, Narrow: p.Narrow > 0}, class: r.Class}
	sorted := slices.SortedStableFunc(slices.Values(rows), func(a, b models.Row) int { return cmp.Compare(a.TimeS, b.TimeS) })
	for _, r := range sorted {
		e, err := m.estimate(env, models.CaseOf(r))
		if err != nil {
			return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
		}
		if !(r.TimeS > 0) {
			return calibrated{}, "", fmt.Errorf("%s: measured time must be positive, have %g s", models.RowName(r), r.TimeS)
		}
		c.ratios = append(c.ratios, e.Unadjusted/r.TimeS)
	}
	return c, "", nil
}

// fallbackOf is the median of the kernels' adjusting weights taken at
// size at, leaving out the kernels with gathers, scatters or atomics or
// with 1- or 2-byte elements and those of class skip; NaN where none is left. The median of an even
// number is the geometric mean of the middle two.
func fallbackOf(cal []calibrated, at, skip string) float64 {
	var logs []float64
	for _, c := range cal {
		if c.Addressed || c.Narrow || (skip != "" && c.class == skip) {
			continue
		}
		r := c.ratios[0]
		if at == "largest" {
			r = c.ratios[len(c.ratios)-1]
		}
		logs = append(logs, math.Log(r))
	}
	n := len(logs)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(logs)
	return math.Exp((logs[(n-1)/2] + logs[n/2]) / 2)
}

// chooseFallback cross-validates the fallback candidates by leaving each
// kernel class out in turn: its rows are predicted with the fallback of
// the others, as a kernel that was never run is. The candidate with the
// lower geometric-mean error wins; with one class there is nothing to
// validate on, and the first candidate stands.
func chooseFallback(cal []calibrated) (string, []FallbackScore) {
	var scores []FallbackScore
	best := fallbackCandidates[0]
	bestErr := math.Inf(1)
	for _, at := range fallbackCandidates {
		var errs []float64
		for _, c := range cal {
			f := fallbackOf(cal, at, c.class)
			if math.IsNaN(f) {
				continue
			}
			for _, r := range c.ratios {
				errs = append(errs, math.Abs(r/f-1))
			}
		}
		if len(errs) == 0 {
			return best, nil
		}
		s := FallbackScore{At: at, Error: fit.GeoMean(errs), Rows: len(errs)}
		scores = append(scores, s)
		if s.Error < bestErr {
			best, bestErr = at, s.Error
		}
	}
	return best, scores
}

// integerOps names the integer-operation properties a launch counts, or
// returns "".
func integerOps(in *models.Inputs) string {
	var ops []string
	for _, name := range slices.Sorted(maps.Keys(in.Counts)) {
		if models.IntegerOp(name) && in.Counts[name] != 0 {
			ops = append(ops, name)
		}
	}
	return strings.Join(ops, ", ")
}

// picker returns the function that picks a kernel's calibration row.
func (m *Model) picker() (func([]models.Row) models.Row, error) {
	less := func(a, b models.Row) bool { return a.TimeS < b.TimeS }
	switch m.CalibrateAt {
	case "", "smallest":
	case "largest":
		less = func(a, b models.Row) bool { return a.TimeS > b.TimeS }
	default:
		return nil, fmt.Errorf("cycles: calibrate at %q: want smallest or largest", m.CalibrateAt)
	}
	return func(rows []models.Row) models.Row {
		best := rows[0]
		for _, r := range rows[1:] {
			if less(r, best) {
				best = r
			}
		}
		return best
	}, nil
}

// Predict implements Model: the estimate over the kernel's adjusting
// weight, or over the fallback for a kernel not calibrated.
func (m *Model) Predict(env *models.Env, c models.Case) (models.Prediction, error) {
	if m.Fallback <= 0 {
		return models.Prediction{}, fmt.Errorf("cycles: %w", models.ErrNotCalibrated)
	}
	if env.Device == nil || env.Device.Name != m.Device {
		return models.Prediction{}, fmt.Errorf("cycles: calibrated for %s, asked to predict on another device", m.Device)
	}
	e, err := m.estimate(env, c)
	if err != nil {
		return models.Prediction{}, err
	}
	aw, note := m.Fallback, fmt.Sprintf("median over %d calibrated kernels, each at its %s measured size (this kernel has none of its own)", m.fallbackKernels(), m.FallbackAt)
	key := kernelKey(c.Kernel, c.Consts)
	if i, ok := slices.BinarySearchFunc(m.Kernels, key, func(k Adjustment, key string) int { return strings.Compare(k.Key, key) }); ok {
		k := m.Kernels[i]
		aw, note = k.AdjustingWeight, fmt.Sprintf("calibrated at %s: estimated %.4g s / measured %.4g s", models.ParamString(k.Params), k.EstimatedS, k.MeasuredS)
		if k.OneRun {
			note = fmt.Sprintf("seed 004's adjusting factor from one measured run of this kernel, at %s: estimated %.4g s / measured %.4g s", models.ParamString(k.Params), k.EstimatedS, k.MeasuredS)
		}
	}
	t, err := e.Seconds(aw)
	if err != nil {
		return models.Prediction{}, err
	}
	return models.Prediction{Seconds: t, Explain: []models.Quantity{
		{Name: "computation", Value: e.Computation, Unit: "cycles per thread", Note: "Σ weight × flops by kind"},
		{Name: "memAccessGM", Value: e.GlobalMemory, Unit: "cycles per thread", Note: "global loads and stores × weight"},
		{Name: "memAccessSM", Value: e.SharedMemory, Unit: "cycles per thread", Note: "local loads and stores × weight"},
		{Name: "occupancy", Value: e.Occupancy, Note: "active warps / max warps per SM (gpus.ActiveBlocks)"},
		{Name: "unadjusted", Value: e.Unadjusted, Unit: "s", Note: "N_threads × cycles / (F × O)"},
		{Name: "adjustingWeight", Value: aw, Note: note},
	}}, nil
}

// fallbackKernels counts the kernels the fallback is taken over.
func (m *Model) fallbackKernels() int {
	var n int
	for _, k := range m.Kernels {
		if !k.Addressed && !k.Narrow && !k.OneRun {
			n++
		}
	}
	return n
}

// estimate is the unadjusted estimate of a launch. Under
// TrafficHierarchy the share of its global accesses that the hierarchy
// counts do not place in DRAM (analytic.DRAMShare) are the seed's L1 hits.
func (m *Model) estimate(env *models.Env, c models.Case) (seed.Estimate, error) {
	in, err := env.Inputs(c)
	if err != nil {
		return seed.Estimate{}, err
	}
	k, o, err := cyclesKernel(env.Device, in, m.RegsPerThread)
	if err != nil {
		return seed.Estimate{}, err
	}
	if m.Traffic == TrafficHierarchy {
		k.L1Hits = (1 - m.shares.of(env, c, in)) * k.GlobalAccesses
	}
	e, err := seed.Estimated(k, m.Weights, env.Device.ClockHz, o)
	if err != nil {
		return seed.Estimate{}, fmt.Errorf("kernel %s on device file %s (weights from %s): %w", c.Kernel, env.Device.File, m.WeightsFrom, err)
	}
	if e.PerThread == 0 {
		return e, fmt.Errorf("cycles: kernel %s: %w (it prices flops and memory accesses, and this kernel has none)", c.Kernel, models.ErrNoWork)
	}
	return e, nil
}

// cyclesKernel derives the seed's per-thread counts and the occupancy
// fraction from a launch, by the mapping of the package documentation.
func cyclesKernel(d *gpus.Device, in *models.Inputs, regs int) (seed.Kernel, float64, error) {
	p, err := analytic.PerThreadOf(in)
	if err != nil {
		return seed.Kernel{}, 0, err
	}
	o, err := analytic.OccupancyOf(d, in, regs)
	if err != nil {
		return seed.Kernel{}, 0, err
	}
	k := seed.Kernel{Threads: p.WorkItems, Compute: p.Flops, SharedAccesses: p.Local}
	for _, a := range p.Global {
		k.GlobalAccesses += a.PerThread
	}
	return k, o.Fraction, nil
}

// SizeSensitivity implements SizeSensitive: it calibrates every kernel of
// rows with two or more sizes on each of its sizes in turn and predicts the
// others. With r_j = estimated_j / measured_j, calibrating on size i
// predicts size j with relative error |r_j / r_i − 1|. Kernels the model
// cannot price are listed in skipped with the reason. It uses m's
// RegsPerThread and the env's device, not m's calibration.
func (m *Model) SizeSensitivity(env *models.Env, rows []models.Row) (out []models.SizeSensitivity, skipped []string, err error) {
	if env.Device == nil {
		return nil, nil, fmt.Errorf("the cycles model needs a device parameter file (package fit/gpus)")
	}
	shares := newDRAMShares()
	if m.shares != nil && m.Device == env.Device.Name {
		shares = m.shares
	}
	m = &Model{RegsPerThread: m.RegsPerThread, Device: env.Device.Name, Traffic: trafficOf(env.Device), shares: shares}
	base, from := env.Device.CycleWeights(seed.DefaultWeights())
	m.Weights, m.WeightsFrom = trafficWeights(env.Device, base, m.Traffic), from
	groups := map[string][]models.Row{}
	for _, r := range rows {
		key := kernelKey(r.Kernel, r.Consts)
		groups[key] = append(groups[key], r)
	}
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		g := groups[key]
		if len(g) < 2 {
			continue
		}
		slices.SortStableFunc(g, func(a, b models.Row) int { return cmp.Compare(a.TimeS, b.TimeS) })
		ratio := make([]float64, len(g))
		s := models.SizeSensitivity{Device: env.Device.Name, Key: key}
		for j, r := range g {
			e, err := m.estimate(env, models.CaseOf(r))
			if errors.Is(err, models.ErrNoWork) {
				skipped = append(skipped, fmt.Sprintf("%s: %v", key, err))
				break
			}
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", models.RowName(r), err)
			}
			ratio[j] = e.Unadjusted / r.TimeS
			s.Sizes = append(s.Sizes, models.SizeLabel(r.Row))
		}
		if len(s.Sizes) < len(g) {
			continue
		}
		for i := range g {
			var errs []float64
			for j := range g {
				if j != i {
					errs = append(errs, math.Abs(ratio[j]/ratio[i]-1))
				}
			}
			s.Errors = append(s.Errors, fit.GeoMean(errs))
		}
		out = append(out, s)
	}
	return out, skipped, nil
}

// Summary implements Model: the adjusting weights calibrated.
func (m *Model) Summary() string {
	s := fmt.Sprintf("adjusting weights of %d kernels (weights from %s, %s traffic), fallback %.4g for kernels not calibrated (the median of %d kernels' weights, each at its %s size", len(m.Kernels), m.WeightsFrom, cmp.Or(m.Traffic, TrafficPaper), m.Fallback, m.fallbackKernels(), m.FallbackAt)
	for i, c := range m.FallbackCV {
		sep := ", "
		if i == 0 {
			sep = "; leave-one-class-out errors: "
		}
		s += fmt.Sprintf("%s%s %.3g", sep, c.At, c.Error)
	}
	s += ")"
	if len(m.Skipped) > 0 {
		s += fmt.Sprintf("; %d kernels without work left out", len(m.Skipped))
	}
	return s
}
