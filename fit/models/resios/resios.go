package resios

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
	seed "github.com/uniperf/uniperf/fit/resios"
)

func init() {
	models.Register("resios", func() models.Model { return &Model{} })
}

// Model is seed 000's latency/throughput model with its warp-level
// simulation (package resios), on uniperf's counts.
//
// A launch becomes one warp's trace (Trace): per region, its loads, its
// operations by class and its stores, each executed Count times per
// work-item, with the region's ILP (6.1). A global access issues the
// lines its first warp's addresses touch (resios.RequestsForOffsets, the
// c of (4.8)); a local access has the bank-conflict degree of those
// addresses (Algorithm 6.1). The simulation supplies TLP, and its
// hotspots, each memory access's share of compute-idle time, are the
// explanation's "hotspot" lines.
//
// Instruction classes. Operations map to the rows of the thesis's Table
// 3.1: f32 add, mul, fused multiply-add, div and special functions to
// fadd, fmul, fmadd, fdiv and sqrt; integer add, mul and div to add, mul
// and div, integer min and max to and. Other operations (f64, pow, exp)
// keep their own class name, "f64.add" say, which the device file must
// list. A barrier is class "barrier" (the thesis models no
// synchronization): unpriced, and said so in the explanation, when the
// device file lists no such class.
//
// Constants come from the device file's resios section. A device without
// one, such as a CPU under PoCL, gets them fitted to the measurement rows
// (Calibrate): per instruction class the cycles of a warp instruction at
// peak throughput, the cycles to transfer a global line and a byte of a
// local-memory bank, and the launch overhead. The rest is uniperf's
// structural choice: one compute and one memory unit, 64 simulated warps,
// peak parallelism max_i = 16 warps (the thesis's "most common value")
// and max_p = 8 warps for both memories (its GTX 460 value), 32 banks of
// 4 bytes, lines of 4 bytes per work-item of a warp (a coalesced warp
// access of 32-bit elements is one transaction: 128 bytes on a GPU, as
// seed 000 §3.2 has it, 32 bytes for PoCL's 8-wide warps), and latencies
// tied to the costs at peak: latency = max × the cost of a warp
// instruction, or of a coalesced warp access, the latency that max
// instructions in flight hide exactly (Little's law). Latencies fitted
// apart collapse to zero when every row runs above the thresholds, and a
// launch of few warps then costs nothing; max_p tied to a fitted latency
// moves the threshold with the constants and makes the fit jump.
type Model struct {
	// Device holds the model's constants after Calibrate.
	Device *seed.Device
	// Fitted reports that Calibrate fitted the constants to rows; FitRows
	// is their number and FitRMS the root-mean-square relative error of
	// the fitted model on them.
	Fitted  bool
	FitRows int
	FitRMS  float64
	analytic.Traced
}

// Name implements Model.
func (m *Model) Name() string { return "resios" }

// Calibrate implements Model: it reads the device file's resios
// constants, or fits them to rows when the file has no resios section.
func (m *Model) Calibrate(env *models.Env, rows []models.Row) error {
	if env.Device == nil {
		return fmt.Errorf("resios: %w (give --device)", models.ErrNoDeviceFile)
	}
	d, err := seed.FromDevice(env.Device)
	var missing *gpus.MissingError
	switch {
	case err == nil:
		m.Device, m.Fitted = &d, false
		return nil
	case !errors.As(err, &missing) || !missing.Section:
		return err
	case len(rows) == 0:
		return fmt.Errorf("resios: %w, and there are no measurement rows to fit its constants to", err)
	}
	fitted, obj, n, err := fitResios(env, m.Tracer(), rows)
	if err != nil {
		return fmt.Errorf("resios: fitting the constants on %s: %w", env.Device.Name, err)
	}
	m.Device, m.Fitted, m.FitRows, m.FitRMS = fitted, true, n, math.Sqrt(obj/float64(n))
	return nil
}

// Summary says where the constants come from, in one line.
func (m *Model) Summary() string {
	if m.Device == nil {
		return "not calibrated"
	}
	if !m.Fitted {
		return "constants of the device file's resios section"
	}
	p := m.Device.Params
	return fmt.Sprintf("%d instruction classes, %.3g cycles per global line, launch %.3g µs, fitted on %d rows (RMS relative error %.3f)",
		len(p.Instructions), float64(analytic.FittedLineElems*m.Device.WarpSize)/m.Device.GlobalBytesPerCycle, 1e6*p.Overhead.LaunchSeconds, m.FitRows, m.FitRMS)
}

