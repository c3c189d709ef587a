package gpus

import (
	"fmt"
	"maps"
	"slices"
)

// Device is one device parameter file.
type Device struct {
	// Name is the device's display name, e.g. "GeForce GTX 280".
	Name string `json:"name"`
	// Aliases are other names the device goes by, in particular the name
	// an OpenCL or CUDA runtime reports, which is what measurement tables
	// record in their device column.
	Aliases []string `json:"aliases,omitempty"`
	// Kind is "gpu" or "cpu".
	Kind   string `json:"kind"`
	Vendor string `json:"vendor"`
	// ComputeCapability is NVIDIA's compute capability, e.g. "1.3"; empty
	// for other vendors.
	ComputeCapability string `json:"compute_capability,omitempty"`
	// Sources lists where the numbers of this file come from.
	Sources []string `json:"sources"`
	Notes   string   `json:"notes,omitempty"`

	// SMs is the number of streaming multiprocessors (compute units).
	SMs int `json:"sm_count"`
	// ClockHz is the clock of the SM processors, in Hz.
	ClockHz float64 `json:"clock_hz"`
	// MemBandwidth is the DRAM bandwidth in bytes per second; zero when
	// unknown.
	MemBandwidth float64 `json:"mem_bandwidth_bytes_per_s,omitempty"`

	Limits Limits `json:"limits"`

	// LocalBanks is the layout of the device's local memory (shared
	// memory in CUDA's terms), where it has banks: the layout that the
	// linear model's fit and predictions count bank conflicts with.
	LocalBanks *LocalBanks `json:"local_banks,omitempty"`
	// Caches are the capacities of the device's caches (see Caches).
	Caches *Caches `json:"caches,omitempty"`

	HongKim *HongKim `json:"hongkim,omitempty"`
	Cycles  *Cycles  `json:"cycles,omitempty"`
	Resios  *Resios  `json:"resios,omitempty"`

	// File is where the device was read from ("devices/gtx280.json" for
	// an embedded file); set by Parse's callers, not by the JSON.
	File string `json:"-"`
}

// LocalBanks is a local-memory bank layout: Banks banks of BankBytes
// bytes, consecutive words in consecutive banks, serving warps of Banks
// lanes (16 on compute capability 1.x, whose banks serve half-warps).
type LocalBanks struct {
	Banks     int    `json:"banks"`
	BankBytes int    `json:"bank_bytes"`
	Source    string `json:"source"`
}

// validate checks the layout against what package counts counts for (1
// to 64 banks of 1 to 16 bytes) and that it names its source.
func (b *LocalBanks) validate() error {
	switch {
	case b.Banks < 1 || b.Banks > 64:
		return fmt.Errorf("local_banks.banks must be 1 to 64, have %d", b.Banks)
	case b.BankBytes < 1 || b.BankBytes > 16:
		return fmt.Errorf("local_banks.bank_bytes must be 1 to 16, have %d", b.BankBytes)
	case b.Source == "":
		return fmt.Errorf("local_banks.source is empty: say where the layout comes from")
	}
	return nil
}

// Limits are the per-SM and per-block resource limits that decide how many
// blocks are resident on an SM (Xu's constraints (3-1)–(3-15)), with the
// allocation granularities of the CUDA occupancy calculator.
type Limits struct {
	WarpSize           int `json:"warp_size"`             // N_W
	MaxThreadsPerBlock int `json:"max_threads_per_block"` // N_MTB
	MaxThreadsPerSM    int `json:"max_threads_per_sm"`    // N_MTS
	MaxWarpsPerSM      int `json:"max_warps_per_sm"`      // N_MWS
	MaxBlocksPerSM     int `json:"max_blocks_per_sm"`     // N_MBS

	// RegsPerSM is the register file size in 32-bit registers (R_MRM);
	// zero means registers do not limit residency (CPU devices).
	RegsPerSM        int `json:"regs_per_sm,omitempty"`
	MaxRegsPerBlock  int `json:"max_regs_per_block,omitempty"`  // R_MRB
	MaxRegsPerThread int `json:"max_regs_per_thread,omitempty"` // R_MRT
	// RegAllocUnit is the register allocation unit, in registers.
	RegAllocUnit int `json:"reg_alloc_unit,omitempty"`
	// RegAllocGranularity is "warp" (compute capability 2.0 and later:
	// registers are allocated per warp) or "block" (1.x: per block).
	RegAllocGranularity string `json:"reg_alloc_granularity,omitempty"`
	// RegSubPartitions is the number of register file partitions per SM
	// (1 for 1.x, 2 for 2.x, 4 from 3.0 on); a warp's registers live in one.
	RegSubPartitions int `json:"reg_sub_partitions,omitempty"`
	// WarpAllocGranularity: warps are allocated to blocks in multiples of
	// this (2 for 1.x, 1 later).
	WarpAllocGranularity int `json:"warp_alloc_granularity,omitempty"`

	SharedPerSM       int `json:"shared_per_sm"`                       // M_MSM, bytes
	MaxSharedPerBlock int `json:"max_shared_per_block"`                // M_MSB, bytes
	SharedAllocUnit   int `json:"shared_alloc_unit"`                   // bytes
	SharedReserved    int `json:"shared_reserved_per_block,omitempty"` // bytes the runtime keeps per block (1 KB from 8.0)
}

