package hongkim

import (
	"fmt"
	"math"

	"github.com/uniperf/uniperf/fit/gpus"
)

// Machine holds the device parameters of Table 1 (rows 1–7) and the SM
// count. Latencies and delays are in SM cycles.
type Machine struct {
	ThreadsPerWarp     int     // #Threads_per_warp
	IssueCycles        float64 // Issue_cycles: cycles to issue one warp instruction
	Freq               float64 // Freq: SM clock, Hz
	MemBandwidth       float64 // Mem_Bandwidth: bytes per second
	MemLD              float64 // Mem_LD: DRAM round trip of one transaction
	DepartureDelCoal   float64 // Departure_del_coal
	DepartureDelUncoal float64 // Departure_del_uncoal
	SMs                int     // SMs of the device
	// UncoalPerMW is the device's #Uncoal_per_mw (32 before compute
	// capability 1.3); zero when it depends on the kernel.
	UncoalPerMW float64
}

// MachineFromDevice reads a device file's Hong–Kim parameters. A missing
// one is a *gpus.MissingError naming the file and field.
func MachineFromDevice(d *gpus.Device) (Machine, error) {
	h, err := d.HongKimParams()
	if err != nil {
		return Machine{}, err
	}
	return Machine{
		ThreadsPerWarp:     d.Limits.WarpSize,
		IssueCycles:        h.IssueCycles,
		Freq:               d.ClockHz,
		MemBandwidth:       d.MemBandwidth,
		MemLD:              h.MemLD,
		DepartureDelCoal:   h.DepartureDelCoal,
		DepartureDelUncoal: h.DepartureDelUncoal,
		SMs:                d.SMs,
		UncoalPerMW:        h.UncoalPerMW,
	}, nil
}

// Kernel holds the program parameters of Table 1 (rows 8–21). Instruction
// counts are dynamic counts per thread; computation instructions include
// shared-memory accesses and synchronization instructions, as in the paper's
// example (§3.6).
type Kernel struct {
	ThreadsPerBlock int   // #Threads_per_block
	Blocks          int64 // #Blocks
	// ActiveBlocksPerSM is the occupancy limit, e.g. from gpus.ActiveBlocks.
	ActiveBlocksPerSM int
	CompInsts         float64 // #Comp_insts
	CoalMemInsts      float64 // #Coal_Mem_insts
	UncoalMemInsts    float64 // #Uncoal_Mem_insts
	SynchInsts        float64 // #Synch_insts
	// UncoalPerMW is #Uncoal_per_mw for this kernel; zero takes the
	// machine's.
	UncoalPerMW float64
	// LoadBytesPerWarp is Load_bytes_per_warp, the data size times the
	// warp width (128 for 4-byte accesses by 32 threads).
	LoadBytesPerWarp float64
}

// Result holds every quantity of equations (5)–(27), named after the paper.
type Result struct {
	ActiveSMs         float64 // #Active_SMs
	ActiveBlocksPerSM float64 // #Active_blocks_per_SM
	N                 float64 // (20) #Active_warps_per_SM
	Rep               float64 // (21) #Rep
	MemInsts          float64 // #Mem_insts
	TotalInsts        float64 // #Total_insts

	MemLUncoal     float64 // (10)
	MemLCoal       float64 // (11)
	WeightUncoal   float64 // (13)
	WeightCoal     float64 // (14)
	MemL           float64 // (12)
	DepartureDelay float64 // (15)

	MWPWithoutBWFull float64 // (16)
	MWPWithoutBW     float64 // (17)
	BWPerWarp        float64 // (7), bytes per second
	MWPPeakBW        float64 // (6)
	MWP              float64 // (5)

	CompCycles float64 // (19)
	MemCycles  float64 // (18)
	CWPFull    float64 // (8)
	CWP        float64 // (9)

	// Equation is the case used for ExecCyclesApp: 22, 23 or 24.
	Equation      int
	ExecCyclesApp float64 // (22), (23) or (24)
	// BandwidthGuard reports that MWP < 1 and (24) was chosen but (23)'s
	// memory time Mem_cycles·N/MWP·#Rep was longer and was taken instead
	// (see the package documentation, "MWP below one").
	BandwidthGuard bool
	SynchCost      float64 // (26)
	ExecCycles     float64 // (27) Exec_cycles_with_synch
	CPI            float64 // (25)
	Seconds        float64 // ExecCycles / Freq
}