// Predict implements Model.
func (m *Model) Predict(env *models.Env, c models.Case) (models.Prediction, error) {
	if m.Device == nil {
		return models.Prediction{}, fmt.Errorf("resios: %w", models.ErrNotCalibrated)
	}
	l, err := analytic.PrepareLaunch(env, m.Tracer(), c)
	if err != nil {
		return models.Prediction{}, err
	}
	trace, unpriced, err := resiosTrace(*m.Device, l.Trace, m.Fitted)
	if err != nil {
		return models.Prediction{}, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	if len(trace) == 0 {
		launch := m.Device.Params.Overhead.LaunchSeconds
		return models.Prediction{Seconds: launch, Explain: []models.Quantity{
			{Name: "overhead", Value: launch, Unit: "s", Note: "kernel launch (4.3); the kernel executes no instruction"}}}, nil
	}
	p, err := m.Device.Predict(trace, l.In.Groups(), analytic.Resources(l.In))
	if err != nil {
		return models.Prediction{}, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	return models.Prediction{Seconds: p.Time, Explain: resiosExplain(p, unpriced, m.Fitted)}, nil
}

func resiosExplain(p seed.Prediction, unpriced []string, fitted bool) []models.Quantity {
	source := "device file"
	if fitted {
		source = "constants fitted to the measurement rows"
	}
	q := []models.Quantity{
		{Name: "execution", Value: p.Execution, Unit: "s", Note: "simulated cycles / clock (" + source + ")"},
		{Name: "overhead", Value: p.Overhead, Unit: "s", Note: "kernel launch (4.3)"},
		{Name: "blocks per SM", Value: float64(p.Occupancy.BlocksPerSM),
			Note: "resident, limited by " + strings.Join(p.Occupancy.Limiters, ", ") + " (gpus.ActiveBlocks)"},
		{Name: "warps per block", Value: float64(p.Occupancy.WarpsPerBlock)},
		{Name: "simulated cycles", Value: p.Sim.SimulatedCycles,
			Note: fmt.Sprintf("%d of %d blocks per SM, extrapolated to %.6g", p.Sim.SimulatedBlocks, p.Sim.BlocksPerSM, p.Sim.Cycles)},
		{Name: "compute-idle cycles", Value: p.Sim.IdleCycles, Note: "no compute unit busy (§5.2.1)"},
	}
	for _, h := range p.Sim.Hotspots {
		q = append(q, models.Quantity{Name: "hotspot " + h.Name, Value: 100 * h.Share, Unit: "%",
			Note: fmt.Sprintf("share of compute-idle time; %.6g idle of %.6g delay cycles", h.Idle, h.Delay)})
	}
	for _, u := range unpriced {
		q = append(q, models.Quantity{Name: "unpriced " + u, Note: "the device file lists no such instruction class"})
	}
	return q
}

// thesisClass maps operation classes to the rows of Table 3.1.
var thesisClass = map[string]string{
	"f32.add": "fadd", "f32.mul": "fmul", "f32.fma": "fmadd", "f32.div": "fdiv", "f32.special": "sqrt",
	"i32.add": "add", "i32.mul": "mul", "i32.div": "div", "i32.special": "and",
	"i64.add": "add", "i64.mul": "mul", "i64.div": "div", "i64.special": "and",
}

// barrierClass is the instruction class of a barrier.
const barrierClass = "barrier"

// resiosClass is the device instruction class of an operation class;
// fitted constants use the operation classes themselves.
func resiosClass(op string, fitted bool) string {
	if c, ok := thesisClass[op]; ok && !fitted {
		return c
	}
	return op
}

// resiosTrace turns a trace into the simulation's instructions for a
// device: per region its loads, operations and stores. It also returns
// the barriers it could not price.
func resiosTrace(d seed.Device, t *analytic.Trace, fitted bool) ([]seed.Instr, []string, error) {
	var out []seed.Instr
	var unpriced []string
	for _, r := range t.Regions {
		if r.Count == 0 {
			continue
		}
		if r.Barrier {
			if _, ok := d.Params.Instructions[barrierClass]; !ok {
				unpriced = append(unpriced, r.Name)
				continue
			}
			in, err := d.Compute(r.Name, barrierClass, 1, r.Count)
			if err != nil {
				return nil, nil, err
			}
			out = append(out, in)
			continue
		}
		for _, store := range []bool{false, true} {
			if store {
				for _, op := range r.Ops {
					in, err := d.Compute(r.Name+" "+op.Class, resiosClass(op.Class, fitted), r.ILP, r.Count*float64(op.N))
					if err != nil && fitted {
						err = fmt.Errorf("%w: no calibration row exercises it", err)
					}
					if err != nil {
						return nil, nil, err
					}
					out = append(out, in)
				}
			}
			for _, a := range r.Accesses {
				if a.Store != store {
					continue
				}
				in, err := resiosAccess(d, a, r)
				if err != nil {
					return nil, nil, err
				}
				out = append(out, in)
			}
		}
	}
	return out, unpriced, nil
}

// resiosAccess prices one global or local access of a region.
func resiosAccess(d seed.Device, a analytic.Access, r analytic.Region) (seed.Instr, error) {
	size := a.Array.DType.Size()
	if a.Array.Space == counts.Local {
		s := d.Params.Shared
		conflicts := d.WarpSize
		if a.Offsets != nil {
			bytes := make([]int64, len(a.Offsets))
			low := slices.Min(a.Offsets)
			for i, o := range a.Offsets {
				bytes[i] = (o - low) * int64(size)
			}
			var err error
			if conflicts, err = seed.BankConflicts(bytes, int(s.Banks), int(s.BankWidth)); err != nil {
				return seed.Instr{}, err
			}
		}
		return seed.SharedAccess(a.Name, s, d.WarpSize, float64(size), float64(conflicts), r.ILP, r.Count), nil
	}
	requests := d.WarpSize
	if a.Offsets != nil {
		var err error
		if requests, err = seed.RequestsForOffsets(a.Offsets, size, int(d.Params.Global.LineBytes)); err != nil {
			return seed.Instr{}, err
		}
	}
	return seed.GlobalAccess(a.Name, d.Params.Global, float64(requests), d.GlobalBytesPerCycle, r.ILP, r.Count), nil
}

// The structural constants of a fitted device (see Resios).
const (
	fittedPeakWarps   = 16
	fittedMaxParallel = 8
	fittedSimWarps    = 64
	fittedBanks       = 32
	fittedBankWidth   = 4
	fittedHidingCoeff = 4
)

// resiosTheta names the fitted constants of a device, all in cycles: per
// class the cycles of a warp instruction at peak throughput, the cycles to
// transfer a line of global memory, and a byte of a local-memory bank.
type resiosTheta struct {
	names  []string
	values []float64
}

const (
	thetaGlobalLine = "global.cycles_per_line"
	thetaLocalByte  = "local.cycles_per_byte"
)

// device builds a device from the constants.
func (th resiosTheta) device(base *gpus.Device, launchSeconds float64) seed.Device {
	p := gpus.Resios{
		Instructions: map[string]gpus.ResiosInstruction{},
		Overhead:     gpus.ResiosOverhead{LaunchSeconds: launchSeconds},
		Simulation:   gpus.ResiosSimulation{ComputeUnits: 1, MemoryUnits: 1, MaxSimWarps: fittedSimWarps, LatencyHidingFactor: fittedHidingCoeff},
		Source:       "fitted to measurement rows",
	}
	warp := float64(base.Limits.WarpSize)
	line := float64(analytic.FittedLineElems * base.Limits.WarpSize)
	p.Global.LineBytes = line
	p.Shared.Banks, p.Shared.BankWidth = fittedBanks, fittedBankWidth
	var bytesPerCycle float64
	for j, n := range th.names {
		v := th.values[j]
		switch n {
		case thetaGlobalLine:
			bytesPerCycle = line / v
			p.Global.Latency = fittedMaxParallel * v
		case thetaLocalByte:
			p.Shared.BankBandwidth = 1 / v
			p.Shared.Latency = fittedMaxParallel * seed.SharedPenalty(base.Limits.WarpSize, 4, fittedBanks, 1, p.Shared.BankBandwidth)
		default:
			p.Instructions[n] = gpus.ResiosInstruction{Latency: fittedPeakWarps * v, Throughput: warp / v, PeakWarps: fittedPeakWarps}
		}
	}
	p.Global.MaxParallel, p.Shared.MaxParallel = fittedMaxParallel, fittedMaxParallel
	return seed.Device{Name: base.Name, Params: p, Limits: base.Limits, ClockHz: base.ClockHz, SMs: base.SMs,
		WarpSize: base.Limits.WarpSize, GlobalBytesPerCycle: bytesPerCycle}
}

// fitResios fits a device's constants to rows by Gauss–Newton iterations
// on the relative error. Simulated cycles are a homogeneous function of
// degree one of the constants (scaling every latency and cost by s scales
// every delay, hence the simulated time, by s; the thresholds max_i and
// max_p are ratios and do not move), so by Euler's theorem they equal
// Σ_j θ_j ∂cycles/∂θ_j wherever they are differentiable: each iteration
// takes the partial derivatives by forward differences and solves the
// linear relative-error problem (non-negative least squares, with the
// launch overhead as one more constant) for new constants, halving the
// step in log space while the true objective does not improve. It
// returns the constants, the objective and the number of rows fitted:
// those of kernels with gathers, scatters or atomics, or with 1- or
// 2-byte global elements, are left out (analytic.PrepareRows).
func fitResios(env *models.Env, tr *analytic.Tracer, rows []models.Row) (*seed.Device, float64, int, error) {
	launches, rows, err := analytic.PrepareRows(env, tr, rows)
	if err != nil {
		return nil, 0, 0, err
	}
	th, uses := initialTheta(launches)
	f := &resiosFitter{env: env, rows: rows, launches: launches, uses: uses}
	launch := 0.0
	pred, err := f.predict(th, launch)
	if err != nil {
		return nil, 0, 0, err
	}
	best := analytic.RelObjective(pred, rows)
	for iter := 0; iter < 25; iter++ {
		next, nextLaunch, err := f.step(th)
		if err != nil {
			return nil, 0, 0, err
		}
		improved := false
		for t := 1.0; t > 1.0/64; t /= 2 {
			cand := th.towards(next, t)
			l := launch + t*(nextLaunch-launch)
			pred, err := f.predict(cand, l)
			if err != nil {
				return nil, 0, 0, err
			}
			if obj := analytic.RelObjective(pred, rows); obj < best {
				improved = best-obj > 1e-6*best
				th, launch, best = cand, l, obj
				break
			}
		}
		if !improved {
			break
		}
	}
	d := th.device(env.Device, launch)
	return &d, best, len(rows), nil
}

// initialTheta lists the constants the rows exercise, with starting values,
// and per row the indices of the constants it uses.
func initialTheta(launches []*analytic.PreparedLaunch) (resiosTheta, [][]int) {
	used := map[string]bool{}
	perRow := make([]map[string]bool, len(launches))
	for i, l := range launches {
		perRow[i] = map[string]bool{}
		for _, r := range l.Trace.Regions {
			if r.Count == 0 {
				continue
			}
			if r.Barrier {
				perRow[i][barrierClass] = true
			}
			for _, op := range r.Ops {
				perRow[i][op.Class] = true
			}
			for _, a := range r.Accesses {
				if a.Array.Space == counts.Local {
					perRow[i][thetaLocalByte] = true
				} else {
					perRow[i][thetaGlobalLine] = true
				}
			}
		}
		maps.Copy(used, perRow[i])
	}
	start := map[string]float64{thetaGlobalLine: 4, thetaLocalByte: 0.25}
	th := resiosTheta{names: slices.Sorted(maps.Keys(used))}
	index := map[string]int{}
	for j, n := range th.names {
		v, ok := start[n]
		if !ok {
			v = 1
		}
		th.values = append(th.values, v)
		index[n] = j
	}
	uses := make([][]int, len(launches))
	for i := range launches {
		for n := range perRow[i] {
			uses[i] = append(uses[i], index[n])
		}
		slices.Sort(uses[i])
	}
	return th, uses
}

// towards moves geometrically from th towards next by the fraction t.
func (th resiosTheta) towards(next resiosTheta, t float64) resiosTheta {
	out := resiosTheta{names: th.names, values: make([]float64, len(th.values))}
	for j, v := range th.values {
		out.values[j] = v * math.Pow(next.values[j]/v, t)
	}
	return out
}

type resiosFitter struct {
	env      *models.Env
	rows     []models.Row
	launches []*analytic.PreparedLaunch
	uses     [][]int
}

// cycles simulates row i with constants th.
func (f *resiosFitter) cycles(th resiosTheta, i int) (float64, error) {
	d := th.device(f.env.Device, 0)
	l := f.launches[i]
	trace, _, err := resiosTrace(d, l.Trace, true)
	if err != nil || len(trace) == 0 {
		return 0, err
	}
	p, err := d.Predict(trace, l.In.Groups(), analytic.Resources(l.In))
	if err != nil {
		return 0, fmt.Errorf("%s row %d: %w", f.rows[i].Table, f.rows[i].Index, err)
	}
	return p.Sim.Cycles, nil
}

func (f *resiosFitter) predict(th resiosTheta, launch float64) ([]float64, error) {
	out := make([]float64, len(f.rows))
	for i := range f.rows {
		c, err := f.cycles(th, i)
		if err != nil {
			return nil, err
		}
		out[i] = launch + c/f.env.Device.ClockHz
	}
	return out, nil
}

// step linearizes at th and returns the solution of the linear problem.
// Constants the solution sets to zero, or that no row determines, keep a
// thousandth of their value, so that every delay stays defined.
func (f *resiosFitter) step(th resiosTheta) (resiosTheta, float64, error) {
	n := len(th.names)
	features := make([][]float64, len(f.rows))
	for i := range f.rows {
		base, err := f.cycles(th, i)
		if err != nil {
			return resiosTheta{}, 0, err
		}
		features[i] = make([]float64, n+1)
		for _, j := range f.uses[i] {
			h := 1e-4 * th.values[j]
			moved := resiosTheta{names: th.names, values: slices.Clone(th.values)}
			moved.values[j] += h
			c, err := f.cycles(moved, i)
			if err != nil {
				return resiosTheta{}, 0, err
			}
			// A longer delay never shortens the simulation; a negative
			// difference is rounding.
			features[i][j] = max(0, (c-base)/h/f.env.Device.ClockHz)
		}
		features[i][n] = 1 // the launch overhead, in seconds
	}
	names := append(slices.Clone(th.names), "launch")
	sol, err := analytic.RelFit(names, features, f.rows)
	if err != nil {
		return resiosTheta{}, 0, err
	}
	next := resiosTheta{names: th.names, values: make([]float64, n)}
	for j := range n {
		next.values[j] = sol[j]
		if !(sol[j] > 1e-3*th.values[j]) {
			next.values[j] = 1e-3 * th.values[j]
		}
	}
	launch := sol[n]
	if math.IsNaN(launch) {
		launch = 0
	}
	return next, launch, nil
}

// Launch is the launch-configuration heuristic of seed 000 §5.2.1
// (resios.BlockSize) for a case on the env's device, whose file must
// carry Resios constants: n_t is the case's work-items, the block is
// two-dimensional when the kernel uses l.1, registers are not known, the
// shared memory is the kernel's local memory over its group size, and the
// latencies are those of the trace's instruction classes and memories,
// memory latencies divided by the arithmetic intensity (compute over
// memory instructions per work-item, §5.3; 1 when either is absent, since
// there is then nothing to divide).
func Launch(env *models.Env, c models.Case) (seed.LaunchConfig, error) {
	if env.Device == nil {
		return seed.LaunchConfig{}, errors.New("the launch heuristic needs a device file")
	}
	d, err := seed.FromDevice(env.Device)
	if err != nil {
		return seed.LaunchConfig{}, err
	}
	l, err := analytic.PrepareLaunch(env, analytic.NewTracer(), c)
	if err != nil {
		return seed.LaunchConfig{}, err
	}
	in := seed.LaunchInput{
		Threads: l.In.WorkItems(), TwoD: l.In.Local[1] > 1, WarpSize: d.WarpSize, SMs: d.SMs,
		MaxWarps: d.Limits.MaxWarpsPerSM, MaxThreadsPerBlock: d.Limits.MaxThreadsPerBlock,
		SharedPerSM: d.Limits.SharedPerSM, SharedPerThread: float64(l.In.LocalBytes) / float64(l.In.GroupSize()),
		HidingFactor: d.Params.Simulation.LatencyHidingFactor,
	}
	var compute, memory float64
	for _, r := range l.Trace.Regions {
		for _, op := range r.Ops {
			class := resiosClass(op.Class, false)
			cl, ok := d.Params.Instructions[class]
			if !ok {
				return seed.LaunchConfig{}, fmt.Errorf("device %s has no instruction class %q", d.Name, class)
			}
			in.Latencies = append(in.Latencies, seed.Latency{Cycles: cl.Latency})
			compute += r.Count * float64(op.N)
		}
		for _, a := range r.Accesses {
			latency := d.Params.Global.Latency
			if a.Array.Space == counts.Local {
				latency = d.Params.Shared.Latency
			}
			in.Latencies = append(in.Latencies, seed.Latency{Cycles: latency, Memory: true})
			memory += r.Count
		}
	}
	if len(in.Latencies) == 0 {
		return seed.LaunchConfig{}, fmt.Errorf("kernel %s executes no instruction", c.Kernel)
	}
	in.ArithmeticIntensity = compute / memory
	if memory == 0 || compute == 0 {
		in.ArithmeticIntensity = 1 // no memory latency to scale, or none to hide behind computation
	}
	return seed.BlockSize(in)
}
