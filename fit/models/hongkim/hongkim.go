package hongkim

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/fit/gpus"
	seed "github.com/uniperf/uniperf/fit/hongkim"
	"github.com/uniperf/uniperf/fit/models"
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
	// Traffic is what a global access stands for: TrafficPaper (seed
	// 002's, every access to DRAM) or TrafficHierarchy (uniperf's
	// extension, the share the hierarchy counts place in DRAM). Calibrate
	// sets the device's DefaultTraffic where it is empty; a calibration
	// file written before the option has none and is read as
	// TrafficPaper.
	Traffic string `json:"traffic,omitempty"`
	// Device is the name of the device calibrated for.
	Device string `json:"device"`
	// Memory holds the memory parameters predictions use.
	Memory Memory `json:"memory"`
	// Fit reports how Calibrate fitted Memory, under the key "calibration"
	// of calibration files; nil when the parameters came from the device
	// file.
	Fit *Fit `json:"calibration,omitempty"`
	// launches are the calibration rows' program parameters, which the
	// folds calibrated from this fit read (CalibrateFold).
	launches *launches
}

// DefaultTraffic is the traffic option that Calibrate gives a Model that
// names none, by the device file's kind, as leave-one-class-out
// cross-validation on the shipped tables' measurement rows chose it
// (geometric-mean error, paper then hierarchy traffic): on the GPUs the
// hierarchy's (H100 CUDA 0.460, 0.392; H200 CUDA 0.448, 0.398; H100
// OpenCL 0.509, 0.449; H200 OpenCL 0.515, 0.444), on the CPU through
// PoCL the paper's (paper suite 0.543, 0.566 on its 1547 rows, 0.445,
// 0.467 on the 1268 before its 1- and 2-byte rows; quick suite 0.617,
// 0.669).
func DefaultTraffic(kind string) string {
	if kind == "cpu" {
		return TrafficPaper
	}
	return TrafficHierarchy
}

// traffic returns m's traffic option. Calibration sets one; a model
// without one was read from a calibration file written before the
// option, under seed 002's traffic.
func (m *Model) traffic() string {
	if m.Traffic == "" {
		return TrafficPaper
	}
	return m.Traffic
}

// withTraffic checks m's traffic option, setting the device's
// DefaultTraffic where it names none.
func (m *Model) withTraffic(env *models.Env) error {
	switch m.Traffic {
	case "":
		m.Traffic = DefaultTraffic("")
		if env.Device != nil {
			m.Traffic = DefaultTraffic(env.Device.Kind)
		}
	case TrafficPaper, TrafficHierarchy:
	default:
		return fmt.Errorf("hongkim: traffic %q: give %q or %q", m.Traffic, TrafficHierarchy, TrafficPaper)
	}
	return nil
}

// Name implements Model.
func (m *Model) Name() string { return "hongkim" }

// Calibrate implements Model. Without rows it takes the memory parameters
// from the device file, which must then have them all; with rows it fits
// them (Fit).
func (m *Model) Calibrate(env *models.Env, rows []models.Row) error {
	if err := m.withTraffic(env); err != nil {
		return err
	}
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
		m.Fit, m.launches = nil, nil
		return nil
	}
	return m.calibrateFrom(env, d, fixed, rows, nil)
}

// CalibrateFold implements models.FoldCalibrator, for uniperf compare
// --cv: a fold keeps the rows rule that full, fitted on every measurement
// row, chose by its own leave-one-class-out comparison, and refits the
// memory parameters from full's with a local search (no grid), as that
// comparison refits its own folds. Repeating the rule's cross-validation
// inside every fold made compare --cv take minutes a table. A full model
// of another device or configuration, or not fitted to rows, gives a
// calibration from scratch.
func (m *Model) CalibrateFold(env *models.Env, rows []models.Row, full models.Model) error {
	if err := m.withTraffic(env); err != nil {
		return err
	}
	f, ok := full.(*Model)
	if !ok || f.Fit == nil || len(rows) == 0 || env.Device == nil || f.Device != env.Device.Name || f.RegsPerThread != m.RegsPerThread || f.traffic() != m.traffic() {
		return m.Calibrate(env, rows)
	}
	d, fixed, err := hongKimDevice(env)
	if err != nil {
		return err
	}
	m.Device = d.Name
	return m.calibrateFrom(env, d, fixed, rows, f)
}

