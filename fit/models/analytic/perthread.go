// # The analytical models on uniperf's counts
//
// Hong and Kim's MWP–CWP model ("hongkim", seed 002) and the cycle-weighted
// model ("cycles", seed 004) price instructions per thread, while package
// counts counts totals over all work-items. Their inputs are the totals
// divided by the number of work-items launched (a thread is a work-item, a
// block a work-group, a warp the device file's warp_size work-items):
//
//   - #Comp_insts: floating-point operations of every kind and type,
//     integer operations, local loads and stores, and barriers (the paper
//     counts shared-memory accesses and synchronisation as computation,
//     §3.6), each flop priced by its kind's measured cost where the device
//     file has cycle weights (package fit/models/hongkim);
//   - #Coal_Mem_insts: global loads and stores of stride class 0 (every
//     work-item the same address) or 1; #Uncoal_Mem_insts: those of every
//     other class. The global.minldst properties are a term of the linear
//     model, not instructions, and are left out;
//   - #Synch_insts: barriers;
//   - Load_bytes_per_warp: the bytes a warp access moves, averaged over
//     the global accesses by their counts. Where the device file gives
//     hongkim.segment_bytes (32-byte sectors on the H100 and H200, 64-byte
//     lines on the PoCL CPU), memory moves in whole sectors: a warp of 32
//     work-items reading f32 at stride 1 moves 128 bytes (4 sectors), at
//     stride 2 256 bytes (8 sectors: the skipped elements come along), at
//     stride 3 384, at a stride of 8 or more (the >4 class) one sector
//     per work-item, 1024 bytes, and a uniform access one sector. A span
//     that ends inside a sector is not rounded up: the next warp reads the
//     rest of that sector (8 work-items of f32 at stride 1 on the PoCL CPU
//     move 32 bytes, half a line). Without segment_bytes it is the paper's
//     warp width times the element size (128 bytes for 32 work-items of
//     f32, whatever the stride).
//
// Transactions per uncoalesced warp access (#Uncoal_per_mw). Where the
// device file gives hongkim.uncoal_per_mw (32 on compute capability 1.0
// and 1.1), it applies. Otherwise an access of stride s elements of b bytes
// by the W work-items of a warp spans W·s·b bytes and costs one transaction
// per segment it touches, ⌈W·s·b/S⌉, but at most W (one per work-item),
// with S the device file's hongkim.segment_bytes (128 bytes, NVIDIA's
// segment, where absent). The k/>4 class (a stride above 4 or one that
// depends on the parameters) costs W. The kernel's #Uncoal_per_mw is the
// mean over its uncoalesced accesses weighted by their counts. The class
// numerator k (utilization) is not used: the references that fill a
// strided access's gaps issue transactions of their own.
//
// Occupancy. #Active_blocks_per_SM (Hong–Kim) and the occupancy fraction
// O (cycles) come from gpus.ActiveBlocks with the work-group size, the
// kernel's local arrays as shared memory, and the registers per thread the
// caller supplies (RegsPerThread; zero leaves registers out, as the
// counts do not see register allocation).
//
// The cycle-weighted model takes N_threads as the work-items; computation
// as the sum over flop kinds (add, mul, div, pow, exp, special; f32 and
// f64 alike) of the kind's cycle weight times its count per work-item, the
// weights of the device file's cycles section falling back to the seed's
// (a kind without a weight is an error naming it); memAccessGM as global
// loads and stores per work-item times the "global" weight, or, under
// the hierarchy's traffic (package fit/models/cycles, Model.Traffic), the
// share DRAMShare places in DRAM at that weight and the rest as L1 hits;
// memAccessSM as local loads and stores times the "shared" weight. The counts have no FMA class: a fused
// multiply-add is one mul and one add. Integer operations are left out,
// as the seed counts floating-point instructions and seed 001 leaves them
// out of its fit.
//
// Calibration. Hong–Kim's three memory parameters (Mem_LD and the two
// departure delays) are fitted by nonlinear least squares on relative
// error to the measurement rows that stream DRAM, within bounds that the
// device's bandwidth implies (hongkim.Fit, hongkim.BoundsOf), as the
// paper fitted them to micro-benchmarks; Issue_cycles, the clock, the bandwidth and the SM
// count come from the device file. The cycle-weighted model's adjusting
// weight is calibrated per kernel from one measured size (Cycles), and
// Cycles.SizeSensitivity reports how the error moves with that size.
// Compare runs several models on the same rows.
package analytic

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// strideWide is the stride of the k/>4 class: larger than 4 elements, or
// dependent on the parameters.
const strideWide = -1

