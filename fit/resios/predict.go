package resios

import (
	"fmt"
	"sort"
	"strings"

	"github.com/uniperf/uniperf/fit/gpus"
)

// Device is a device file's Resios constants, ready to build traces and
// predict.
type Device struct {
	Name     string
	Params   gpus.Resios
	Limits   gpus.Limits
	ClockHz  float64
	SMs      int
	WarpSize int
	// GlobalBytesPerCycle is the global bandwidth of one SM in bytes per
	// cycle: the device's bandwidth shared equally by its SMs, as the
	// thesis does in §7 because it simulates one SM.
	GlobalBytesPerCycle float64
}

// FromDevice reads a device file; a missing constant is a
// *gpus.MissingError.
func FromDevice(d *gpus.Device) (Device, error) {
	p, err := d.ResiosParams()
	if err != nil {
		return Device{}, err
	}
	return Device{
		Name:                d.Name,
		Params:              p,
		Limits:              d.Limits,
		ClockHz:             d.ClockHz,
		SMs:                 d.SMs,
		WarpSize:            d.Limits.WarpSize,
		GlobalBytesPerCycle: BytesPerCycle(d.MemBandwidth, d.ClockHz, d.SMs),
	}, nil
}

// Compute is a compute instruction of the named class of Table 3.1.
func (d Device) Compute(name, class string, ilp, count float64) (Instr, error) {
	c, ok := d.Params.Instructions[class]
	if !ok {
		return Instr{}, fmt.Errorf("resios: device %s has no instruction class %q (it has %s)",
			d.Name, class, strings.Join(classes(d.Params.Instructions), ", "))
	}
	return ComputeInstr(name, c, d.WarpSize, ilp, count), nil
}

func classes(m map[string]gpus.ResiosInstruction) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Global is a global-memory access of elemBytes per thread at the given
// stride in elements (UnknownStride for the worst case).
func (d Device) Global(name string, stride int64, elemBytes int, ilp, count float64) (Instr, error) {
	c, err := RequestsPerWarp(stride, elemBytes, d.WarpSize, int(d.Params.Global.LineBytes))
	if err != nil {
		return Instr{}, err
	}
	return GlobalAccess(name, d.Params.Global, float64(c), d.GlobalBytesPerCycle, ilp, count), nil
}

// Shared is a shared-memory access of elemBytes per thread at the given
// stride in elements.
func (d Device) Shared(name string, stride int64, elemBytes int, ilp, count float64) (Instr, error) {
	s := d.Params.Shared
	c, err := StrideBankConflicts(stride, elemBytes, d.WarpSize, int(s.Banks), int(s.BankWidth))
	if err != nil {
		return Instr{}, err
	}
	return SharedAccess(name, s, d.WarpSize, float64(elemBytes), float64(c), ilp, count), nil
}

// Prediction is (4.1), TIME = OVERHEAD + EXECUTION, with the simulation
// behind it.
type Prediction struct {
	Overhead  float64 // seconds: the kernel launch of (4.3)
	Execution float64 // seconds: the simulated cycles over the clock
	Time      float64 // seconds
	Occupancy gpus.Occupancy
	Sim       Sim
}

// Predict simulates a kernel whose warps run trace, launched as blocks
// blocks of res, and adds the launch overhead. The resident blocks come
// from gpus.ActiveBlocks; units and simulated warps from the device file.
// Transfers and context creation are not part of a kernel's time in
// uniperf's measurements; Overhead prices them separately.
func (d Device) Predict(trace []Instr, blocks int64, res gpus.Resources) (Prediction, error) {
	occ, err := gpus.ActiveBlocks(d.Limits, res)
	if err != nil {
		return Prediction{}, err
	}
	sim := d.Params.Simulation
	s, err := Simulate(trace, Launch{
		Blocks:         blocks,
		WarpsPerBlock:  occ.WarpsPerBlock,
		SMs:            d.SMs,
		ResidentBlocks: occ.BlocksPerSM,
		ComputeUnits:   sim.ComputeUnits,
		MemoryUnits:    sim.MemoryUnits,
		MaxSimWarps:    sim.MaxSimWarps,
	})
	if err != nil {
		return Prediction{}, err
	}
	overhead, err := Overhead(d.Params.Overhead, 0, false)
	if err != nil {
		return Prediction{}, err
	}
	p := Prediction{Overhead: overhead, Execution: s.Cycles / d.ClockHz, Occupancy: occ, Sim: s}
	p.Time = p.Overhead + p.Execution
	return p, nil
}

// Explain reports the prediction and the memory hotspots.
func (p Prediction) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "time %.6g s = overhead %.6g s + execution %.6g s (4.1)\n", p.Time, p.Overhead, p.Execution)
	fmt.Fprintf(&b, "occupancy: %d blocks of %d warps per SM (limited by %s)\n",
		p.Occupancy.BlocksPerSM, p.Occupancy.WarpsPerBlock, strings.Join(p.Occupancy.Limiters, ", "))
	fmt.Fprintf(&b, "simulated %d of %d blocks per SM: %.6g cycles, %.6g idle; extrapolated %.6g cycles\n",
		p.Sim.SimulatedBlocks, p.Sim.BlocksPerSM, p.Sim.SimulatedCycles, p.Sim.IdleCycles, p.Sim.Cycles)
	for _, h := range p.Sim.Hotspots {
		fmt.Fprintf(&b, "hotspot %-30s %5.1f%% of idle time\n", h.Name, 100*h.Share)
	}
	return b.String()
}
