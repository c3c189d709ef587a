package hierarchy

import "fmt"

// Config is one form of the model.
type Config struct {
	// Form is how the terms combine: FormSum adds every term, as seed
	// 001 does; FormMax adds the launch terms to the larger of the
	// memory terms (global.*, mem.*) and the others; FormMaxGroups adds
	// the launch's constant to the largest of the memory terms, the
	// others and the work-groups' fixed cost (launch.groups).
	Form string `json:"form"`
	// Levels adds the traffic terms DRAMBytes and L2Bytes.
	Levels bool `json:"levels"`
	// Reuse drops the global loads that repeat a cell their work-item
	// loaded (counts.ReuseWorkItem) from the load counts.
	Reuse bool `json:"reuse"`
	// Iter prices the reuse between the work-items of a group over a
	// sequential loop by the per-iteration counts (IterFootprints): the
	// loads beyond each group's distinct cells per iteration are left
	// out, as reused loads are, and L2 traffic is the per-iteration
	// footprints, where a group's working set over IterWindow iterations
	// fits L1.
	Iter bool `json:"iter,omitempty"`
	// IterL1, with Iter, prices the shared loads left out of the load
	// properties by a weight of their own, L1Loads, rather than at
	// nothing.
	IterL1 bool `json:"iter_l1,omitempty"`
	// Lines places the traffic terms in whole cache lines (LineBytes)
	// where the kernel's lines are counted (counts.Counted.LinesAt),
	// as a CPU moves it: a work-group's lines into L1 while they fit,
	// else each work-item's.
	Lines bool `json:"lines,omitempty"`
	// LineScale, with Lines, multiplies the global accesses by
	// Traffic.LineScale, so that a weight fitted on accesses that use
	// every byte of their lines prices one that uses a sixteenth at
	// sixteen times.
	LineScale bool `json:"line_scale,omitempty"`
	// ScaleContiguous, with LineScale, scales only the contiguous
	// accesses (stride=1): a strided class's weight is fitted on rows
	// whose accesses already move a line each.
	ScaleContiguous bool `json:"scale_contiguous,omitempty"`
	// ScalarLoops prices the strided global accesses that a CPU runs
	// one work-item at a time (Scalar: in a loop of the kernel without
	// a barrier, or in a reduction) as contiguous ones: their stride
	// across work-items is not the order they run in, and the lines
	// they move are the line counts'.
	ScalarLoops bool `json:"scalar_loops,omitempty"`
	// UnrolledSums, with ScalarLoops, leaves vectorised an instruction
	// whose only reductions are over unrolled inames alone (unr or ilp):
	// such a sum is straight-line code, no loop of its own, so that
	// PoCL's loop over the work-items stays innermost and its strided
	// accesses stay strided (vector_sums' x[c, i] over an unrolled c,
	// a filled stride-D load, rather than a contiguous one). Scalar's
	// reduction rule otherwise, as ScalarChain's does for its chains.
	// Not chosen: the development kernels, deciding between forms
	// within 0.02 on cross-validation, chose it on one set of PoCL
	// tables and not on the next, each time by a margin below the
	// corpus's run-to-run spread (docs/model.md).
	UnrolledSums bool `json:"unrolled_sums,omitempty"`
	// CoreShare, with Lines, takes the groups' lines from DRAM once
	// each only while a group's lines fit one core's share of the last
	// cache (its capacity over the compute units), else every line
	// that comes into L1 (Levels.Core).
	CoreShare bool `json:"core_share,omitempty"`
	// Refetch, with CoreShare, prices the lines fetched again because a
	// group's exceed the core's share (Traffic.Refetched) by a weight
	// of their own, RefetchBytes, apart from the DRAM traffic that
	// streams. Chosen on a CPU (PoCL) once the hierarchy suite's column
	// walk (reread_dram, nr = n) pinned its weight, and replaced there by
	// Conflict since. Calibrate leaves it off where no row has such
	// lines.
	Refetch bool `json:"refetch,omitempty"`
	// Conflict, with Lines, prices by a weight of its own, ConflictBytes,
	// the lines that the work-items of a group fetch again from beyond
	// a core's L2 because the walk that brought them reaches too few of
	// its sets (Conflicts): a column walk whose row pitch is a multiple
	// of a large power of two (a 2048-float matrix's 8 KiB) keeps 128
	// lines of a 1 MiB L2, and the next work-item, walking the same
	// lines, misses every one. Chosen on a CPU (PoCL) in Refetch's
	// place. Calibrate leaves it off where no row has such lines, or the
	// device file gives no L2 associativity.
	Conflict bool `json:"conflict,omitempty"`
	// ConflictTLB, with Conflict, prices by a weight of its own,
	// ConflictTLBBytes, the lines of ConflictBytes whose walk also loses
	// its pages from a core's first-level data TLB (TLBConflicts): a
	// walk over more pages than the TLB maps (the device file's
	// caches.l1_dtlb_entries) misses it at each page it comes back to,
	// so that a long walk's lost line waits on a translation too, where
	// a short walk's does not. Chosen on a CPU (PoCL), where the rows'
	// short walks stay within the TLB and their long ones do not;
	// whether the TLB is the cause is not settled (on another CPU a lost
	// line's price followed the walk's length, not its pages:
	// docs/accuracy.md). Calibrate leaves it off where no row has such
	// lines, or the device file gives no TLB.
	ConflictTLB bool `json:"conflict_tlb,omitempty"`
	// LongWalk, with Conflict, prices by a weight of its own,
	// ConflictLongBytes, the lines of ConflictBytes that a walk loses
	// past its LongKnee-th line (LongLines) or page (LongPages)
	// (WalkPast): on the EPYC a lost line costs about as much from 64
	// to 512 lines a walk at 4, 8 and 16 KiB pitches and several times
	// that at 1024 and 2048, a length no device figure gives. Chosen
	// on a CPU (LongPages, with ConflictTLB; docs/model.md). Calibrate
	// leaves it off where no row's walk goes past the knee.
	LongWalk string `json:"long_walk,omitempty"`
	// LongKnee is LongWalk's knee; 0, Calibrate fits it: of KneeGrid,
	// the one whose calibration has the least squared relative error on
	// the rows, so that a cross-validation fold fits its own.
	LongKnee int64 `json:"long_knee,omitempty"`
	// LongSecond, with LongWalk, prices by a weight of its own,
	// ConflictLong2Bytes, the lines of ConflictBytes that a walk loses
	// past a second knee, LongKnee2, above LongKnee: on the EPYC a lost
	// line costs about 1.15 ns more than a short walk's at 1024 pages
	// and 2.15 at 2048, a rise one share past one knee cannot follow
	// (docs/accuracy.md). Calibrate fits the two knees together, of the
	// pairs of KneeGrid, and leaves the second off where no row's walk
	// goes past it. Chosen on a CPU (PoCL), by the development kernels
	// between forms within 0.02 on cross-validation (docs/model.md).
	LongSecond bool `json:"long_second,omitempty"`
	// LongKnee2 is LongSecond's knee, above LongKnee; Calibrate fits it
	// with LongKnee.
	LongKnee2 int64 `json:"long_knee2,omitempty"`
	// Indirect gives a kernel with indirect accesses (x[col[j]], whose
	// subscripts read data) its hierarchy counts and cache lines: its
	// arrays without such accesses counted exactly, those with them
	// bounded (counts.Counted.HierarchyAt: their distinct cells at most
	// the executions of those accesses plus the cells of their affine
	// references, and at most their extent at each place), the bounds
	// taken for the counts. Where the executions stay below the extent
	// the bound prices each execution as a cell of its own, as
	// streaming does; where they exceed it, the array is priced as read
	// once a place. Without it such a kernel has no hierarchy counts and
	// streams at every level. Session 14 (docs/accuracy.md): within 0.02
	// of the chosen form on cross-validation; the development kernels'
	// exp-mean-log, the declared criterion, prefers it, their geomean
	// does not.
	Indirect bool `json:"indirect,omitempty"`
	// ReadOnlyTies prices each strided readonly load feature
	// (global.ldg.T.stride=k/s) by the weight of the plain load of its
	// class (fit.ReadOnlyStrideTies), on a CPU as on a GPU; their bytes
	// enter the traffic terms as a load's either way (globalAccess). Not
	// chosen (session 15): 0.353 against 0.356 on cross-validation, within
	// 0.02, and the development kernels' exp-mean-log equal
	// (docs/model.md), which keeps the form as it was.
	ReadOnlyTies bool `json:"read_only_ties,omitempty"`
	// Chain adds the steps of the dependence chains through global
	// memory (Chains): the executions of the instructions that load a
	// cell an earlier iteration of their loop stored, as features
	// ChainPrefix+type added to every form's time, since a chain's
	// latency overlaps nothing of its work-item. Chosen on a CPU (PoCL:
	// the chain's load waits on the store before it); on a GPU no
	// measurement class has such chains yet. Calibrate leaves it off
	// where no row has a chain, whose weight it could not fit.
	Chain bool `json:"chain,omitempty"`
	// RegChain adds the steps of the dependence chains through registers
	// (RegChainPrefix: the points of every reduction's body and the
	// executions of RegisterChains' instructions, one chain of
	// independent accumulators (Lanes) for all) as features
	// RegChainPrefix+type added to every form's time, as Chain's are.
	// Calibrate leaves it off where no row has such a chain.
	RegChain bool `json:"reg_chain,omitempty"`
	// ScalarChain adds the steps of the register chains that PoCL runs
	// one work-item at a time through one accumulator, each waiting on
	// the one before it (ScalarChainPrefix: RegChain's steps where the
	// instruction is Scalar, its Lanes hold one value each, and a
	// reduction is not over unrolled inames alone), as features
	// ScalarChainPrefix+type added to every form's time. RegChain's one
	// weight could not price both reg_chain's K = 1 rows, a step's
	// latency each, and its K = 4 and 8 rows, whose steps overlap; these
	// steps are the first kind only. Not with RegChain, whose steps
	// include them. Chosen on a CPU (PoCL), by the development kernels
	// between forms within 0.02 on cross-validation (docs/model.md).
	// Calibrate leaves it off where no row has such a chain.
	ScalarChain bool `json:"scalar_chain,omitempty"`
	// ScalarOps adds the floating-point operations (flop.*) of the
	// instructions a CPU runs one work-item at a time (Scalar, with the
	// form's UnrolledSums) as one feature, ScalarOps, added to every
	// form's time, as the chains' steps are. Declared on the premise
	// that the flop weights are fitted on code vectorised across the
	// work-items, where a scalar instruction issues for one work-item;
	// it does not hold, since the arithmetic classes' sums are Scalar
	// too, and the feature takes weight from flop.f32.add (50 → 13 ps).
	// Issue 41, session 19: not chosen on PoCL (cross-validation 0.297
	// against 0.302, within 0.02; the development kernels' exp-mean-log
	// 0.521 against 0.482). Calibrate leaves it off where no row has
	// such an operation.
	ScalarOps bool `json:"scalar_ops,omitempty"`
	// GuardedLanes, with ScalarChain, counts among ScalarChainPrefix's
	// steps the first lane's steps of a chain of several lanes (Lanes)
	// that hold at most GuardedLanes values together, one of whose
	// inames is bounded by a condition that differs by work-item
	// (counts.Kernel.ItemBounded). PoCL runs each lane's step in a
	// branch of its own, one work-item at a time, with scalar
	// instructions, so that a work-item waits on its first chain's
	// latency as it would with one accumulator while the few others
	// overlap it: Kernel Tuner's convolution on PoCL runs its tiles of
	// 1, 2 and 4 sums at 0.98 to 1.22 times its first lane's steps at the
	// rate of one sum's, and tiles of 8 and 16 sums, whose steps no
	// longer fit in a step's latency, at 2.9 and 6.1 (docs/model.md).
	// Unguarded lanes (reg_chain's) are packed into vector instructions
	// and count nothing. 0 leaves it off; hierstudy's +lanes is 4 (a
	// multiply-add's latency, 4 cycles on the EPYC, over the cycle a
	// lane's step of the convolution issues in), +lanes2 2 and +lanes8
	// 8. The hierarchy suite's opt-in class guarded_lanes varies the
	// lanes at fixed work. Not chosen.
	GuardedLanes int64 `json:"guarded_lanes,omitempty"`
	// LocalAccesses prices a type's local-memory loads and stores by
	// one weight (LocalAccessPrefix+type) instead of one each. On a CPU
	// local memory is ordinary cached memory, where a store costs what
	// a load does. Chosen on a CPU (PoCL) once the local_stores class,
	// which varies the stores between two barriers and the barriers at
	// fixed stores, was measured: before it every class stored one to
	// three local cells between two barriers, so that a store's own
	// weight took the barrier's cost.
	LocalAccesses bool `json:"local_accesses,omitempty"`
	// LocalAnyType, with LocalAccesses, prices the local loads and stores
	// of every type by one weight, LocalAnyAccess, rather than one a
	// type: a CPU's local memory is ordinary cached memory, where a
	// scalar access of 4 bytes costs what one of 8 does. On PoCL
	// local_int's i64 accesses are the only i64 ones, and local.access.i32
	// is otherwise local_atomic's alone, which prices it at nothing beside
	// the atomics. Accesses at subscripts that read data
	// (local.access.indirect.T) stay apart. Not chosen (session 15):
	// worse by 0.034 on cross-validation (docs/model.md).
	LocalAnyType bool `json:"local_any_type,omitempty"`
	// WidthTies prices each memory access of an integer type by the
	// weight of the floating-point type of its width (widthTies): an i32
	// load by the f32 load's weight of its stride class, an i64 store by
	// the f64 store's, local accesses alike, the atomics apart. A CPU
	// moves 4 or 8 bytes at the same cost whatever they hold. On PoCL the
	// global_int class's i32 stores and i64 loads were priced by the few
	// such accesses of other classes, whose time other features carry.
	// Not chosen (session 15): better by 0.016 on cross-validation, a
	// margin within 0.02, and the development kernels' exp-mean-log
	// worse (docs/model.md).
	WidthTies bool `json:"width_ties,omitempty"`
	// LocalReuse leaves out of the local loads those a compiler keeps in
	// registers (counts.Counted.RegisterLoadsAt): in a block of unrolled
	// loops inside every loop of the code, without a store to the array
	// or a barrier, a load's copies at one address are one load. Kernel
	// Tuner's matmul updates its TY x TX sums from TY cells of sA and TX
	// of sB a step, where the local loads count 2*TY*TX. The kept loads
	// leave the local.load.T properties, and so Config.LocalAccesses'
	// features, priced by the same weights. The global loads need no
	// such rule: those the rule would keep repeat a cell of their
	// work-item, which Reuse leaves out already, but at cells some store
	// of the launch touches.
	LocalReuse bool `json:"local_reuse,omitempty"`
	// NoBanks leaves out the local bank-conflict properties
	// (local.<type>.conflict=<degree>, counted a second time beside the
	// local loads and stores as a correction): on a CPU local memory is
	// ordinary cached memory with no banks, so that the degree a GPU's
	// warp would meet says nothing of what the access costs there, and a
	// conflicted access is priced as any other local access. Each degree
	// is one feature that local_bank alone exercises on PoCL (degree 2
	// transpose_prefetch's too), so that leaving local_bank out of a
	// cross-validation fold left 12 of its 20 rows unpriced. Not chosen
	// (session 15): within 0.02 on cross-validation, and the development
	// kernels' exp-mean-log worse (docs/model.md).
	NoBanks bool `json:"no_banks,omitempty"`
	// LocalFootprint prices the local accesses of a launch whose
	// work-group declares more local bytes than a core's L1 holds (the
	// local arrays' extents at the binding's consts, Inputs.LocalBytes,
	// against the device file's l1_bytes_per_sm) by weights of their
	// own, LocalL2Prefix+the property's rest. On a CPU local memory is
	// ordinary memory, so that such a group's local accesses might come
	// from L2: a tuning space's big tiles (a 128x32 convolution block's
	// 300 KiB tile) against the at most 36 KiB every PoCL measurement
	// class declared before local_tile. Not chosen: local_tile's padded
	// tiles, up to 272 KiB, cost what a 17 KiB one does an access on
	// PoCL; its unpadded ones beyond L1 are slower because their
	// power-of-two columns fall in few of L1's sets (docs/model.md).
	// Calibrate leaves it off where no row declares more than L1.
	LocalFootprint bool `json:"local_footprint,omitempty"`
	// Context prices the local accesses of a launch by where a
	// work-group's context lies: the bytes PoCL keeps a slot for each
	// of its work-items across barriers (counts.Kernel.ContextBytes
	// times the group's work-items), among them an address for each
	// unrolled local access whose address a barrier loop does not
	// change, which the access loads from that slot every time it runs.
	// ContextL1: where the context exceeds a core's L1 (the device
	// file's l1_bytes_per_sm), by weights of their own,
	// ContextL2Prefix+the property's rest; ContextL2 also, where it
	// exceeds a core's L2 (l2_bytes over sm_count), by ContextLLCPrefix
	// ones. Kernel Tuner's matmul on PoCL at 2 x 4 tiles keeps 17 KiB a
	// 16 x 1 group (5.12 ms at n = 256) and 1.6 MiB a 32 x 32 group
	// (18.4 ms; docs/model.md). Not with LocalFootprint, which moves
	// the same accesses by the local arrays' bytes. Calibrate drops a
	// level no row reaches (ContextL2 to ContextL1, ContextL1 to none).
	// ContextL1 is chosen on a CPU (session 16, by the development
	// kernels within 0.02 on cross-validation); the hierarchy suite's
	// opt-in class local_context varies the context at fixed work.
	Context string `json:"context,omitempty"`
	// LocalConflict prices by a weight of its own, LocalConflictBytes,
	// the lines that a work-item's walk through local memory loses from
	// a core's L1 because it reaches too few of its sets, and that the
	// next work-item, walking the same lines, fetches again
	// (LocalConflicts): on a CPU local memory is ordinary memory, and
	// local_tile's columns of a tile whose rows are 1 KiB apart fall in
	// 4 of the EPYC's 64 L1 sets, which hold 48 of their lines (12
	// ways). Chosen on a CPU (PoCL), by the development kernels between
	// forms within 0.02 on cross-validation (docs/model.md); local_tile
	// is the only measurement class with such lines. Calibrate leaves it
	// off where no row has such lines, or the device file gives no L1
	// associativity (caches.l1_ways).
	LocalConflict bool `json:"local_conflict,omitempty"`
	// LocalConflictStores, with LocalConflict, prices the stores' lost
	// lines by a weight of their own, LocalConflictStoreBytes: a store's
	// lost line is dirty, and is written back as well as fetched again.
	// Not chosen (docs/model.md).
	LocalConflictStores bool `json:"local_conflict_stores,omitempty"`
	// LLC names the last cache before DRAM: "l2", or "l3" where the
	// device file gives one (a CPU's).
	LLC string `json:"llc"`
	// Warm, with Levels, gives no DRAM traffic (DRAMBytes) to a launch
	// whose lines (its bytes, where its lines are not counted) fit a
	// cache that keeps them from one run of the launch to the next:
	// WarmL3, the L3 a CPU's cores share (the device file's
	// caches.l3_shared_bytes); WarmLLC, the form's last cache (LLC).
	// Without it a launch that fits the last cache is given its
	// distinct bytes, a cold cache's first touch, and a streaming
	// launch the same bytes whether it fits or not, so that the
	// feature follows the access counts and its weight is theirs. The
	// measurement rows are timed warm (a launch run again and again,
	// nothing flushed between runs), and on the EPYC their time per byte
	// climbs past the 32 MiB of a core complex's L3, not past the
	// 2 MiB of its cores' L2 (docs/model.md). Session 16: WarmL3 is
	// the declared rule's pick on PoCL (cross-validation 0.345 → 0.294,
	// the DRAM weight 1.36 → 13.7 ps/B; the development kernels worse,
	// exp-mean-log 0.506 → 0.570), WarmLLC not (0.333), so Chosen's CPU
	// form has WarmL3; Calibrate leaves it out of the chosen form on a
	// device file without caches.l3_shared_bytes.
	Warm string `json:"warm,omitempty"`
	// Wake prices a launch as one core runs it until the device's
	// other cores join (WakeLatency, wakeCounts): the weights are one
	// core's, a launch whose work W (all but launch.const) is within
	// the latency L takes W, a longer one s·W + (1 − s)·L, s the
	// busiest core's share of its groups (half of them on the EPYC's
	// two cores), and L a weight fitted with the others (fitWake). The
	// measurement rows are mostly long launches, which the weights of a
	// form without it follow: on the EPYC the paper suite at one thread
	// (datasets/epyc1) takes the same time as at two below 3 µs, 1.3 to
	// 1.7 times as long from 3 to 300 µs, 1.8 to 2.2 times beyond, and
	// a short launch (a corpus kernel's smallest sizes) priced at two
	// cores' weights comes out too fast, its launch constant too large
	// (docs/model.md). Session 17: the declared rule's pick on PoCL
	// (cross-validation 0.297 → 0.292, within 0.02; the development
	// kernels' exp-mean-log 0.577 → 0.519; L fitted at 2.66 µs), so
	// Chosen's CPU form has it (hierstudy +nowake is the form before).
	// Calibrate leaves it off on a device file of one core (sm_count).
	Wake bool `json:"wake,omitempty"`
	// WakeSmooth, with Wake, lets the other cores join after a random
	// delay, exponential with mean µ (WakeLatency's weight), in place of
	// a fixed L: a launch of work W then takes, on average,
	// s·W + (1 − s)·µ·(1 − e^(−W/µ)), W where W ≪ µ and Wake's fixed
	// form where W ≫ µ, with no step between. On the EPYC the paper
	// suite's one-thread time over its two-thread time rises gradually
	// with the launch's length (1.03 below 3 µs, 1.29 to 10, 1.45 to 30,
	// 1.63 to 100, 1.71 to 300 µs), where the fixed form steps at L.
	// Session 18: the declared rule's pick on PoCL (cross-validation
	// 0.292 both, within 0.02; the development kernels' exp-mean-log
	// 0.523 → 0.513; µ fitted at 2.46 µs), so Chosen's CPU form has it
	// (hierstudy +wake is the fixed form before). Without Wake it does
	// nothing.
	WakeSmooth bool `json:"wake_smooth,omitempty"`
	// Saturation is the grid fill: FillLinear takes the default linear
	// fit's saturations (read from the grid-fill classes, or chosen by
	// training error), FillNone scales nothing, FillCores scales by the
	// cores a launch leaves idle, and a positive value is one saturation
	// (work-items per compute unit) for every property. Saturation 1 is
	// the rounds of groups: a launch of G groups on U units takes
	// ⌈G/U⌉ rounds, so its work is priced at U·⌈G/U⌉/G times.
	Saturation int64 `json:"saturation"`
}

