package hongkim

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	seed "github.com/uniperf/uniperf/fit/hongkim"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
	"gonum.org/v1/gonum/optimize"
)

func init() {
	models.Register("hongkim", func() models.Model { return &Model{} })
}

// Model is Hong and Kim's MWP–CWP model (seed 002, package fit/hongkim)
// on uniperf's counts. Its per-thread inputs follow from the counts as the
// package documentation describes; Calibrate fits its three memory
// parameters to measured rows (Fit).
type Model struct {
	// RegsPerThread is the registers a work-item uses, for occupancy;
	// zero leaves registers out of the occupancy (uniperf's counts do
	// not see register allocation).
	RegsPerThread int `json:"regs_per_thread,omitempty"`
	// Device is the name of the device calibrated for.
	Device string `json:"device"`
	// Memory holds the memory parameters predictions use.
	Memory Memory `json:"memory"`
	// Fit reports how Calibrate fitted Memory, under the key "calibration"
	// of calibration files; nil when the parameters came from the device
	// file.
	Fit *Fit `json:"calibration,omitempty"`
}

// Memory are the three memory parameters of Table 1 (rows 5–7), in
// SM cycles.
type Memory struct {
	MemLD              float64 `json:"mem_ld"`
	DepartureDelCoal   float64 `json:"departure_del_coal"`
	DepartureDelUncoal float64 `json:"departure_del_uncoal"`
}

// Name implements Model.
func (m *Model) Name() string { return "hongkim" }

// Calibrate implements Model. Without rows it takes the memory parameters
// from the device file, which must then have them all; with rows it fits
// them (Fit).
func (m *Model) Calibrate(env *models.Env, rows []models.Row) error {
	d, fixed, err := hongKimDevice(env)
	if err != nil {
		return err
	}
	m.Device = d.Name
	if len(rows) == 0 {
		h, err := d.HongKimParams()
		if err != nil {
			return err
		}
		m.Memory = Memory{h.MemLD, h.DepartureDelCoal, h.DepartureDelUncoal}
		m.Fit = nil
		return nil
	}
	mem, c, err := calibrateHongKim(env, d, fixed, m.RegsPerThread, rows)
	if err != nil {
		return err
	}
	m.Memory, m.Fit = mem, c
	return nil
}

// hongKimDevice returns the Env's device with the constants that
// calibration does not fit.
func hongKimDevice(env *models.Env) (*gpus.Device, gpus.HongKim, error) {
	if env.Device == nil {
		return nil, gpus.HongKim{}, fmt.Errorf("the hongkim model needs a device parameter file (package fit/gpus)")
	}
	fixed, err := env.Device.HongKimFixedParams()
	return env.Device, fixed, err
}

