package hierarchy

import "strings"

// Levels are the capacities a launch's traffic is placed with: the cache
// near each compute unit (L1) and the last cache before DRAM (LLC), in
// bytes.
type Levels struct {
	L1, LLC int64
	// Core, where not 0, is one core's share of the last cache
	// (Config.CoreShare): in lines, the groups' lines come from DRAM
	// once each only while a group's fit it.
	Core int64
	// L2Core and Ways, where L2Core is not 0, are one core's L2 and its
	// associativity (Config.Conflict): the sets a strided walk reaches.
	L2Core, Ways int64
	// DTLB, where not 0, is the pages a core's first-level data TLB
	// maps (Config.ConflictTLB).
	DTLB int64
	// L1Ways, where not 0, is the associativity of a core's L1 (of L1
	// bytes, Config.LocalConflict): the sets a local walk reaches.
	L1Ways int64
	// Knee, where not 0, is the line (or, with KneePages, the page) of
	// a walk past which its lost lines are priced again
	// (Config.LongWalk, Config.LongKnee).
	Knee      int64
	KneePages bool
	// Knee2, where not 0, is the second knee, in Knee's measure
	// (Config.LongSecond, Config.LongKnee2).
	Knee2 int64
	// Warm, where not 0, is the cache that keeps a launch's lines from
	// one run to the next (Config.Warm): a launch whose lines (bytes)
	// fit it moves nothing from DRAM.
	Warm int64
}

// Footprints are the memory-hierarchy counts of one launch (package
// counts, Counted.HierarchyAt), summed over its global arrays.
type Footprints struct {
	// Launch is the distinct bytes the launch touches
	// (counts.FootprintLaunch); Group the distinct bytes of each
	// work-group, summed over the groups (counts.FootprintGroup).
	Launch, Group float64
	// ReusedBytes is the bytes of the loads that repeat a cell their
	// work-item loaded, at cells no store touches (counts.ReuseWorkItem,
	// times each array's element size); ReusedLoads their number.
	ReusedBytes, ReusedLoads float64
	// Iter is the per-iteration counts, nil where the form does not use
	// them or they were refused.
	Iter *IterFootprints
	// Lines is set where the launch's cache lines were counted
	// (Config.Lines, counts.Counted.LinesAt); LaunchLines, GroupLines and
	// ItemLines are then the bytes of the distinct lines of the launch,
	// of each work-group summed over the groups and of each work-item
	// summed over the work-items, LineBytes a line each.
	Lines                              bool
	LaunchLines, GroupLines, ItemLines float64
}

// LineBytes is the cache line the line counts are taken with: 64 bytes
// on x86-64 cores (the EPYC's L1, L2 and L3 alike, pocl-cpu.json's
// source) and most ARM ones.
const LineBytes = 64

// Traffic is the global-memory traffic of one launch at each level of
// the hierarchy, in bytes.
type Traffic struct {
	// Streamed is every global load and store counted as traffic, less
	// the reused loads: what each access costs when no cache holds it.
	Streamed float64
	// DRAM is the bytes read from or written to DRAM: the launch's
	// footprint while it fits the last-level cache, else the groups'
	// footprints summed (each group brings its own cells), at most the
	// streamed bytes; none while the footprint fits Levels.Warm.
	DRAM float64
	// L2 is the bytes moving from the last-level cache into the caches
	// near the compute units: the groups' footprints summed while an
	// average group's fits L1, else, with the per-iteration counts, the
	// per-iteration footprints summed while a group's working set over
	// IterWindow iterations fits L1, else the streamed bytes.
	L2 float64
	// Loads is the global loads counted and Reused those not priced,
	// which registers or L1 serve.
	Loads, Reused float64
	// Shared is set where the per-iteration counts were given and a
	// group's working set over IterWindow iterations fits L1: the loads
	// a group's work-items share within an iteration (IterFootprints.
	// Shared) are then served by L1 too.
	Shared bool
	// Counted is false where the kernel has no hierarchy counts: the
	// traffic is then streaming at every level (DRAM = L2 = Streamed).
	Counted bool
	// Lines is set where DRAM and L2 are whole cache lines
	// (Footprints.Lines).
	Lines bool
	// Refetched is the part of DRAM, in lines, that a launch beyond
	// the last cache fetches again because a group's lines exceed the
	// core's share of it (Levels.Core): a column walk's lines, one
	// element each, fetched from DRAM one at a time.
	Refetched float64
}

// LineScale is the factor by which whole lines multiply a launch's
// traffic into the caches near the cores: L2 over Streamed, at least 1;
// 1 where the traffic is not in lines. A column walk of floats moves 16
// times the bytes it uses.
func (t Traffic) LineScale() float64 {
	if !t.Lines || t.Streamed <= 0 {
		return 1
	}
	return max(1, t.L2/t.Streamed)
}