// GlobalAccess is one global-memory property of a launch: loads or stores
// of one element size and stride class, per work-item.
type GlobalAccess struct {
	Bytes     int     // element size
	stride    int     // elements between adjacent work-items; strideWide for >4
	PerThread float64 // accesses per work-item
}

// coalesced reports whether a warp's accesses fall in one transaction in
// Hong and Kim's sense: uniform (every work-item the same address) or
// unit-stride.
func (a GlobalAccess) Coalesced() bool { return a.stride == 0 || a.stride == 1 }

// PerThread is a launch's counts divided by its work-items, in the
// categories the analytical models price (see the package documentation).
type PerThread struct {
	WorkItems float64
	// flops holds floating-point operations by kind (add, mul, div, pow,
	// exp, special), f32 and f64 together.
	Flops    map[string]float64
	IntOps   float64
	Local    float64 // local loads and stores
	Barriers float64
	Global   []GlobalAccess
	// Addressed is the global accesses per work-item at data-chosen
	// addresses, gathers, scatters and atomics (also in Global): what
	// they cost hangs on the data, which no stride class describes.
	Addressed float64
	// Narrow is the global accesses per work-item of elements narrower
	// than 4 bytes (b8, b16, f16; also in Global). The models issue a
	// warp's access as one instruction whatever its width, where a CPU
	// packs more narrow work-items into one (on the PoCL paper table a
	// copy of 2^21 elements in work-groups of 256, three instructions a
	// work-item, takes 1.10 cycles a warp of 8 work-items on each core in
	// u8, 1.23 in u16 and 3.58 in i32: the narrow copies run in less than
	// their instructions' issue time, 3 cycles at Hong–Kim's Issue_cycles
	// 1), and an f16 access converts to and from f32 in instructions the
	// counts do not see (15.2 cycles a warp for the same copy in f16).
	Narrow float64
}

// PerThreadOf divides the counts of a launch by its work-items.
func PerThreadOf(in *models.Inputs) (*PerThread, error) {
	wi := in.WorkItems()
	if wi <= 0 {
		return nil, fmt.Errorf("kernel %s launches no work-items", in.Kernel.Name)
	}
	p := &PerThread{WorkItems: float64(wi), Flops: map[string]float64{}}
	// In name order, so that the sums and the models fitted to them are
	// the same from run to run to the last bit.
	for _, name := range slices.Sorted(maps.Keys(in.Counts)) {
		v := float64(in.Counts[name]) / p.WorkItems
		switch parts := strings.Split(name, "."); {
		case parts[0] == "flop" && len(parts) == 3:
			p.Flops[parts[2]] += v
		case parts[0] == "int":
			p.IntOps += v
		case parts[0] == "local" && (parts[1] == "load" || parts[1] == "store" || parts[1] == "atomic"):
			// local.<t>.conflict=D counts conflicted accesses a second
			// time; the analytical models price local accesses alike,
			// gathered and atomic ones too.
			p.Local += v
		case name == "sync.barrier":
			p.Barriers += v
		case parts[0] == "global" && len(parts) == 4 && parts[1] != "minldst":
			a, err := globalAccessOf(parts)
			if err != nil {
				return nil, fmt.Errorf("kernel %s: property %s: %w", in.Kernel.Name, name, err)
			}
			a.PerThread = v
			p.Global = append(p.Global, a)
			if parts[1] == "atomic" || parts[2] == "indirect" {
				p.Addressed += v
			}
			if a.Bytes < 4 {
				p.Narrow += v
			}
		}
	}
	return p, nil
}