// calibrateFrom fits the memory parameters to rows, from scratch or from
// another fit (calibrateHongKim).
func (m *Model) calibrateFrom(env *models.Env, d *gpus.Device, fixed gpus.HongKim, rows []models.Row, from *Model) error {
	var known *launches
	var start *refit
	if from != nil {
		known, start = from.launches, &refit{from.Fit.Rule, from.Memory}
	}
	l := newLaunches(m.RegsPerThread, m.traffic(), known)
	mem, c, err := calibrateHongKim(env, d, fixed, l, rows, start)
	if err != nil {
		return err
	}
	m.Memory, m.Fit, m.launches = mem, c, l
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
	la, ok := m.launches.lookup(c)
	if !ok {
		la, err = launchKernel(env, d, fixed, c, m.RegsPerThread, m.traffic())
	}
	if err != nil {
		return models.Prediction{}, err
	}
	k := la.k
	r, err := seed.Predict(hongKimMachine(d, fixed, m.Memory), k)
	if err != nil {
		return models.Prediction{}, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	return models.Prediction{Seconds: r.Seconds, Explain: hongKimExplain(k, r, fixed, la.dram, m.traffic())}, nil
}

// hongKimExplain lists a prediction's inputs and intermediate quantities.
func hongKimExplain(k seed.Kernel, r seed.Result, fixed gpus.HongKim, dram float64, traffic string) []models.Quantity {
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
	dramNote, compNote, memNote := "seed 002: every global access from DRAM", "flops, integer ops, local loads and stores, barriers", ""
	if traffic == TrafficHierarchy {
		dramNote = "of the global bytes, placed in DRAM by the hierarchy counts (uniperf's extension)"
		compNote += ", and the global accesses caches served"
		memNote = ", the DRAM share"
	}
	return []models.Quantity{
		q("DRAM share", dram, "", dramNote),
		q("#Comp_insts", k.CompInsts, "per thread", compNote),
		q("#Coal_Mem_insts", k.CoalMemInsts, "per thread", "global accesses of stride 0 and 1"+memNote),
		q("#Uncoal_Mem_insts", k.UncoalMemInsts, "per thread", "global accesses of other strides"+memNote),
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
		q("Exec_cycles_app", r.ExecCyclesApp, "cycles", r.Case()),
		q("Synch_cost", r.SynchCost, "cycles", "(26)"),
		q("Exec_cycles_with_synch", r.ExecCycles, "cycles", "(27)"),
	}
}

// Summary implements Model: the memory parameters and how their fit went.
func (m *Model) Summary() string {
	s := fmt.Sprintf("Mem_LD %.4g, Departure_del_coal %.4g, Departure_del_uncoal %.4g cycles (%s traffic)", m.Memory.MemLD, m.Memory.DepartureDelCoal, m.Memory.DepartureDelUncoal, m.traffic())
	if cal := m.Fit; cal != nil {
		s += fmt.Sprintf(", fitted on %d rows (training error %s, RMS relative error %.3g)", cal.Rows, models.ErrorText(cal.GeoMeanRelativeError), cal.RMSRelativeError)
		if len(cal.Held) > 0 {
			s += "; held at the start, no row exercises them: " + strings.Join(cal.Held, ", ")
		}
		s += fmt.Sprintf(" by the %s rule (%d rows without global accesses, %d with gathers, scatters or atomics, %d with 1- or 2-byte elements and %d cache-served left out", cal.Rule, cal.Compute, cal.Addressed, cal.Narrow, cal.Cached)
		for i, r := range cal.RuleCV {
			sep := ", "
			if i == 0 {
				sep = "; leave-one-class-out errors: "
			}
			s += fmt.Sprintf("%s%s %.3g", sep, r.Rule, r.Error)
		}
		s += ")"
		s += fmt.Sprintf("; bounds Mem_LD %.4g–%.4g, departure delays %.4g–Mem_LD", cal.Bounds.MemLDMin, cal.Bounds.MemLDMax, cal.Bounds.DepartureMin)
		if len(cal.AtBound) > 0 {
			s += " (at a bound: " + strings.Join(cal.AtBound, ", ") + ")"
		}
		if len(cal.Skipped) > 0 {
			s += fmt.Sprintf("; %d rows without instructions left out", len(cal.Skipped))
		}
	}
	return s
}