// Validate checks that the limits are complete, consistent and within
// physical ranges (see the package doc), so that the occupancy arithmetic
// cannot overflow or divide by zero.
func (l Limits) Validate() error {
	for _, r := range l.ranges() {
		if err := r.check(); err != nil {
			return err
		}
	}
	// Eq. (3-4): N_MTS = N_W × N_MWS.
	if l.MaxThreadsPerSM != l.WarpSize*l.MaxWarpsPerSM {
		return fmt.Errorf("limits: max_threads_per_sm %d != warp_size %d × max_warps_per_sm %d",
			l.MaxThreadsPerSM, l.WarpSize, l.MaxWarpsPerSM)
	}
	if l.MaxSharedPerBlock > l.SharedPerSM {
		return fmt.Errorf("limits: max_shared_per_block %d exceeds shared_per_sm %d", l.MaxSharedPerBlock, l.SharedPerSM)
	}
	if l.RegsPerSM == 0 {
		return nil
	}
	for _, r := range l.ranges() {
		if r.optional && r.v == 0 {
			return fmt.Errorf("%s must be positive when regs_per_sm is set, have 0", r.path)
		}
	}
	if l.RegAllocGranularity != "warp" && l.RegAllocGranularity != "block" {
		return fmt.Errorf("limits.reg_alloc_granularity must be \"warp\" or \"block\", have %q", l.RegAllocGranularity)
	}
	return nil
}

// ranges lists the limits' integer fields with their bounds. The register
// fields may be zero only where regs_per_sm is (Validate checks that they
// are all set when it is not).
func (l Limits) ranges() []intRange {
	return []intRange{
		{"limits.warp_size", l.WarpSize, 1, maxLanes, false},
		{"limits.max_threads_per_block", l.MaxThreadsPerBlock, 1, maxThreads, false},
		{"limits.max_threads_per_sm", l.MaxThreadsPerSM, 1, maxThreads, false},
		{"limits.max_warps_per_sm", l.MaxWarpsPerSM, 1, maxThreads, false},
		{"limits.max_blocks_per_sm", l.MaxBlocksPerSM, 1, maxThreads, false},
		{"limits.regs_per_sm", l.RegsPerSM, 1, maxRegs, true},
		{"limits.max_regs_per_block", l.MaxRegsPerBlock, 1, maxRegs, true},
		{"limits.max_regs_per_thread", l.MaxRegsPerThread, 1, maxRegsThrd, true},
		{"limits.reg_alloc_unit", l.RegAllocUnit, 1, maxRegsUnit, true},
		{"limits.reg_sub_partitions", l.RegSubPartitions, 1, maxLanes, true},
		{"limits.warp_alloc_granularity", l.WarpAllocGranularity, 1, maxLanes, true},
		{"limits.shared_per_sm", l.SharedPerSM, 0, maxShared, false},
		{"limits.max_shared_per_block", l.MaxSharedPerBlock, 0, maxShared, false},
		{"limits.shared_alloc_unit", l.SharedAllocUnit, 1, maxSharedAU, false},
		{"limits.shared_reserved_per_block", l.SharedReserved, 0, maxShared, false},
	}
}

// HongKim holds the memory-model constants of Hong and Kim's MWP–CWP model
// (seed 002, Table 1 rows 2, 5–7, 19, 20), in SM cycles.
type HongKim struct {
	MemLD              float64 `json:"mem_ld"`
	DepartureDelCoal   float64 `json:"departure_del_coal"`
	DepartureDelUncoal float64 `json:"departure_del_uncoal"`
	IssueCycles        float64 `json:"issue_cycles"`
	// CoalPerMW is #Coal_per_mw, the transactions of a coalesced warp
	// access of 4-byte elements (Table 1 row 19). Equations (10)–(27) do
	// not use it, and the models derive a kernel's transactions and
	// bytes from SegmentBytes and its element sizes; where both are
	// given, TestCoalPerMWMatchesSegments checks that they agree.
	CoalPerMW float64 `json:"coal_per_mw"`
	// UncoalPerMW is the number of transactions of an uncoalesced warp
	// access; zero means it depends on the kernel's access pattern
	// (compute capability 1.3, Table 3's "[12]").
	UncoalPerMW float64 `json:"uncoal_per_mw,omitempty"`
	// SegmentBytes is the size of one memory transaction (a sector), from
	// which the transactions of a kernel's uncoalesced access follow where
	// UncoalPerMW is zero (zero means 128 bytes), and the bytes a warp
	// access moves, Load_bytes_per_warp (zero means the paper's warp width
	// times the element size); see package fit/models/analytic.
	SegmentBytes float64 `json:"segment_bytes,omitempty"`
	Source       string  `json:"source"`
}

