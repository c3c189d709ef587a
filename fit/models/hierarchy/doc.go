// Package hierarchy is uniperf's memory-hierarchy-aware model, registered
// with package models as "hierarchy" ([Model]): seed 001's fitted weights
// on counts that say where global bytes come from.
//
// The features of a launch are its counts (package counts), with the
// global loads that repeat a cell their work-item loaded
// (counts.ReuseWorkItem) left out of the load counts, and two traffic
// terms placed by the device file's cache capacities ([TrafficOf]):
// [DRAMBytes], the launch's distinct bytes while they fit the last-level
// cache, else the work-groups' distinct bytes summed; and [L2Bytes], the
// work-groups' distinct bytes summed while a group's fit L1, else the
// streamed bytes. A kernel without hierarchy counts (counts refuses
// subscripts that do not split) is priced as streaming at every level,
// as one with indirect accesses (x[col[j]]) is unless Config.Indirect
// takes the bounds counts gives its gathered arrays, the others exact.
// On a CPU the traffic terms count whole cache lines where counts gives
// the kernel's lines (Config.Lines, Config.LineScale: a column walk
// moves a 64-byte line for each float it uses; Config.ScaleContiguous:
// only the contiguous accesses are scaled, a strided class's weight
// pricing its lines already), the strided accesses PoCL runs one
// work-item at a time ([Scalar]: in a loop without a barrier, or a
// reduction) are priced as contiguous (Config.ScalarLoops; with
// Config.UnrolledSums, not chosen, a sum over unrolled inames alone,
// straight-line code, leaves its instruction vectorised), and a
// launch beyond the last cache takes each group's lines from DRAM once
// only while they fit one core's share of it (Config.CoreShare), the
// lines a work-item's walk loses to the L2's sets before the next
// work-item walks them again ([Walks], [WalkMisses]: a column walk at a
// pitch that is a multiple of a large power of two) priced by a weight
// of their own (Config.Conflict; Config.Refetch, not chosen since,
// prices instead the lines beyond the core's share), and those of them
// lost at a step that also misses the first-level data TLB, a walk over
// more pages than it maps ([WalkPageMisses]: on PoCL a lost line of a
// 2048-page walk fits 1.3 ns, one of a 64-page walk 0.33), by a second
// weight (Config.ConflictTLB), and those lost at a step onto a page past
// a knee of the walk's pages ([WalkPast]; the knee, which no device
// figure gives, fitted from [KneeGrid] on the rows) by a third
// (Config.LongWalk), and those past a second knee above it by a fourth
// (Config.LongSecond: the knees fit 512 and 1536 pages on PoCL, a lost
// line costing more the longer the walk); the executions of
// the instructions that load a global cell an earlier
// iteration of their loop stored ([Chains]: w[i] += ... over j) are a
// feature of their own, outside the overlap (Config.Chain); and a type's
// local loads and stores are priced by one weight, [LocalAccessPrefix]
// (Config.LocalAccesses), local memory being cached memory there; the
// lines a work-item's walk through local memory loses to L1's sets
// before the next work-item walks them again ([LocalWalks],
// [LocalWalk.Lost]: local_tile's columns of a tile whose rows are 1 KiB
// apart) are priced by a weight of their own, [LocalConflictBytes]
// (Config.LocalConflict).
// The grid fill and ties are the default linear fit's of the same rows.
//
// [Config.Iter] (not chosen) adds the reuse between the work-items of a
// group over a sequential loop, from the per-iteration counts
// (counts.IterFootprints, [IterFootprints]): where a group's working set
// over [IterWindow] iterations fits L1, the loads its work-items share
// within an iteration are left out of each load property (or, with
// [Config.IterL1], priced by a weight of their own, [L1Loads]) and L2
// traffic is the per-iteration footprints. On the GPUs' measurement rows
// and development kernels it did worse than without it (docs/model.md).
//
// [FillCores] (not chosen) prices the cores a launch of fewer groups
// than cores leaves idle (a CPU runs one group a core at a time), and
// Config.Saturation 1 the rounds of groups; on a CPU both did worse on
// the development kernels than no fill, by their small one-group
// launches (docs/accuracy.md).
//
// [Config.RegChain] (not chosen) adds the steps of the chains a value
// carries through a register ([RegisterChains], and every reduction's
// points; a private array's cells along an unrolled loop inside the
// carrying one, independent accumulators, as one chain: [Lanes]) as
// features of their own, [RegChainPrefix]. The reg_chain class sets a
// chain's length apart from its operations (K = 1 to 8 accumulators at
// fixed work); on PoCL's measurement rows cross-validation still got
// worse with the feature, and so did the development kernels
// (docs/accuracy.md).
//
// [Config.ScalarChain] (chosen on a CPU) adds the steps of those chains that PoCL runs one
// work-item at a time through one accumulator ([ScalarChainPrefix]:
// the instruction [Scalar], its [Lanes] of one value each, a reduction
// not over unrolled inames alone), whose steps each wait on a step's
// latency; RegChain's one weight could not price those and the
// reg_chain class's vectorised K = 4 and 8 rows together. Within 0.02
// on cross-validation, it did better on the development kernels
// (docs/accuracy.md). [Config.GuardedLanes] (not chosen) adds, with it,
// the first lane's steps of a chain of a few lanes that a condition
// differing by work-item bounds (the convolution's tile of sums, each
// bounded by the image's edge), which PoCL runs in a branch each with
// scalar instructions, overlapping only within a step's latency; the
// opt-in guarded_lanes class varies the lanes at fixed work.
//
// [Config.LocalAccesses] (chosen on a CPU) prices a type's local loads
// and stores by one weight, [LocalAccessPrefix]+type, so that the
// barriers take their own cost. Until the local_stores class varied the
// stores between two barriers and the barriers at fixed stores, every
// class stored its local cells once between barriers and a store's
// weight carried the barrier's; with its rows, tying loads and stores
// was within 0.02 on cross-validation and better on the development
// kernels (0.299 to 0.282: Rodinia's lud and needle better, reduction
// trees, where most work-items meet a barrier with nothing to do,
// worse; docs/accuracy.md).
//
// [Config.LocalFootprint] (not chosen) prices the local accesses of a
// group whose declared local arrays exceed L1 by weights of their own,
// [LocalL2Prefix]. The hierarchy suite's local_tile class refutes it
// as a mechanism: on PoCL, tiles padded by a line a row cost the same
// an access from 17 to 272 KiB, and only tiles whose power-of-two
// columns overflow L1's sets cost more (docs/accuracy.md), which
// Config.LocalConflict prices. Of the shipped tables' rows only the
// EPYC's and the Xeon's local_tile rows declare more than L1.
//
// The form ([Config]) was chosen by leave-one-class-out cross-validation
// on measurement rows and the development kernels of examples/; the
// figures are in docs/model.md. Seed 001's model, the default, is
// package fit/models/linear.
package hierarchy