// Predict evaluates the model for kernel k on machine m.
func Predict(m Machine, k Kernel) (Result, error) {
	if err := m.check(); err != nil {
		return Result{}, err
	}
	if err := k.check(m); err != nil {
		return Result{}, err
	}
	var r Result
	r.launch(m, k)
	r.memory(m, k)
	r.CompCycles = m.IssueCycles * r.TotalInsts // (19)
	if r.MemInsts > 0 {
		r.CWPFull = (r.MemCycles + r.CompCycles) / r.CompCycles // (8)
		r.CWP = math.Min(r.CWPFull, r.N)                        // (9)
	}
	r.execCyclesApp()
	r.synchCost(k.SynchInsts)
	r.ExecCycles = r.ExecCyclesApp + r.SynchCost // (27)
	warpsPerBlock := float64(k.ThreadsPerBlock) / float64(m.ThreadsPerWarp)
	r.CPI = r.ExecCyclesApp / (r.TotalInsts * warpsPerBlock * float64(k.Blocks) / r.ActiveSMs) // (25)
	r.Seconds = r.ExecCycles / m.Freq
	return r, nil
}

// launch sets the occupancy quantities (20), (21).
func (r *Result) launch(m Machine, k Kernel) {
	blocks := float64(k.Blocks)
	r.ActiveSMs = math.Min(float64(m.SMs), blocks)
	r.ActiveBlocksPerSM = math.Min(float64(k.ActiveBlocksPerSM), math.Ceil(blocks/r.ActiveSMs))
	warpsPerBlock := math.Ceil(float64(k.ThreadsPerBlock) / float64(m.ThreadsPerWarp))
	r.N = r.ActiveBlocksPerSM * warpsPerBlock            // (20)
	r.Rep = blocks / (r.ActiveBlocksPerSM * r.ActiveSMs) // (21)
	r.MemInsts = k.CoalMemInsts + k.UncoalMemInsts
	r.TotalInsts = k.CompInsts + r.MemInsts
}

// memory sets the memory quantities (5)–(7), (10)–(18).
func (r *Result) memory(m Machine, k Kernel) {
	if r.MemInsts == 0 {
		return
	}
	uncoalPerMW := k.uncoalPerMW(m)
	r.MemLUncoal = m.MemLD + (uncoalPerMW-1)*m.DepartureDelUncoal // (10)
	r.MemLCoal = m.MemLD                                          // (11)
	r.WeightUncoal = k.UncoalMemInsts / r.MemInsts                // (13)
	r.WeightCoal = k.CoalMemInsts / r.MemInsts                    // (14)
	r.MemL = r.MemLUncoal*r.WeightUncoal + r.MemLCoal*r.WeightCoal
	r.DepartureDelay = m.DepartureDelUncoal*uncoalPerMW*r.WeightUncoal + m.DepartureDelCoal*r.WeightCoal // (15)

	r.MWPWithoutBWFull = r.MemL / r.DepartureDelay                          // (16)
	r.MWPWithoutBW = math.Min(r.MWPWithoutBWFull, r.N)                      // (17)
	r.BWPerWarp = m.Freq * k.LoadBytesPerWarp / r.MemL                      // (7)
	r.MWPPeakBW = m.MemBandwidth / (r.BWPerWarp * r.ActiveSMs)              // (6)
	r.MWP = math.Min(r.MWPWithoutBW, math.Min(r.MWPPeakBW, r.N))            // (5)
	r.MemCycles = r.MemLUncoal*k.UncoalMemInsts + r.MemLCoal*k.CoalMemInsts // (18)
}

// execCyclesApp chooses among (22)–(24) by the rule in the package
// documentation and evaluates it.
func (r *Result) execCyclesApp() {
	if r.MemInsts == 0 {
		r.Equation = 24
		r.ExecCyclesApp = r.CompCycles * r.N * r.Rep
		return
	}
	compP := r.CompCycles / r.MemInsts // (2) Comp_p
	switch {
	case r.MWP == r.N && r.CWP == r.N:
		r.Equation = 22
		r.ExecCyclesApp = (r.MemCycles + r.CompCycles + compP*extraWarps(r.MWP)) * r.Rep
	case r.CompCycles > r.MemCycles:
		r.Equation = 24
		r.ExecCyclesApp = (r.MemL + r.CompCycles*r.N) * r.Rep
	case r.CWP >= r.MWP:
		r.Equation = 23
		r.ExecCyclesApp = (r.MemCycles*r.N/r.MWP + compP*extraWarps(r.MWP)) * r.Rep
	default:
		r.Equation = 24
		r.ExecCyclesApp = (r.MemL + r.CompCycles*r.N) * r.Rep
	}
	// Below one memory warp in flight the memory system, not the issue of
	// computation, bounds the time: (24) must not undercut (23), whose
	// Comp_p·(MWP−1) term is then zero.
	if bw := r.MemCycles * r.N / r.MWP * r.Rep; r.MWP < 1 && r.Equation == 24 && bw > r.ExecCyclesApp {
		r.Equation, r.ExecCyclesApp, r.BandwidthGuard = 23, bw, true
	}
}