// Predict implements Model. Its explanation is the per-thread inputs
// and every quantity of equations (5)–(27).
func (m *Model) Predict(env *models.Env, c models.Case) (models.Prediction, error) {
	if m.Memory.MemLD <= 0 {
		return models.Prediction{}, fmt.Errorf("hongkim: %w", models.ErrNotCalibrated)
	}
	d, fixed, err := hongKimDevice(env)
	if err != nil {
		return models.Prediction{}, err
	}
	if d.Name != m.Device {
		return models.Prediction{}, fmt.Errorf("hongkim: calibrated for %s, asked to predict on %s", m.Device, d.Name)
	}
	in, err := env.Inputs(c)
	if err != nil {
		return models.Prediction{}, err
	}
	k, err := hongKimKernel(d, fixed, in, m.RegsPerThread)
	if err != nil {
		return models.Prediction{}, err
	}
	r, err := seed.Predict(hongKimMachine(d, fixed, m.Memory), k)
	if err != nil {
		return models.Prediction{}, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	return models.Prediction{Seconds: r.Seconds, Explain: hongKimExplain(k, r, fixed)}, nil
}

// hongKimMachine is the machine of Table 1 with the given memory
// parameters.
func hongKimMachine(d *gpus.Device, fixed gpus.HongKim, mem Memory) seed.Machine {
	return seed.Machine{
		ThreadsPerWarp:     d.Limits.WarpSize,
		IssueCycles:        fixed.IssueCycles,
		Freq:               d.ClockHz,
		MemBandwidth:       d.MemBandwidth,
		MemLD:              mem.MemLD,
		DepartureDelCoal:   mem.DepartureDelCoal,
		DepartureDelUncoal: mem.DepartureDelUncoal,
		SMs:                d.SMs,
		UncoalPerMW:        fixed.UncoalPerMW,
	}
}

// defaultSegmentBytes is the transaction size where a device file gives
// none: the 128-byte segment of NVIDIA's coalescing rules.
const defaultSegmentBytes = 128

// hongKimKernel derives the program parameters of Table 1 (rows 8–21) from
// a launch's counts, by the mapping of the package documentation.
func hongKimKernel(d *gpus.Device, fixed gpus.HongKim, in *models.Inputs, regs int) (seed.Kernel, error) {
	p, err := analytic.PerThreadOf(in)
	if err != nil {
		return seed.Kernel{}, err
	}
	o, err := analytic.OccupancyOf(d, in, regs)
	if err != nil {
		return seed.Kernel{}, err
	}
	k := seed.Kernel{
		ThreadsPerBlock:   int(in.GroupSize()),
		Blocks:            in.Groups(),
		ActiveBlocksPerSM: o.BlocksPerSM,
		CompInsts:         p.IntOps + p.Local + p.Barriers,
		SynchInsts:        p.Barriers,
	}
	for _, kind := range slices.Sorted(maps.Keys(p.Flops)) {
		k.CompInsts += p.Flops[kind]
	}
	segment := fixed.SegmentBytes
	if segment == 0 {
		segment = defaultSegmentBytes
	}
	warp := d.Limits.WarpSize
	var bytes, transactions float64
	for _, a := range p.Global {
		bytes += a.PerThread * a.WarpBytes(warp, fixed.SegmentBytes)
		if a.Coalesced() {
			k.CoalMemInsts += a.PerThread
			continue
		}
		k.UncoalMemInsts += a.PerThread
		transactions += a.PerThread * a.Transactions(warp, segment)
	}
	if mem := k.CoalMemInsts + k.UncoalMemInsts; mem > 0 {
		k.LoadBytesPerWarp = bytes / mem
	}
	if k.UncoalMemInsts > 0 && fixed.UncoalPerMW == 0 {
		k.UncoalPerMW = transactions / k.UncoalMemInsts
	}
	if k.CompInsts+k.CoalMemInsts+k.UncoalMemInsts == 0 {
		return k, fmt.Errorf("hongkim: kernel %s: %w (it prices instructions, and this kernel has none)", in.Kernel.Name, models.ErrNoWork)
	}
	return k, nil
}

// hongKimExplain lists a prediction's inputs and intermediate quantities.
func hongKimExplain(k seed.Kernel, r seed.Result, fixed gpus.HongKim) []models.Quantity {
	q := func(name string, v float64, unit, note string) models.Quantity {
		return models.Quantity{Name: name, Value: v, Unit: unit, Note: note}
	}
	uncoal, uncoalNote := k.UncoalPerMW, "from the strides and the warp width"
	switch {
	case k.UncoalMemInsts == 0:
		uncoalNote = "no uncoalesced accesses"
	case uncoal == 0:
		uncoal, uncoalNote = fixed.UncoalPerMW, "the device's"
	}
	bytesNote := "warp width × element size"
	if fixed.SegmentBytes > 0 {
		bytesNote = fmt.Sprintf("sectors of %g bytes a warp access touches", fixed.SegmentBytes)
	}
	return []models.Quantity{
		q("#Comp_insts", k.CompInsts, "per thread", "flops, integer ops, local loads and stores, barriers"),
		q("#Coal_Mem_insts", k.CoalMemInsts, "per thread", "global accesses of stride 0 and 1"),
		q("#Uncoal_Mem_insts", k.UncoalMemInsts, "per thread", "global accesses of other strides"),
		q("#Synch_insts", k.SynchInsts, "per thread", "barriers"),
		q("#Uncoal_per_mw", uncoal, "transactions", uncoalNote),
		q("Load_bytes_per_warp", k.LoadBytesPerWarp, "bytes", bytesNote),
		q("#Threads_per_block", float64(k.ThreadsPerBlock), "", ""),
		q("#Blocks", float64(k.Blocks), "", ""),
		q("#Active_blocks_per_SM", r.ActiveBlocksPerSM, "", "occupancy (gpus.ActiveBlocks), capped by the grid"),
		q("N", r.N, "warps", "(20)"),
		q("Mem_L", r.MemL, "cycles", "(10)-(12)"),
		q("Departure_delay", r.DepartureDelay, "cycles", "(15)"),
		q("MWP", r.MWP, "", "(5)"),
		q("CWP", r.CWP, "", "(9)"),
		q("Comp_cycles", r.CompCycles, "cycles", "(19)"),
		q("Mem_cycles", r.MemCycles, "cycles", "(18)"),
		q("#Rep", r.Rep, "", "(21)"),
		q("Exec_cycles_app", r.ExecCyclesApp, "cycles", fmt.Sprintf("(%d)", r.Equation)),
		q("Synch_cost", r.SynchCost, "cycles", "(26)"),
		q("Exec_cycles_with_synch", r.ExecCycles, "cycles", "(27)"),
	}
}

// Summary implements Model: the memory parameters and how their fit went.
func (m *Model) Summary() string {
	s := fmt.Sprintf("Mem_LD %.4g, Departure_del_coal %.4g, Departure_del_uncoal %.4g cycles", m.Memory.MemLD, m.Memory.DepartureDelCoal, m.Memory.DepartureDelUncoal)
	if cal := m.Fit; cal != nil {
		s += fmt.Sprintf(", fitted on %d rows (training error %s, RMS relative error %.3g)", cal.Rows, models.ErrorText(cal.GeoMeanRelativeError), cal.RMSRelativeError)
		if len(cal.Held) > 0 {
			s += "; held at the start, no row exercises them: " + strings.Join(cal.Held, ", ")
		}
		if len(cal.AtBound) > 0 {
			s += "; at the search bound, not determined by the rows: " + strings.Join(cal.AtBound, ", ")
		}
		if len(cal.Skipped) > 0 {
			s += fmt.Sprintf("; %d rows without instructions left out", len(cal.Skipped))
		}
	}
	return s
}

// Fit reports how Calibrate fitted the memory parameters.
//
// The fit minimises the squared relative error Σ (predicted/measured − 1)²
// over the rows, as seed 001 fits its weights, in the logarithms of the
// three parameters (which keeps them positive and treats a factor of two
// the same at 4 cycles as at 400). The model is piecewise in its
// parameters (minima, case selection), so a gradient-free method is used:
// a coarse grid of powers of ten, then Nelder–Mead (gonum/optimize) from
// the grid's best point and from the start, keeping the better result.
type Fit struct {
	Rows int `json:"rows"`
	// Skipped lists rows the model cannot price (no instructions).
	Skipped []string `json:"skipped,omitempty"`
	// Start is where the search starts: the device file's values, or
	// Table 6's FX5600 values (420, 4, 10) where the file has none.
	Start Memory `json:"start"`
	// Held lists parameters that no row exercises (no coalesced or no
	// uncoalesced access), held at their start.
	Held []string `json:"held,omitempty"`
	// AtBound lists parameters the fit drove to the search bounds
	// [HongKimMinCycles, HongKimMaxCycles]: the rows do not determine them.
	AtBound []string `json:"at_bound,omitempty"`
	// RMSRelativeError is √(mean (predicted/measured − 1)²) at the fit,
	// GeoMeanRelativeError the geometric mean of |predicted/measured − 1|.
	RMSRelativeError     float64 `json:"rms_relative_error"`
	GeoMeanRelativeError float64 `json:"geomean_relative_error"`
}

// The search bounds of the memory parameters, in cycles.
const (
	HongKimMinCycles = 1e-3
	HongKimMaxCycles = 1e7
)

// hongKimStart is Table 6's FX5600 column, where the search starts when
// the device file has no value.
var hongKimStart = Memory{MemLD: 420, DepartureDelCoal: 4, DepartureDelUncoal: 10}

// hongKimSample is one row's program parameters and measured time.
type hongKimSample struct {
	k        seed.Kernel
	measured float64
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

// calibrateHongKim fits the memory parameters to rows.
func calibrateHongKim(env *models.Env, d *gpus.Device, fixed gpus.HongKim, regs int, rows []models.Row) (Memory, *Fit, error) {
	c := &Fit{Start: hongKimStart}
	file := Memory{fixed.MemLD, fixed.DepartureDelCoal, fixed.DepartureDelUncoal}
	for _, p := range memParams {
		if v := *p.at(&file); v > 0 {
			*p.at(&c.Start) = v
		}
	}
	var samples []hongKimSample
	var coal, uncoal bool
	for _, r := range rows {
		in, err := env.Inputs(models.CaseOf(r))
		if err != nil {
			return Memory{}, nil, fmt.Errorf("%s: %w", models.RowName(r), err)
		}
		k, err := hongKimKernel(d, fixed, in, regs)
		if errors.Is(err, models.ErrNoWork) {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: %v", models.RowName(r), err))
			continue
		}
		if err != nil {
			return Memory{}, nil, fmt.Errorf("%s: %w", models.RowName(r), err)
		}
		samples = append(samples, hongKimSample{k, r.TimeS})
		coal = coal || k.CoalMemInsts > 0
		uncoal = uncoal || k.UncoalMemInsts > 0
	}
	if len(samples) == 0 {
		return Memory{}, nil, fmt.Errorf("hongkim: no row to calibrate on (%d rows, all without instructions)", len(rows))
	}
	c.Rows = len(samples)
	var active []memParam
	for _, p := range memParams {
		used := map[string]bool{"mem_ld": coal || uncoal, "departure_del_coal": coal, "departure_del_uncoal": uncoal}[p.name]
		if used {
			active = append(active, p)
		} else {
			c.Held = append(c.Held, p.name)
		}
	}
	mem := c.Start
	if len(active) > 0 {
		mem = fitMemory(hongKimObjective(d, fixed, samples, c.Start, active), c.Start, active)
		for _, p := range active {
			if v := *p.at(&mem); v <= HongKimMinCycles*1.01 || v >= HongKimMaxCycles/1.01 {
				c.AtBound = append(c.AtBound, p.name)
			}
		}
	}
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

// hongKimObjective returns the sum of squared relative errors as a
// function of the logarithms of the active parameters.
func hongKimObjective(d *gpus.Device, fixed gpus.HongKim, samples []hongKimSample, start Memory, active []memParam) func([]float64) float64 {
	return func(x []float64) float64 {
		mem := withLogs(start, active, x)
		m := hongKimMachine(d, fixed, mem)
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
// clamped to the search bounds.
func withLogs(mem Memory, active []memParam, x []float64) Memory {
	lo, hi := math.Log(HongKimMinCycles), math.Log(HongKimMaxCycles)
	for i, p := range active {
		*p.at(&mem) = math.Exp(math.Max(lo, math.Min(hi, x[i])))
	}
	return mem
}

// fitMemory minimises f: a grid of powers of ten from 10^-2 to 10^6 cycles,
// then Nelder–Mead from the grid's best point and from the start.
func fitMemory(f func([]float64) float64, start Memory, active []memParam) Memory {
	n := len(active)
	x0 := make([]float64, n)
	for i, p := range active {
		x0[i] = math.Log(*p.at(&start))
	}
	best, bestF := append([]float64(nil), x0...), f(x0)
	x := make([]float64, n)
	var walk func(i int)
	walk = func(i int) {
		if i == n {
			if v := f(x); v < bestF {
				best, bestF = append([]float64(nil), x...), v
			}
			return
		}
		for e := -2; e <= 6; e++ {
			x[i] = float64(e) * math.Ln10
			walk(i + 1)
		}
	}
	walk(0)
	for _, from := range [][]float64{best, x0} {
		settings := &optimize.Settings{FuncEvaluations: 4000, Converger: &optimize.FunctionConverge{Relative: 1e-10, Iterations: 200}}
		// An error here is a run that stopped early (an evaluation
		// limit); its best point is still a candidate.
		res, _ := optimize.Minimize(optimize.Problem{Func: f}, from, settings, &optimize.NelderMead{})
		if res != nil && res.F < bestF {
			best, bestF = res.X, res.F
		}
	}
	return withLogs(start, active, best)
}