// globalAccessOf reads a global property name split at its dots: loads
// (readonly ones, global.ldg, too) and stores of a type and stride class,
// and the accesses at data-chosen addresses, gathers and scatters
// (global.load.indirect.f32) and atomic additions (global.atomic.i32.add),
// which no stride describes: the analytical models price them as the >4
// class, one transaction per work-item, as Hong and Kim price an
// uncoalesced access.
func globalAccessOf(parts []string) (GlobalAccess, error) {
	switch {
	case parts[2] == "indirect":
		return parseGlobal(parts[3], "stride=1/>4")
	case parts[1] == "atomic":
		return parseGlobal(parts[2], "stride=1/>4")
	}
	return parseGlobal(parts[2], parts[3])
}

// parseGlobal reads the type and stride class of a global property name,
// "f32" and "stride=1/2" in global.load.f32.stride=1/2.
func parseGlobal(dtype, class string) (GlobalAccess, error) {
	var a GlobalAccess
	switch dtype {
	case "f32", "i32":
		a.Bytes = 4
	case "f64", "i64":
		a.Bytes = 8
	case "b8", "b16", "f16": // the 8- and 16-bit integers' and halves' loads and stores
		a.Bytes = map[string]int{"b8": 1, "b16": 2, "f16": 2}[dtype]
	default:
		return a, fmt.Errorf("unknown element type %q", dtype)
	}
	c, ok := strings.CutPrefix(class, "stride=")
	if !ok {
		return a, fmt.Errorf("no stride class")
	}
	switch _, s, _ := strings.Cut(c, "/"); {
	case c == "0" || c == "1":
		a.stride = int(c[0] - '0')
	case s == ">4":
		a.stride = strideWide
	case s == "2" || s == "3" || s == "4":
		a.stride = int(s[0] - '0')
	default:
		return a, fmt.Errorf("unknown stride class %q", c)
	}
	return a, nil
}

// transactions is the number of memory transactions of segmentBytes that
// one warp access of warp work-items makes at this stride: the warp spans
// warp·stride·bytes bytes, one transaction per segment, at most one per
// work-item. The >4 class is one per work-item.
func (a GlobalAccess) Transactions(warp int, segmentBytes float64) float64 {
	if a.stride == strideWide {
		return float64(warp)
	}
	span := float64(warp * max(a.stride, 1) * a.Bytes)
	return math.Min(float64(warp), math.Ceil(span/segmentBytes))
}

// WarpBytes is the bytes one warp access of warp work-items moves. With
// sectorBytes > 0 (the device file's hongkim.segment_bytes), memory moves
// in whole sectors: each work-item of a stride-s access claims the s
// elements from its own to the next one's, all of which its sectors
// bring in, up to one whole sector when the stride reaches past it (the
// >4 class: one sector per work-item); a uniform access moves one sector.
// A warp whose span ends inside a sector shares that sector with the next
// warp, which reads the rest of it, so a span is not rounded up to whole
// sectors. Without a sector size it is the warp width times the element
// size, as Hong and Kim's Load_bytes_per_warp.
func (a GlobalAccess) WarpBytes(warp int, sectorBytes float64) float64 {
	b := float64(a.Bytes)
	switch {
	case sectorBytes <= 0:
		return float64(warp) * b
	case a.stride == 0:
		return math.Ceil(b/sectorBytes) * sectorBytes
	case a.stride == strideWide:
		return float64(warp) * math.Ceil(b/sectorBytes) * sectorBytes
	}
	return float64(warp) * math.Min(float64(a.stride)*b, math.Ceil(b/sectorBytes)*sectorBytes)
}

// OccupancyOf is gpus.ActiveBlocks for a launch on a device: a work-group is
// a block, its local memory the block's shared memory.
func OccupancyOf(d *gpus.Device, in *models.Inputs, regsPerThread int) (gpus.Occupancy, error) {
	group, local := in.GroupSize(), in.LocalBytes
	if group > math.MaxInt32 || local > math.MaxInt32 {
		return gpus.Occupancy{}, fmt.Errorf("kernel %s: work-group of %d work-items and %d bytes of local memory is beyond any device", in.Kernel.Name, group, local)
	}
	o, err := gpus.ActiveBlocks(d.Limits, gpus.Resources{ThreadsPerBlock: int(group), RegsPerThread: regsPerThread, SharedPerBlock: int(local)})
	if err != nil {
		return gpus.Occupancy{}, fmt.Errorf("kernel %s on %s (%s): %w", in.Kernel.Name, d.Name, d.File, err)
	}
	return o, nil
}