// Cycles holds the per-instruction-class cycle weights of the
// cycle-weighted model (seed 004).
type Cycles struct {
	Weights map[string]float64 `json:"weights"`
	Source  string             `json:"source"`
}

// Resios holds the constants of Resios's latency/throughput model
// (seed 000, Table 3.1 and §4).
type Resios struct {
	// Instructions maps an instruction class ("fadd", "fmul", "madd", ...)
	// to its latency, throughput and the parallelism that reaches peak.
	Instructions map[string]ResiosInstruction `json:"instructions"`
	Global       ResiosGlobal                 `json:"global"`
	Shared       ResiosShared                 `json:"shared"`
	Overhead     ResiosOverhead               `json:"overhead"`
	Simulation   ResiosSimulation             `json:"simulation"`
	Source       string                       `json:"source"`
}

// ResiosInstruction is one row of Resios's Table 3.1.
type ResiosInstruction struct {
	Latency    float64 `json:"latency"`    // cycles
	Throughput float64 `json:"throughput"` // thread operations per cycle per SM
	PeakWarps  float64 `json:"peak_warps"` // max_i of (4.5)
}

// ResiosGlobal are the global-memory constants of (4.6)–(4.8).
type ResiosGlobal struct {
	Latency     float64 `json:"latency"`      // cycles
	MaxParallel float64 `json:"max_parallel"` // max_p, warps
	LineBytes   float64 `json:"line_bytes"`   // transaction size
}

// ResiosShared are the shared-memory constants of (4.6), (4.7), (4.9).
type ResiosShared struct {
	Latency       float64 `json:"latency"`        // cycles
	MaxParallel   float64 `json:"max_parallel"`   // max_p, warps
	Banks         float64 `json:"banks"`          // n_banks
	BankWidth     float64 `json:"bank_width"`     // bytes per bank word
	BankBandwidth float64 `json:"bank_bandwidth"` // bytes per cycle per bank
}

// ResiosOverhead are the constants of (4.2) and (4.3).
type ResiosOverhead struct {
	LaunchSeconds       float64 `json:"launch_s"`
	ContextInitSeconds  float64 `json:"context_init_s"`
	TransferPeakMBps    float64 `json:"transfer_peak_mb_per_s"`
	TransferSlope       float64 `json:"transfer_slope_mb_per_s_per_mb"`
	TransferInterceptMB float64 `json:"transfer_intercept_mb_per_s"`
}

// ResiosSimulation are the free parameters of the warp simulation (§5.2.1).
type ResiosSimulation struct {
	ComputeUnits int `json:"compute_units"`
	MemoryUnits  int `json:"memory_units"`
	MaxSimWarps  int `json:"max_sim_warps"`
	// LatencyHidingFactor is c of the launch-configuration heuristic
	// (4 for CUDA 2.1).
	LatencyHidingFactor float64 `json:"latency_hiding_factor"`
}

type field struct {
	path string // JSON path
	v    float64
}

// require returns a *MissingError for the first field that is not positive.
func (d *Device) require(model string, fields ...field) error {
	for _, f := range fields {
		if !(f.v > 0) {
			return &MissingError{File: d.file(), Field: f.path, Model: model}
		}
	}
	return nil
}

func (d *Device) file() string {
	if d.File == "" {
		return "(" + d.Name + ")"
	}
	return d.File
}

// fields lists the section's numbers by JSON path; a model needs the
// required ones, the others may be absent.
func (h *HongKim) fields() (required, optional []field) {
	required = []field{
		{"hongkim.mem_ld", h.MemLD},
		{"hongkim.departure_del_coal", h.DepartureDelCoal},
		{"hongkim.departure_del_uncoal", h.DepartureDelUncoal},
		{"hongkim.issue_cycles", h.IssueCycles},
	}
	optional = []field{{"hongkim.coal_per_mw", h.CoalPerMW}, {"hongkim.uncoal_per_mw", h.UncoalPerMW},
		{"hongkim.segment_bytes", h.SegmentBytes}}
	return required, optional
}