// Accesses returns the global loads and stores of counts (the
// properties global.load.* and global.store.*; not the min(loads,
// stores) correction) and their bytes.
func Accesses(cs map[string]int64) (loads, loadBytes, storeBytes float64) {
	for name, n := range cs {
		kind, size, ok := globalAccess(name)
		if !ok {
			continue
		}
		b := float64(n) * float64(size)
		if kind == "load" {
			loads += float64(n)
			loadBytes += b
		} else {
			storeBytes += b
		}
	}
	return loads, loadBytes, storeBytes
}

// elementBytes are the sizes of the element types a property names:
// counts names 8- and 16-bit integer memory by width (b8, b16), as it
// moves the same bytes whatever the sign.
var elementBytes = map[string]int{"b8": 1, "b16": 2, "f16": 2, "f32": 4, "i32": 4, "f64": 8, "i64": 8}

// globalAccess parses global.<load|ldg|store>.<dtype>.<class>: a load
// through the read-only path (ldg) moves its bytes as a load does.
func globalAccess(name string) (kind string, size int, ok bool) {
	parts := strings.SplitN(name, ".", 4)
	if len(parts) < 3 || parts[0] != "global" {
		return "", 0, false
	}
	switch parts[1] {
	case "load", "ldg":
		kind = "load"
	case "store":
		kind = "store"
	default:
		return "", 0, false
	}
	size, ok = elementBytes[parts[2]]
	return kind, size, ok
}

// TrafficOf places a launch's global traffic at each level: cs are its
// counts, f its footprints (nil where the kernel has none: streaming),
// groups its work-groups and lv the capacities. A launch whose
// footprint fits lv.Warm reads it from that cache on every run but the
// first, and moves nothing from DRAM; one without footprints streams.
func TrafficOf(cs map[string]int64, f *Footprints, groups int64, lv Levels) Traffic {
	loads, lb, sb := Accesses(cs)
	t := Traffic{Loads: loads, Streamed: lb + sb}
	if f == nil {
		t.DRAM, t.L2 = t.Streamed, t.Streamed
		return t
	}
	t.Counted = true
	t.Reused = f.ReusedLoads
	t.Streamed -= f.ReusedBytes
	if f.Lines {
		t.Lines = true
		t.DRAM, t.L2, t.Refetched = lineTraffic(f, groups, lv)
		if lv.Warm > 0 && f.LaunchLines <= float64(lv.Warm) {
			t.DRAM, t.Refetched = 0, 0
		}
		return t
	}
	t.DRAM = f.Launch
	if f.Launch > float64(lv.LLC) {
		t.DRAM = min(f.Group, t.Streamed)
	}
	t.L2 = t.Streamed
	switch {
	case groups > 0 && f.Group/float64(groups) <= float64(lv.L1):
		t.L2 = min(f.Group, t.Streamed)
	case f.Iter.fits(lv.L1):
		t.L2 = min(f.Iter.Bytes, t.Streamed)
	}
	t.Shared = f.Iter.fits(lv.L1)
	t.DRAM = min(t.DRAM, t.L2)
	if lv.Warm > 0 && f.Launch <= float64(lv.Warm) {
		t.DRAM = 0
	}
	return t
}

// lineTraffic places a launch's traffic in whole cache lines, as a CPU
// moves it: PoCL runs a work-group on one core, its work-items one after
// the other. Into the core's L1 come the group's lines while a group's
// lines fit L1, else each work-item's (a column walk: a line per
// element); from DRAM the launch's lines while they fit the last cache,
// else what comes into L1, each group's lines at most, and, where
// lv.Core is given, only while a group's lines fit the core's share of
// the last cache (else a line a work-item leaves is gone before the next
// work-item needs it).
//
// refetched is the part of dram beyond each group's lines once: the
// lines fetched again because a group's exceed the core's share.
func lineTraffic(f *Footprints, groups int64, lv Levels) (dram, l2, refetched float64) {
	l2 = f.ItemLines
	if groups > 0 && f.GroupLines/float64(groups) <= float64(lv.L1) {
		l2 = f.GroupLines
	}
	dram = f.LaunchLines
	if f.LaunchLines > float64(lv.LLC) {
		dram = min(f.GroupLines, l2)
		if lv.Core > 0 && groups > 0 && f.GroupLines/float64(groups) > float64(lv.Core) {
			dram, refetched = l2, l2-dram
		}
	}
	return min(dram, l2), l2, refetched
}
