package xu

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/cycles"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
	"github.com/uniperf/uniperf/fit/resios"
	seed "github.com/uniperf/uniperf/fit/xu"
)

func init() {
	models.Register("xu", func() models.Model { return &Model{} })
}

// Model is the execution-time model of seed 003, Chapter 3 (package xu): a
// warp's computation time T_C and memory time T_M, the active warps N_w
// from the occupancy (gpus.ActiveBlocks), and (3-22) when N_w·T_C ≥ T_M
// hides the memory latency, (4-5) when it does not, over N_CB/(N_AB·N_SM)
// groups of blocks.
//
// From the counts, per warp (one warp instruction per work-item
// instruction, as the trace counts them):
//
//	T_C = Σ_class n_class·cycles_class + n_local·cycles_local + n_barrier·cycles_barrier
//	T_M = Σ_access n_access·(T_Mco + (c_access − c_min)·T_tx)
//	n   = Σ_access n_access                       (global accesses only)
//
// where c is the transactions of the access's first warp (lines of 4
// bytes per work-item of a warp, as for Resios) and c_min those of a
// coalesced access of the same element size: a coalesced access costs
// T_Mco, and an uncoalesced one T_Munc = T_Mco plus T_tx per extra
// transaction, which makes (3-24)–(3-26) hold with the reuse factor 1.
// Local memory accesses are on-chip and count as computation, as seed
// 002 counts them.
//
// Constants. Calibrate fits them to the rows (relative-error
// non-negative least squares, alternating with the choice of (3-22) or
// (4-5) per row until the choices are stable), with a launch overhead in
// seconds that (3-22) lacks and measured times include. Without rows it
// takes the device file's cycle weights (package cycles, its defaults
// where the file has none: add, mul, fma, div and "shared" for local
// accesses; a barrier costs an add), T_Mco = hongkim.mem_ld and T_tx =
// hongkim.departure_del_uncoal from a Hong–Kim section, else the "global"
// weight for both, and no launch overhead.
type Model struct {
	// Cycles are the cycles of one warp instruction per class: operation
	// classes (see OpClass), "local" and "barrier".
	Cycles map[string]float64
	// Coalesced is T_Mco and PerTransaction is T_tx, in cycles.
	Coalesced, PerTransaction float64
	// Launch is the launch overhead in seconds.
	Launch float64
	// Source says where the constants come from; FitRows and FitRMS are
	// the rows fitted on and the root-mean-square relative error there.
	Source  string
	FitRows int
	FitRMS  float64
	analytic.Traced
}

// Name implements Model.
func (m *Model) Name() string { return "xu" }

const (
	xuLocal   = "local"
	xuBarrier = "barrier"
	xuCoal    = "T_Mco"
	xuTx      = "T_tx"
	xuLaunch  = "launch"
)

// Calibrate implements Model.
func (m *Model) Calibrate(env *models.Env, rows []models.Row) error {
	if env.Device == nil {
		return fmt.Errorf("xu: %w (give --device)", models.ErrNoDeviceFile)
	}
	if len(rows) == 0 {
		return m.fromDevice(env)
	}
	if err := m.fit(env, rows); err != nil {
		return fmt.Errorf("xu: on %s: %w", env.Device.Name, err)
	}
	return nil
}

// fromDevice takes the constants from the device file.
func (m *Model) fromDevice(env *models.Env) error {
	w, source := env.Device.CycleWeights(cycles.DefaultWeights())
	m.Cycles = map[string]float64{xuLocal: w[cycles.Shared], xuBarrier: w[cycles.Add]}
	memory := map[string]bool{cycles.Global: true, cycles.L1: true, cycles.L2: true, cycles.Shared: true}
	for _, t := range []counts.DType{counts.F32, counts.F64, counts.I32, counts.I64} {
		for k, v := range w {
			if !memory[k] {
				m.Cycles[analytic.OpClass(t, k)] = v
			}
		}
	}
	m.Coalesced, m.PerTransaction = w[cycles.Global], w[cycles.Global]
	m.Source = "cycle weights of " + source
	if h, err := env.Device.HongKimParams(); err == nil {
		m.Coalesced, m.PerTransaction = h.MemLD, h.DepartureDelUncoal
		m.Source += ", memory from the device's Hong–Kim constants"
	}
	m.Launch = 0
	return nil
}

