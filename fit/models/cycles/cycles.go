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
// the others): the geometric mean or the median of the calibrated
// kernels' adjusting weights, each taken at its smallest or its largest
// measured size, with the estimates under the paper's traffic or the
// hierarchy's (Traffic), whichever of these candidates predicts the
// calibration rows best when each kernel class is left out in turn
// (FallbackCV; package documentation for the figures). Kernels with
// gathers, scatters or atomics keep their own weights but enter no
// fallback (Adjustment.Addressed).
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
	// Traffic is what a global access stands for in the estimates,
	// TrafficPaper or TrafficHierarchy, the one of the fallback candidate
	// chosen; empty reads as TrafficPaper.
	Traffic string `json:"traffic,omitempty"`
	// Kernels are the calibrated kernels, sorted by key.
	Kernels []Adjustment `json:"kernels"`
	// Fallback is the FallbackOf of the kernels' adjusting weights, each
	// taken at the size FallbackAt names, over the kernels without
	// gathers, scatters or atomics.
	Fallback float64 `json:"fallback"`
	// FallbackAt is the size ("smallest" or "largest" measured time) at
	// which each kernel's adjusting weight enters the fallback, and
	// FallbackOf how the weights combine ("geomean" or "median"): those of
	// the candidate of FallbackCV with the lowest error.
	FallbackAt string `json:"fallback_at"`
	FallbackOf string `json:"fallback_of,omitempty"`
	// FallbackCV is each candidate's leave-one-class-out error on the
	// calibration rows: every row of a kernel class predicted with the
	// fallback of the other classes' kernels, as a kernel never run is.
	FallbackCV []FallbackScore `json:"fallback_cv"`
	// Skipped lists kernels that could not be calibrated, with the reason.
	Skipped []string `json:"skipped,omitempty"`
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
}

// FallbackScore is one fallback candidate and its cross-validation
// error: the geometric-mean relative error over the rows.
type FallbackScore struct {
	Traffic string  `json:"traffic"`
	At      string  `json:"at"`
	Of      string  `json:"of"`
	Error   float64 `json:"error"`
	Rows    int     `json:"rows"`
}

// The fallback candidates, in the order they are tried, the first winning
// ties: the sizes a kernel's adjusting weight may enter the fallback at,
// and how the kernels' weights combine.
var (
	fallbackSizes = []string{"smallest", "largest"}
	fallbackOfs   = []string{"geomean", "median"}
)

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
	if env.Device == nil {
		return fmt.Errorf("the cycles model needs a device parameter file (package fit/gpus)")
	}
	pick, err := m.picker()
	if err != nil {
		return err
	}
	m.Device = env.Device.Name
	base, from := env.Device.CycleWeights(seed.DefaultWeights())
	m.WeightsFrom = from
	m.Kernels, m.Skipped, m.Fallback = nil, nil, 0
	traffics := []string{TrafficPaper}
	if env.Device.Caches != nil {
		traffics = append(traffics, TrafficHierarchy)
	}
	weights := map[string]map[string]float64{}
	for _, tr := range traffics {
		weights[tr] = trafficWeights(env.Device, base, tr)
	}
	groups := map[string][]models.Row{}
	for _, r := range rows {
		key := kernelKey(r.Kernel, r.Consts)
		groups[key] = append(groups[key], r)
	}
	var cal []calibrated
	for _, key := range slices.Sorted(maps.Keys(groups)) {
		c, skip, err := m.calibrateKernel(env, key, groups[key], pick, weights)
		if err != nil {
			return err
		}
		if skip != "" {
			m.Skipped = append(m.Skipped, skip)
			continue
		}
		cal = append(cal, c)
	}
	if len(cal) == 0 {
		return fmt.Errorf("cycles: no kernel to calibrate on (%d rows): %s", len(rows), strings.Join(m.Skipped, "; "))
	}
	best, scores := chooseFallback(cal, traffics)
	m.Traffic, m.FallbackAt, m.FallbackOf, m.FallbackCV = best.Traffic, best.At, best.Of, scores
	m.Weights = weights[m.Traffic]
	for _, c := range cal {
		m.Kernels = append(m.Kernels, c.adjust[m.Traffic])
	}
	m.Fallback = fallbackOf(cal, best, "")
	if math.IsNaN(m.Fallback) {
		return fmt.Errorf("cycles: no kernel to take the fallback from: the %d calibrated all have gathers, scatters or atomics", len(cal))
	}
	return nil
}

