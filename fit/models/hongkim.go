package models

import (
	"errors"
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/hongkim"
)

func init() {
	Register("hongkim", func() Model { return &HongKim{} })
}

// HongKim is Hong and Kim's MWP–CWP model (seed 002, package fit/hongkim)
// on uniperf's counts. Its per-thread inputs follow from the counts as the
// package documentation describes; Calibrate fits its three memory
// parameters to measured rows (HongKimCalibration).
type HongKim struct {
	// RegsPerThread is the registers a work-item uses, for occupancy;
	// zero leaves registers out of the occupancy (uniperf's counts do
	// not see register allocation).
	RegsPerThread int `json:"regs_per_thread,omitempty"`
	// Device is the name of the device calibrated for.
	Device string `json:"device"`
	// Memory holds the memory parameters predictions use.
	Memory HongKimMemory `json:"memory"`
	// Calibration reports the fit; nil when the parameters came from the
	// device file.
	Calibration *HongKimCalibration `json:"calibration,omitempty"`
}

// HongKimMemory are the three memory parameters of Table 1 (rows 5–7), in
// SM cycles.
type HongKimMemory struct {
	MemLD              float64 `json:"mem_ld"`
	DepartureDelCoal   float64 `json:"departure_del_coal"`
	DepartureDelUncoal float64 `json:"departure_del_uncoal"`
}

// errNoWork marks a launch a model cannot price because the model sees no
// work in it (the empty kernel): calibration leaves such rows out.
var errNoWork = errors.New("the model sees no work in this kernel")

// Name implements Model.
func (m *HongKim) Name() string { return "hongkim" }

// Calibrate implements Model. Without rows it takes the memory parameters
// from the device file, which must then have them all; with rows it fits
// them (HongKimCalibration).
func (m *HongKim) Calibrate(env *Env, rows []Row) error {
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
		m.Memory = HongKimMemory{h.MemLD, h.DepartureDelCoal, h.DepartureDelUncoal}
		m.Calibration = nil
		return nil
	}
	mem, c, err := calibrateHongKim(env, d, fixed, m.RegsPerThread, rows)
	if err != nil {
		return err
	}
	m.Memory, m.Calibration = mem, c
	return nil
}

// hongKimDevice returns the Env's device with the constants that
// calibration does not fit.
func hongKimDevice(env *Env) (*gpus.Device, gpus.HongKim, error) {
	if env.Device == nil {
		return nil, gpus.HongKim{}, fmt.Errorf("the hongkim model needs a device parameter file (package fit/gpus)")
	}
	fixed, err := env.Device.HongKimFixedParams()
	return env.Device, fixed, err
}

// Predict implements Model. Its explanation is the per-thread inputs
// and every quantity of equations (5)–(27).
func (m *HongKim) Predict(env *Env, c Case) (Prediction, error) {
	if m.Memory.MemLD <= 0 {
		return Prediction{}, fmt.Errorf("hongkim model: not calibrated")
	}
	d, fixed, err := hongKimDevice(env)
	if err != nil {
		return Prediction{}, err
	}
	if d.Name != m.Device {
		return Prediction{}, fmt.Errorf("hongkim model: calibrated for %s, asked to predict on %s", m.Device, d.Name)
	}
	in, err := env.Inputs(c)
	if err != nil {
		return Prediction{}, err
	}
	k, err := hongKimKernel(d, fixed, in, m.RegsPerThread)
	if err != nil {
		return Prediction{}, err
	}
	r, err := hongkim.Predict(hongKimMachine(d, fixed, m.Memory), k)
	if err != nil {
		return Prediction{}, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	return Prediction{Seconds: r.Seconds, Explain: hongKimExplain(k, r, fixed)}, nil
}

// hongKimMachine is the machine of Table 1 with the given memory
// parameters.
func hongKimMachine(d *gpus.Device, fixed gpus.HongKim, mem HongKimMemory) hongkim.Machine {
	return hongkim.Machine{
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
func hongKimKernel(d *gpus.Device, fixed gpus.HongKim, in *Inputs, regs int) (hongkim.Kernel, error) {
	p, err := perThreadOf(in)
	if err != nil {
		return hongkim.Kernel{}, err
	}
	o, err := occupancy(d, in, regs)
	if err != nil {
		return hongkim.Kernel{}, err
	}
	k := hongkim.Kernel{
		ThreadsPerBlock:   int(in.GroupSize()),
		Blocks:            in.Groups(),
		ActiveBlocksPerSM: o.BlocksPerSM,
		CompInsts:         p.intOps + p.local + p.barriers,
		SynchInsts:        p.barriers,
	}
	for _, v := range p.flops {
		k.CompInsts += v
	}
	segment := fixed.SegmentBytes
	if segment == 0 {
		segment = defaultSegmentBytes
	}
	warp := d.Limits.WarpSize
	var bytes, transactions float64
	for _, a := range p.global {
		bytes += a.perThread * float64(a.bytes)
		if a.coalesced() {
			k.CoalMemInsts += a.perThread
			continue
		}
		k.UncoalMemInsts += a.perThread
		transactions += a.perThread * a.transactions(warp, segment)
	}
	if mem := k.CoalMemInsts + k.UncoalMemInsts; mem > 0 {
		k.LoadBytesPerWarp = float64(warp) * bytes / mem
	}
	if k.UncoalMemInsts > 0 && fixed.UncoalPerMW == 0 {
		k.UncoalPerMW = transactions / k.UncoalMemInsts
	}
	if k.CompInsts+k.CoalMemInsts+k.UncoalMemInsts == 0 {
		return k, fmt.Errorf("hongkim: kernel %s: %w (it prices instructions, and this kernel has none)", in.Kernel.Name, errNoWork)
	}
	return k, nil
}

// hongKimExplain lists a prediction's inputs and intermediate quantities.
func hongKimExplain(k hongkim.Kernel, r hongkim.Result, fixed gpus.HongKim) []Quantity {
	q := func(name string, v float64, unit, note string) Quantity {
		return Quantity{Name: name, Value: v, Unit: unit, Note: note}
	}
	uncoal, uncoalNote := k.UncoalPerMW, "from the strides and the warp width"
	switch {
	case k.UncoalMemInsts == 0:
		uncoalNote = "no uncoalesced accesses"
	case uncoal == 0:
		uncoal, uncoalNote = fixed.UncoalPerMW, "the device's"
	}
	return []Quantity{
		q("#Comp_insts", k.CompInsts, "per thread", "flops, integer ops, local loads and stores, barriers"),
		q("#Coal_Mem_insts", k.CoalMemInsts, "per thread", "global accesses of stride 0 and 1"),
		q("#Uncoal_Mem_insts", k.UncoalMemInsts, "per thread", "global accesses of other strides"),
		q("#Synch_insts", k.SynchInsts, "per thread", "barriers"),
		q("#Uncoal_per_mw", uncoal, "transactions", uncoalNote),
		q("Load_bytes_per_warp", k.LoadBytesPerWarp, "bytes", ""),
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
func (m *HongKim) Summary() string {
	s := fmt.Sprintf("Mem_LD %.4g, Departure_del_coal %.4g, Departure_del_uncoal %.4g cycles", m.Memory.MemLD, m.Memory.DepartureDelCoal, m.Memory.DepartureDelUncoal)
	if cal := m.Calibration; cal != nil {
		s += fmt.Sprintf(", fitted on %d rows (training error %s, RMS relative error %.3g)", cal.Rows, errText(cal.GeoMeanRelativeError), cal.RMSRelativeError)
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