// synchCost sets (26): each synchronization costs the departure delays of
// the other memory warps, per active block and repetition.
func (r *Result) synchCost(synchInsts float64) {
	r.SynchCost = r.DepartureDelay * extraWarps(r.MWP) * synchInsts * r.ActiveBlocksPerSM * r.Rep
}

// extraWarps is MWP − 1, the other memory warps of a window, never negative.
func extraWarps(mwp float64) float64 { return math.Max(mwp-1, 0) }

// param is a named number to check.
type param struct {
	name string
	v    float64
}

// checkParams requires finite numbers, positive ones when strict and
// non-negative ones otherwise.
func checkParams(what string, strict bool, ps ...param) error {
	for _, p := range ps {
		if math.IsInf(p.v, 0) || !(p.v > 0 || !strict && p.v == 0) {
			want := "non-negative"
			if strict {
				want = "positive"
			}
			return fmt.Errorf("hongkim: %s parameter %s must be %s and finite, have %g", what, p.name, want, p.v)
		}
	}
	return nil
}

func (m Machine) check() error {
	err := checkParams("machine", true,
		param{"Issue_cycles", m.IssueCycles},
		param{"Freq", m.Freq},
		param{"Mem_Bandwidth", m.MemBandwidth},
		param{"Mem_LD", m.MemLD},
		param{"Departure_del_coal", m.DepartureDelCoal},
		param{"Departure_del_uncoal", m.DepartureDelUncoal},
		param{"#Threads_per_warp", float64(m.ThreadsPerWarp)},
		param{"#SMs", float64(m.SMs)})
	if err != nil {
		return err
	}
	return checkParams("machine", false, param{"#Uncoal_per_mw", m.UncoalPerMW})
}

func (k Kernel) check(m Machine) error {
	err := checkParams("kernel", true,
		param{"#Threads_per_block", float64(k.ThreadsPerBlock)},
		param{"#Blocks", float64(k.Blocks)},
		param{"#Active_blocks_per_SM", float64(k.ActiveBlocksPerSM)})
	if err == nil {
		err = checkParams("kernel", false,
			param{"#Comp_insts", k.CompInsts},
			param{"#Coal_Mem_insts", k.CoalMemInsts},
			param{"#Uncoal_Mem_insts", k.UncoalMemInsts},
			param{"#Synch_insts", k.SynchInsts},
			param{"#Uncoal_per_mw", k.UncoalPerMW},
			param{"Load_bytes_per_warp", k.LoadBytesPerWarp})
	}
	if err != nil {
		return err
	}
	if k.CompInsts+k.CoalMemInsts+k.UncoalMemInsts == 0 {
		return fmt.Errorf("hongkim: the kernel has no instructions")
	}
	if k.CoalMemInsts+k.UncoalMemInsts == 0 {
		return nil
	}
	if k.LoadBytesPerWarp == 0 {
		return fmt.Errorf("hongkim: Load_bytes_per_warp is needed for memory instructions (data size × %d threads per warp)", m.ThreadsPerWarp)
	}
	switch u := k.uncoalPerMW(m); {
	case k.UncoalMemInsts == 0:
	case u == 0:
		return fmt.Errorf("hongkim: #Uncoal_per_mw is unknown: the device leaves it to the kernel, and the kernel gives none")
	case u < 1:
		return fmt.Errorf("hongkim: #Uncoal_per_mw must be at least 1, have %g", u)
	}
	return nil
}

// uncoalPerMW is the kernel's #Uncoal_per_mw, or the machine's when the
// kernel gives none.
func (k Kernel) uncoalPerMW(m Machine) float64 {
	if k.UncoalPerMW > 0 {
		return k.UncoalPerMW
	}
	return m.UncoalPerMW
}