func (r *Resios) fields() (required, optional []field) {
	for _, name := range slices.Sorted(maps.Keys(r.Instructions)) {
		in, p := r.Instructions[name], "resios.instructions."+name
		required = append(required,
			field{p + ".latency", in.Latency}, field{p + ".throughput", in.Throughput}, field{p + ".peak_warps", in.PeakWarps})
	}
	g, s, o, sim := r.Global, r.Shared, r.Overhead, r.Simulation
	required = append(required,
		field{"resios.global.latency", g.Latency},
		field{"resios.global.max_parallel", g.MaxParallel},
		field{"resios.global.line_bytes", g.LineBytes},
		field{"resios.shared.latency", s.Latency},
		field{"resios.shared.max_parallel", s.MaxParallel},
		field{"resios.shared.banks", s.Banks},
		field{"resios.shared.bank_width", s.BankWidth},
		field{"resios.shared.bank_bandwidth", s.BankBandwidth},
		field{"resios.overhead.launch_s", o.LaunchSeconds},
		field{"resios.simulation.compute_units", float64(sim.ComputeUnits)},
		field{"resios.simulation.memory_units", float64(sim.MemoryUnits)},
		field{"resios.simulation.max_sim_warps", float64(sim.MaxSimWarps)},
		field{"resios.simulation.latency_hiding_factor", sim.LatencyHidingFactor})
	optional = []field{
		{"resios.overhead.context_init_s", o.ContextInitSeconds},
		{"resios.overhead.transfer_peak_mb_per_s", o.TransferPeakMBps},
		{"resios.overhead.transfer_slope_mb_per_s_per_mb", o.TransferSlope},
		{"resios.overhead.transfer_intercept_mb_per_s", o.TransferInterceptMB},
	}
	return required, optional
}

// HongKimParams returns the device's Hong–Kim constants, or a
// *MissingError naming the first one that is absent. UncoalPerMW may be
// zero (kernel-dependent), and CoalPerMW is not required: equations
// (10)–(27) never use it, a coalesced warp access being one transaction.
func (d *Device) HongKimParams() (HongKim, error) {
	const model = "hongkim"
	if d.HongKim == nil {
		return HongKim{}, &MissingError{File: d.file(), Field: "hongkim", Model: model, Section: true}
	}
	required, _ := d.HongKim.fields()
	if err := d.require(model, append([]field{{"mem_bandwidth_bytes_per_s", d.MemBandwidth}}, required...)...); err != nil {
		return HongKim{}, err
	}
	return *d.HongKim, nil
}

// HongKimFixedParams returns the device's Hong–Kim constants that
// calibration does not fit: the bandwidth and Issue_cycles must be present,
// or a *MissingError names the first that is absent. Mem_LD and the two
// departure delays may be zero, because calibration against measurements
// fits them (the paper fitted them to micro-benchmarks, §5.1).
func (d *Device) HongKimFixedParams() (HongKim, error) {
	const model = "hongkim"
	if d.HongKim == nil {
		return HongKim{}, &MissingError{File: d.file(), Field: "hongkim", Model: model, Section: true}
	}
	err := d.require(model, field{"mem_bandwidth_bytes_per_s", d.MemBandwidth},
		field{"hongkim.issue_cycles", d.HongKim.IssueCycles})
	if err != nil {
		return HongKim{}, err
	}
	return *d.HongKim, nil
}

// ResiosParams returns the device's Resios constants, or a *MissingError
// naming the first one that is absent. The transfer and context overheads
// are optional: a kernel's time includes only the launch.
func (d *Device) ResiosParams() (Resios, error) {
	const model = "resios"
	if d.Resios == nil {
		return Resios{}, &MissingError{File: d.file(), Field: "resios", Model: model, Section: true}
	}
	if len(d.Resios.Instructions) == 0 {
		return Resios{}, &MissingError{File: d.file(), Field: "resios.instructions", Model: model}
	}
	required, _ := d.Resios.fields()
	if err := d.require(model, append([]field{{"mem_bandwidth_bytes_per_s", d.MemBandwidth}}, required...)...); err != nil {
		return Resios{}, err
	}
	return *d.Resios, nil
}

// CycleWeights returns the device's cycle weights for the cycle-weighted
// model, each class falling back to defaults where the file has none. The
// second result says where the weights came from.
func (d *Device) CycleWeights(defaults map[string]float64) (map[string]float64, string) {
	w := make(map[string]float64, len(defaults))
	for k, v := range defaults {
		w[k] = v
	}
	if d.Cycles == nil || len(d.Cycles.Weights) == 0 {
		return w, "defaults"
	}
	for k, v := range d.Cycles.Weights {
		w[k] = v
	}
	return w, d.file()
}
