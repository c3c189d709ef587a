package hongkim

import (
	"fmt"
	"maps"
	"slices"

	"github.com/uniperf/uniperf/fit/gpus"
	seed "github.com/uniperf/uniperf/fit/hongkim"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
)

// Memory are the three memory parameters of Table 1 (rows 5–7), in
// SM cycles.
type Memory struct {
	MemLD              float64 `json:"mem_ld"`
	DepartureDelCoal   float64 `json:"departure_del_coal"`
	DepartureDelUncoal float64 `json:"departure_del_uncoal"`
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
	prices := pricesOf(d)
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
		k.CompInsts += p.Flops[kind] * price(prices, kind)
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

// launch is a launch's program parameters, the share of its global
// accesses that are memory instructions (1 under TrafficPaper), and
// whether some of them are at data-chosen addresses (gathers, scatters,
// atomics: analytic.PerThread.Addressed) or of 1- or 2-byte elements
// (analytic.PerThread.Narrow), which calibration leaves out.
type launch struct {
	k         seed.Kernel
	dram      float64
	addressed bool
	narrow    bool
}

// launchKernel derives a launch's program parameters under the traffic
// option: with TrafficHierarchy, the share of its global accesses that
// caches served (1 − analytic.DRAMShare) issue as computation instructions
// instead of memory instructions.
func launchKernel(env *models.Env, d *gpus.Device, fixed gpus.HongKim, c models.Case, regs int, traffic string) (launch, error) {
	in, err := env.Inputs(c)
	if err != nil {
		return launch{}, err
	}
	k, err := hongKimKernel(d, fixed, in, regs)
	if err != nil {
		return launch{k, 1, false, false}, err
	}
	p, err := analytic.PerThreadOf(in)
	if err != nil {
		return launch{}, err
	}
	if traffic != TrafficHierarchy {
		return launch{k, 1, p.Addressed > 0, p.Narrow > 0}, nil
	}
	share := analytic.DRAMShare(env, c, in)
	mem := k.CoalMemInsts + k.UncoalMemInsts
	k.CoalMemInsts *= share
	k.UncoalMemInsts *= share
	k.CompInsts += (1 - share) * mem
	return launch{k, share, p.Addressed > 0, p.Narrow > 0}, nil
}

// launches derives and keeps the program parameters of launches, by
// kernel, consts and parameters, for one device, register count and
// traffic option. A fold of cross-validation reads the kernels of the fit
// it starts from (Model.CalibrateFold): the hierarchy counts behind
// TrafficHierarchy take a minute a table.
type launches struct {
	regs    int
	traffic string
	known   map[string]launch
	from    *launches
}

func newLaunches(regs int, traffic string, from *launches) *launches {
	return &launches{regs: regs, traffic: traffic, known: map[string]launch{}, from: from}
}

// launch returns c's launch (launchKernel), and keeps it.
func (l *launches) launch(env *models.Env, d *gpus.Device, fixed gpus.HongKim, c models.Case) (launch, error) {
	if k, ok := l.lookup(c); ok {
		return k, nil
	}
	k, err := launchKernel(env, d, fixed, c, l.regs, l.traffic)
	if err == nil {
		l.known[launchKey(c)] = k
	}
	return k, err
}

// lookup returns c's kept launch, without changing l (a calibrated model
// predicts from several goroutines).
func (l *launches) lookup(c models.Case) (launch, bool) {
	key := launchKey(c)
	for ; l != nil; l = l.from {
		if k, ok := l.known[key]; ok {
			return k, true
		}
	}
	return launch{}, false
}

// launchKey identifies a launch: kernel, consts and parameters (fmt
// prints maps in key order).
func launchKey(c models.Case) string { return fmt.Sprint(c.Kernel, c.Consts, c.Params) }