// The measures of Config.LongWalk.
const (
	LongLines = "lines"
	LongPages = "pages"
)

// checkLong reports a LongWalk that names neither measure, or, with
// knee, a knee below 1, which Calibrate never writes: a calibration file
// edited by hand, or written by another version, would otherwise price
// the long walks by another measure, or not at all, without a word.
// (Before Calibrate, a knee of 0 is one it is to fit.)
func (c Config) checkLong(knee bool) error {
	if c.LongWalk != LongLines && c.LongWalk != LongPages {
		return fmt.Errorf("config.long_walk %q: want %q or %q, or leave it out (no long walks)", c.LongWalk, LongLines, LongPages)
	}
	if knee && c.LongKnee < 1 {
		return fmt.Errorf("config.long_walk %q with long_knee %d: the knee is a walk's %s past which its lost lines are priced, at least 1; uniperf fit --model hierarchy fits it and writes it in the calibration file: fit again, or correct long_knee", c.LongWalk, c.LongKnee, c.LongWalk)
	}
	if knee && c.LongSecond && c.LongKnee2 <= c.LongKnee {
		return fmt.Errorf("config.long_second with long_knee %d and long_knee2 %d: the second knee is above the first; uniperf fit --model hierarchy fits both: fit again, or correct long_knee2", c.LongKnee, c.LongKnee2)
	}
	return nil
}