// Summary says where the constants come from, in one line.
func (m *Model) Summary() string {
	if m.Cycles == nil {
		return "not calibrated"
	}
	s := fmt.Sprintf("%d cycle classes, T_Mco %.3g, T_tx %.3g cycles, launch %.3g µs; %s",
		len(m.Cycles), m.Coalesced, m.PerTransaction, 1e6*m.Launch, m.Source)
	if m.FitRows > 0 {
		s += fmt.Sprintf(" (%d rows, RMS relative error %.3f)", m.FitRows, m.FitRMS)
	}
	return s
}

// Predict implements Model.
func (m *Model) Predict(env *models.Env, c models.Case) (models.Prediction, error) {
	if m.Cycles == nil {
		return models.Prediction{}, fmt.Errorf("xu: %w", models.ErrNotCalibrated)
	}
	l, err := analytic.PrepareLaunch(env, m.Tracer(), c)
	if err != nil {
		return models.Prediction{}, err
	}
	f, err := xuFeaturesOf(l, env.Device.Limits.WarpSize)
	if err != nil {
		return models.Prediction{}, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	k, e, secs, err := m.exec(env, f, l)
	if err != nil {
		return models.Prediction{}, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	return models.Prediction{Seconds: secs, Explain: xuExplain(k, e, l.Occ, m)}, nil
}

// exec evaluates (3-16)–(3-22) for a launch's features.
func (m *Model) exec(env *models.Env, f xuFeatures, l *analytic.PreparedLaunch) (seed.Kernel, seed.Exec, float64, error) {
	k := seed.Kernel{MemAccesses: f.accesses, Blocks: l.In.Groups()}
	for _, class := range slices.Sorted(maps.Keys(f.compute)) {
		v, ok := m.Cycles[class]
		if !ok {
			why := ""
			if m.FitRows > 0 {
				why = ": no calibration row exercises it"
			}
			return k, seed.Exec{}, 0, fmt.Errorf("the xu model has no cycles for %s%s (it has %s)",
				class, why, strings.Join(slices.Sorted(maps.Keys(m.Cycles)), ", "))
		}
		k.WarpCompute += f.compute[class] * v
	}
	k.WarpMemory = f.coalesced*m.Coalesced + f.extraTx*m.PerTransaction
	e, err := seed.ExecTime(k, l.Occ, env.Device.SMs)
	if err != nil {
		return k, e, 0, err
	}
	return k, e, m.Launch + e.Total/env.Device.ClockHz, nil
}

func xuExplain(k seed.Kernel, e seed.Exec, occ gpus.Occupancy, m *Model) []models.Quantity {
	cover := "N_w·T_C < T_M: latency not hidden"
	if e.Covered {
		cover = "N_w·T_C ≥ T_M: latency hidden"
	}
	return []models.Quantity{
		{Name: "T_Exe", Value: e.Total, Unit: "cycles", Note: "per block group × N_GOB (" + e.Equation + ")"},
		{Name: "launch", Value: m.Launch, Unit: "s", Note: m.Source},
		{Name: "T_C", Value: k.WarpCompute, Unit: "cycles", Note: "a warp's computation (3-20)"},
		{Name: "T_M", Value: k.WarpMemory, Unit: "cycles", Note: "a warp's memory accesses (3-19), (3-26)"},
		{Name: "memory accesses", Value: k.MemAccesses, Note: "global accesses per warp"},
		{Name: "N_w", Value: e.ActiveWarps, Note: "active warps per SM (3-17); " + cover + " (3-16)"},
		{Name: "N_AB", Value: float64(occ.BlocksPerSM), Note: "active blocks per SM, limited by " + strings.Join(occ.Limiters, ", ")},
		{Name: "N_GOB", Value: e.Rounds, Note: "groups of blocks (3-21)"},
		{Name: "per block group", Value: e.PerRound, Unit: "cycles"},
	}
}

// xuFeatures are a launch's per-warp counts.
type xuFeatures struct {
	compute   map[string]float64 // executions per class, "local" and "barrier" included
	accesses  float64            // global accesses, n
	coalesced float64            // global accesses priced at T_Mco (all of them)
	extraTx   float64            // Σ n_access·(c − c_min)
	warps     float64            // N_w
	rounds    float64            // N_GOB
}

func xuFeaturesOf(l *analytic.PreparedLaunch, warpSize int) (xuFeatures, error) {
	f := xuFeatures{compute: map[string]float64{}, warps: float64(l.Occ.ActiveWarps)}
	if l.Occ.BlocksPerSM > 0 {
		f.rounds = float64(l.In.Groups()) / float64(l.Occ.BlocksPerSM)
	}
	line := analytic.FittedLineElems * warpSize
	for _, r := range l.Trace.Regions {
		if r.Barrier {
			f.compute[xuBarrier] += r.Count
			continue
		}
		for _, op := range r.Ops {
			f.compute[op.Class] += r.Count * float64(op.N)
		}
		for _, a := range r.Accesses {
			if a.Array.Space == counts.Local {
				f.compute[xuLocal] += r.Count
				continue
			}
			size := a.Array.DType.Size()
			c, least := warpSize, (size+analytic.FittedLineElems-1)/analytic.FittedLineElems
			if a.Offsets != nil {
				var err error
				if c, err = resios.RequestsForOffsets(a.Offsets, size, line); err != nil {
					return f, err
				}
			}
			f.accesses += r.Count
			f.coalesced += r.Count
			f.extraTx += r.Count * float64(max(c-least, 0))
		}
	}
	for k, v := range f.compute {
		if v == 0 {
			delete(f.compute, k)
		}
	}
	return f, nil
}

// fit fits the constants to rows, alternating between the linear
// relative-error problem for a fixed choice of equation per row and the
// choice the constants make.
func (m *Model) fit(env *models.Env, rows []models.Row) error {
	launches, rows, err := analytic.PrepareRows(env, m.Tracer(), rows)
	if err != nil {
		return err
	}
	feats := make([]xuFeatures, len(rows))
	classes := map[string]bool{}
	for i, l := range launches {
		if feats[i], err = xuFeaturesOf(l, env.Device.Limits.WarpSize); err != nil {
			return fmt.Errorf("%s row %d: %w", rows[i].Table, rows[i].Index, err)
		}
		for c := range feats[i].compute {
			classes[c] = true
		}
	}
	names := append(slices.Sorted(maps.Keys(classes)), xuCoal, xuTx, xuLaunch)
	covered := make([]bool, len(rows))
	for i := range covered {
		covered[i] = true
	}
	best := math.Inf(1)
	seen := map[string]bool{}
	for range 20 {
		key := fmt.Sprint(covered)
		if seen[key] {
			break
		}
		seen[key] = true
		sol, err := analytic.RelFit(names, xuDesign(names, feats, covered, env.Device.SMs, env.Device.ClockHz), rows)
		if err != nil {
			return err
		}
		cand := xuFromSolution(names, sol)
		pred := make([]float64, len(rows))
		for i, l := range launches {
			k, e, secs, err := cand.exec(env, feats[i], l)
			if err != nil {
				return fmt.Errorf("%s row %d: %w", rows[i].Table, rows[i].Index, err)
			}
			pred[i] = secs
			covered[i] = e.Covered || k.MemAccesses == 0
		}
		if obj := analytic.RelObjective(pred, rows); obj < best {
			best = obj
			m.FitRows, m.FitRMS = len(rows), math.Sqrt(obj/float64(len(rows)))
			m.Cycles, m.Coalesced, m.PerTransaction, m.Launch = cand.Cycles, cand.Coalesced, cand.PerTransaction, cand.Launch
		}
	}
	m.Source = "constants fitted to the measurement rows"
	return nil
}

// xuDesign builds the features of the linear problem: per row the
// multipliers of each constant in seconds, (3-22) for covered rows and
// (4-5) for the others.
func xuDesign(names []string, feats []xuFeatures, covered []bool, sms int, clock float64) [][]float64 {
	out := make([][]float64, len(feats))
	for i, f := range feats {
		rounds := f.rounds / float64(sms) / clock
		comp, mem := rounds*f.warps, 0.0
		if f.accesses > 0 {
			mem = rounds / f.accesses
		}
		if !covered[i] && f.accesses > 0 {
			comp, mem = rounds*(1+(f.warps-1)/f.accesses), rounds
		}
		row := make([]float64, len(names))
		for j, n := range names {
			switch n {
			case xuCoal:
				row[j] = mem * f.coalesced
			case xuTx:
				row[j] = mem * f.extraTx
			case xuLaunch:
				row[j] = 1
			default:
				row[j] = comp * f.compute[n]
			}
		}
		out[i] = row
	}
	return out
}

func xuFromSolution(names []string, sol []float64) *Model {
	m := &Model{Cycles: map[string]float64{}}
	for j, n := range names {
		v := sol[j]
		if math.IsNaN(v) {
			v = 0
		}
		switch n {
		case xuCoal:
			m.Coalesced = v
		case xuTx:
			m.PerTransaction = v
		case xuLaunch:
			m.Launch = v
		default:
			m.Cycles[n] = v
		}
	}
	return m
}