// calibrated is a kernel's calibration under each traffic and, for the
// fallback's cross-validation, its class and every row's estimated /
// measured ratio under each traffic, in increasing measured time.
type calibrated struct {
	adjust    map[string]Adjustment
	class     string
	addressed bool
	ratios    map[string][]float64
}

// calibrateKernel calibrates one kernel's rows under each traffic of
// weights, or says why it is skipped.
func (m *Model) calibrateKernel(env *models.Env, key string, rows []models.Row, pick func([]models.Row) models.Row, weights map[string]map[string]float64) (calibrated, string, error) {
	r := pick(rows)
	if _, err := m.estimateWith(env, models.CaseOf(r), TrafficPaper, weights[TrafficPaper]); errors.Is(err, models.ErrNoWork) {
		return calibrated{}, fmt.Sprintf("%s: %v", key, err), nil
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
	c := calibrated{adjust: map[string]Adjustment{}, class: r.Class, addressed: p.Addressed > 0, ratios: map[string][]float64{}}
	sorted := slices.SortedStableFunc(slices.Values(rows), func(a, b models.Row) int { return cmp.Compare(a.TimeS, b.TimeS) })
	for traffic, w := range weights {
		e, err := m.estimateWith(env, models.CaseOf(r), traffic, w)
		if err != nil {
			return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
		}
		aw, err := e.AdjustingWeight(r.TimeS)
		if err != nil {
			return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
		}
		c.adjust[traffic] = Adjustment{Key: key, Params: r.Params, MeasuredS: r.TimeS, EstimatedS: e.Unadjusted, AdjustingWeight: aw, Addressed: c.addressed}
		for _, r := range sorted {
			e, err := m.estimateWith(env, models.CaseOf(r), traffic, w)
			if err != nil {
				return calibrated{}, "", fmt.Errorf("%s: %w", models.RowName(r), err)
			}
			if !(r.TimeS > 0) {
				return calibrated{}, "", fmt.Errorf("%s: measured time must be positive, have %g s", models.RowName(r), r.TimeS)
			}
			c.ratios[traffic] = append(c.ratios[traffic], e.Unadjusted/r.TimeS)
		}
	}
	return c, "", nil
}

// fallbackOf is candidate f's fallback: the geometric mean or the median
// of the kernels' adjusting weights under its traffic, taken at its size,
// leaving out the kernels with gathers, scatters or atomics and those of
// class skip; NaN where none is left. The median of an even number is the
// geometric mean of the middle two.
func fallbackOf(cal []calibrated, f FallbackScore, skip string) float64 {
	var logs []float64
	for _, c := range cal {
		if c.addressed || (skip != "" && c.class == skip) {
			continue
		}
		rs := c.ratios[f.Traffic]
		r := rs[0]
		if f.At == "largest" {
			r = rs[len(rs)-1]
		}
		logs = append(logs, math.Log(r))
	}
	n := len(logs)
	if n == 0 {
		return math.NaN()
	}
	if f.Of == "median" {
		slices.Sort(logs)
		return math.Exp((logs[(n-1)/2] + logs[n/2]) / 2)
	}
	var sum float64
	for _, l := range logs {
		sum += l
	}
	return math.Exp(sum / float64(n))
}

// chooseFallback cross-validates the fallback candidates by leaving each
// kernel class out in turn: its rows are predicted with the fallback of
// the others, as a kernel that was never run is. The candidate with the
// lowest geometric-mean error wins, the first of equals; with one class
// there is nothing to validate on, and the first candidate stands.
func chooseFallback(cal []calibrated, traffics []string) (FallbackScore, []FallbackScore) {
	var scores []FallbackScore
	best := FallbackScore{Traffic: traffics[0], At: fallbackSizes[0], Of: fallbackOfs[0], Error: math.Inf(1)}
	for _, traffic := range traffics {
		for _, at := range fallbackSizes {
			for _, of := range fallbackOfs {
				s := FallbackScore{Traffic: traffic, At: at, Of: of}
				var errs []float64
				for _, c := range cal {
					f := fallbackOf(cal, s, c.class)
					if math.IsNaN(f) {
						continue
					}
					for _, r := range c.ratios[traffic] {
						errs = append(errs, math.Abs(r/f-1))
					}
				}
				if len(errs) == 0 {
					return best, nil
				}
				s.Error, s.Rows = fit.GeoMean(errs), len(errs)
				scores = append(scores, s)
				if s.Error < best.Error {
					best = s
				}
			}
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
	aw, note := m.Fallback, fmt.Sprintf("%s over %d calibrated kernels, each at its %s measured size (this kernel has none of its own)", fallbackWords(m.FallbackOf), m.fallbackKernels(), m.FallbackAt)
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

// fallbackWords names how the fallback combines the kernels' weights.
func fallbackWords(of string) string {
	if of == "median" {
		return "median"
	}
	return "geometric mean"
}

// fallbackKernels counts the kernels the fallback is taken over.
func (m *Model) fallbackKernels() int {
	var n int
	for _, k := range m.Kernels {
		if !k.Addressed && !k.OneRun {
			n++
		}
	}
	return n
}

// estimate is the unadjusted estimate of a launch under m's traffic and
// weights.
func (m *Model) estimate(env *models.Env, c models.Case) (seed.Estimate, error) {
	return m.estimateWith(env, c, m.Traffic, m.Weights)
}

// estimateWith is the unadjusted estimate of a launch under a traffic
// option and weights. Under TrafficHierarchy the share of its global
// accesses that the hierarchy counts do not place in DRAM
// (analytic.DRAMShare) are the seed's L1 hits.
func (m *Model) estimateWith(env *models.Env, c models.Case, traffic string, weights map[string]float64) (seed.Estimate, error) {
	in, err := env.Inputs(c)
	if err != nil {
		return seed.Estimate{}, err
	}
	k, o, err := cyclesKernel(env.Device, in, m.RegsPerThread)
	if err != nil {
		return seed.Estimate{}, err
	}
	if traffic == TrafficHierarchy {
		k.L1Hits = (1 - analytic.DRAMShare(env, c, in)) * k.GlobalAccesses
	}
	e, err := seed.Estimated(k, weights, env.Device.ClockHz, o)
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
	m = &Model{RegsPerThread: m.RegsPerThread, Device: env.Device.Name, Traffic: m.Traffic}
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

// Summary implements Model: the adjusting weights calibrated and the
// fallback chosen, with its cross-validation error and the seed's way's
// (the first candidate: the paper's traffic, the geometric mean at the
// smallest sizes).
func (m *Model) Summary() string {
	s := fmt.Sprintf("adjusting weights of %d kernels (weights from %s, %s traffic), fallback %.4g for kernels not calibrated (the %s of %d kernels' weights, each at its %s size", len(m.Kernels), m.WeightsFrom, cmp.Or(m.Traffic, TrafficPaper), m.Fallback, fallbackWords(m.FallbackOf), m.fallbackKernels(), m.FallbackAt)
	for _, c := range m.FallbackCV {
		if c.Traffic == m.Traffic && c.At == m.FallbackAt && c.Of == m.FallbackOf {
			s += fmt.Sprintf("; leave-one-class-out error %.3g, the lowest of %d candidates", c.Error, len(m.FallbackCV))
		}
	}
	if len(m.FallbackCV) > 1 {
		c := m.FallbackCV[0]
		s += fmt.Sprintf("; the %s traffic's geometric mean at the smallest sizes: %.3g", c.Traffic, c.Error)
	}
	s += ")"
	if len(m.Skipped) > 0 {
		s += fmt.Sprintf("; %d kernels without work left out", len(m.Skipped))
	}
	return s
}