// checkPairs reports options that do not go together: RegChain and
// ScalarChain (the scalar chains' steps are among RegChain's, and two
// weights on one step would price it twice), GuardedLanes without
// ScalarChain, whose features it adds to, UnrolledSums without
// ScalarLoops, which it refines and without which it would do nothing
// that the saved form says it does, LocalAnyType without LocalAccesses
// alike, Context with LocalFootprint, which would move one access
// to two places, and Warm without Levels, whose feature it changes;
// and a Context or a Warm that names no level.
func (c Config) checkPairs() error {
	if c.RegChain && c.ScalarChain {
		return fmt.Errorf("config.reg_chain and config.scalar_chain: the scalar chains' steps are among the register chains', which would price them twice; keep one")
	}
	if c.GuardedLanes < 0 {
		return fmt.Errorf("config.guarded_lanes %d: want the most lanes a counted chain may have, 1 or more, or 0 (off)", c.GuardedLanes)
	}
	if c.GuardedLanes > 0 && !c.ScalarChain {
		return fmt.Errorf("config.guarded_lanes without config.scalar_chain: it adds steps to the scalar chains' features, which scalar_chain makes; set both, or neither")
	}
	if c.LocalAnyType && !c.LocalAccesses {
		return fmt.Errorf("config.local_any_type without config.local_accesses: it ties the types' local.access features, which local_accesses makes; set both, or neither")
	}
	if c.UnrolledSums && !c.ScalarLoops {
		return fmt.Errorf("config.unrolled_sums without config.scalar_loops: it says which sums scalar loops leave vectorised, and does nothing alone; set both, or neither")
	}
	if c.Context != "" && c.Context != ContextL1 && c.Context != ContextL2 {
		return fmt.Errorf("config.context %q: want %q or %q, or leave it out (no context levels)", c.Context, ContextL1, ContextL2)
	}
	if c.Warm != "" && c.Warm != WarmL3 && c.Warm != WarmLLC {
		return fmt.Errorf("config.warm %q: want %q or %q, or leave it out (a launch that fits the last cache still reads its bytes from DRAM)", c.Warm, WarmL3, WarmLLC)
	}
	if c.Warm != "" && !c.Levels {
		return fmt.Errorf("config.warm without config.levels: it says which launches move DRAM bytes, a feature that levels adds; set both, or neither")
	}
	if c.Context != "" && c.LocalFootprint {
		return fmt.Errorf("config.context and config.local_footprint: both move the local accesses to weights of their own, one by the group's context and one by its local arrays; keep one")
	}
	return nil
}

// The levels of Config.Context: the context beyond a core's L1, and
// beyond its L2 as well.
const (
	ContextL1 = "l1"
	ContextL2 = "l2"
)

// The caches of Config.Warm: the L3 a CPU's cores share, and the
// form's last cache.
const (
	WarmL3  = "l3"
	WarmLLC = "llc"
)

// KneeGrid is the knees Calibrate tries for Config.LongWalk, in lines
// or pages a walk: around the EPYC's 512 to 1024 (docs/accuracy.md),
// fixed before any was tried.
var KneeGrid = []int64{256, 512, 768, 1024, 1536}

// The forms of Config.Form.
const (
	FormSum       = "sum"
	FormMax       = "max"
	FormMaxGroups = "maxgroups"
)

// The grid fills of Config.Saturation besides a fixed saturation.
const (
	FillLinear = 0
	FillNone   = -1
	// FillCores prices a launch of G work-groups on a device of U cores
	// (the device file's sm_count) at U/min(G, U) times its work: a CPU
	// runs one group a core at a time (PoCL's pthread device), so a
	// launch of fewer groups than cores leaves the others idle, and
	// nothing slows a launch of more.
	FillCores = -2
)

// Chosen gives the form a model calibrates with when its Config is the
// zero Config (as "hierarchy" registers it), by the device file's kind:
// chosen by leave-one-class-out cross-validation on measurement rows and
// the development kernels' errors (docs/model.md has the figures).
func Chosen(kind string) Config {
	if kind == "cpu" {
		return Config{Form: FormMaxGroups, Levels: true, Reuse: true, Lines: true, LineScale: true, ScaleContiguous: true,
			ScalarLoops: true, CoreShare: true, Conflict: true, ConflictTLB: true, LongWalk: LongPages, LongSecond: true, Chain: true, ScalarChain: true, LocalAccesses: true, LocalConflict: true,
			Context: ContextL1, Indirect: true, LLC: "l2", Warm: WarmL3, Wake: true, WakeSmooth: true, Saturation: FillNone}
	}
	return Config{Form: FormMaxGroups, Levels: true, Reuse: true, LLC: "l2", Saturation: FillLinear}
}
