package hierarchy

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// The properties the model adds to the counts: the bytes a launch moves
// from DRAM and from the last-level cache into the caches near the
// compute units (Traffic.DRAM, Traffic.L2).
const (
	DRAMBytes = "mem.dram.bytes"
	L2Bytes   = "mem.l2.bytes"
)

// RefetchBytes is the feature of Config.Refetch: the lines a launch
// fetches from DRAM again, one at a time (Traffic.Refetched).
const RefetchBytes = "mem.dram.refetch.bytes"

// launchFacts are what the model knows of one launch: its features
// (property name to count, the counts with the traffic terms), its
// grid, and whether the kernel had hierarchy counts.
type launchFacts struct {
	features     map[string]float64
	groups, size int64
	traffic      Traffic
	refusal      string // why the kernel has no hierarchy counts, "" if it has
	// scalar is the strided global accesses priced as contiguous
	// (Config.ScalarLoops).
	scalar int64
	// registers is the local loads kept in registers (Config.LocalReuse).
	registers int64
}

// FootprintsOf returns the hierarchy counts of a launch summed over its
// global arrays, or the error that refused them; with lines, its cache
// lines too where LinesAt counts them (else its traffic stays in bytes).
// A kernel with indirect accesses is refused unless indirect is set
// (Config.Indirect): its counts are then bounds. Other models that price
// traffic by level (Hong–Kim's DRAM share) read the same counts through
// it.
func FootprintsOf(env *models.Env, c models.Case, lines, indirect bool) (*Footprints, error) {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return nil, err
	}
	if ind := k.IndirectArrays(); len(ind) > 0 && !indirect {
		return nil, fmt.Errorf("kernel %s: memory hierarchy: the accesses to %s read their subscripts from data (indirect accesses), whose cells only a run knows; Config.Indirect prices their bounds", c.Kernel, strings.Join(ind, ", "))
	}
	// The hierarchy model and Hong–Kim ask for the same launches, and a
	// cross-validation once per class left out.
	f, err := once("footprints", k, c.Params, func() (Footprints, error) { return footprintsAt(k, c.Params) })
	if err != nil {
		return nil, err
	}
	// f is a copy, the caller's own: facts sets its Iter.
	if lines {
		ls, vals, err := linesAt(k, c.Params)
		if err == nil {
			for i, l := range ls {
				if l.Array != "" {
					continue
				}
				v := LineBytes * float64(vals[i])
				switch l.Name {
				case counts.LinesLaunch:
					f.LaunchLines = v
				case counts.LinesGroup:
					f.GroupLines = v
				case counts.LinesWorkItem:
					f.ItemLines = v
				}
			}
			f.Lines = len(ls) > 0
		}
	}
	return &f, nil
}

// footprintsAt sums the hierarchy counts of the counted kernel k at
// params over its global arrays.
func footprintsAt(k *counts.Counted, params map[string]int64) (Footprints, error) {
	var f Footprints
	hs, vals, err := k.HierarchyAt(params)
	if err != nil {
		return f, err
	}
	size := map[string]float64{}
	for _, a := range k.Kernel().Arrays {
		size[a.Name] = float64(a.DType.Size())
	}
	for i, h := range hs {
		v := float64(vals[i])
		switch {
		case h.Array == "" && h.Name == counts.FootprintLaunch:
			f.Launch = v
		case h.Array == "" && h.Name == counts.FootprintGroup:
			f.Group = v
		case h.Array != "" && h.Name == counts.ReuseWorkItem:
			f.ReusedLoads += v
			f.ReusedBytes += v * size[h.Array]
		}
	}
	return f, nil
}

type lineCounts struct {
	ls   []counts.LineCount
	vals []int64
}

// linesAt returns k.LinesAt(params, LineBytes), counted once per launch.
func linesAt(k *counts.Counted, params map[string]int64) ([]counts.LineCount, []int64, error) {
	r, err := once("lines", k, params, func() (lineCounts, error) {
		ls, vals, err := k.LinesAt(params, LineBytes)
		return lineCounts{ls, vals}, err
	})
	return r.ls, r.vals, err
}

// facts counts a launch and derives its features under cfg with the
// capacities lv.
func facts(env *models.Env, c models.Case, cfg Config, lv Levels) (*launchFacts, error) {
	in, err := env.Inputs(c)
	if err != nil {
		return nil, err
	}
	lf := &launchFacts{groups: in.Groups(), size: in.GroupSize(), features: map[string]float64{}}
	f, err := FootprintsOf(env, c, cfg.Lines, cfg.Indirect)
	if err != nil {
		if _, cerr := env.Counter.Kernel(c.Kernel, c.Consts); cerr != nil {
			return nil, cerr
		}
		lf.refusal = firstLine(err.Error())
		f = nil
	}
	var iter *IterFootprints
	if f != nil && cfg.Iter {
		iter = iterFootprintsOf(env, c)
		f.Iter = iter
	}
	lf.traffic = TrafficOf(in.Counts, f, lf.groups, lv)
	keep := 1.0
	if cfg.Reuse && lf.traffic.Loads > 0 {
		keep = 1 - lf.traffic.Reused/lf.traffic.Loads
	}
	scale := 1.0
	if cfg.LineScale {
		scale = lf.traffic.LineScale()
	}
	cs := in.Counts
	if cfg.ScalarLoops {
		if cs, lf.scalar, err = scalarCounts(env, c, cs, cfg.UnrolledSums); err != nil {
			return nil, err
		}
	}
	for name, n := range cs {
		v := float64(n)
		if strings.HasPrefix(name, "global.load.") {
			kept := loadFeature(name, v, keep, lf.traffic, iter)
			if cfg.IterL1 {
				lf.features[L1Loads] += v*keep - kept
			}
			v = kept
		}
		if isGlobalAccess(name) && (!cfg.ScaleContiguous || strings.HasSuffix(name, "."+contiguous)) {
			v *= scale
		}
		lf.features[name] = v
	}
	if cfg.LocalReuse {
		if err := lf.dropRegisterLoads(env, c); err != nil {
			return nil, err
		}
	}
	if cfg.NoBanks {
		dropBanks(lf.features)
	}
	if cfg.LocalAccesses {
		localAccesses(lf.features)
	}
	if cfg.LocalAnyType {
		anyTypeAccesses(lf.features)
	}
	if cfg.LocalFootprint && lv.L1 > 0 && in.LocalBytes > lv.L1 {
		moveLocal(lf.features, LocalL2Prefix)
	}
	if cfg.Context != "" {
		if prefix := contextLevel(in, cfg.Context, lv); prefix != "" {
			moveLocal(lf.features, prefix)
		}
	}
	if cfg.Chain {
		steps, err := chainStepsOf(env, c)
		if err != nil {
			return nil, err
		}
		for p, n := range steps {
			lf.features[p] = float64(n)
		}
	}
	if cfg.RegChain || cfg.ScalarChain {
		set := allChains
		if cfg.ScalarChain {
			set = scalarChains
			set.lanes = cfg.GuardedLanes
		}
		steps, err := regChainStepsOf(env, c, set)
		if err != nil {
			return nil, err
		}
		for p, n := range steps {
			lf.features[p] = float64(n)
		}
	}
	if cfg.ScalarOps {
		n, err := scalarOpsOf(env, c, cfg.UnrolledSums)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			lf.features[ScalarOps] = float64(n)
		}
	}
	if cfg.Levels {
		lf.features[DRAMBytes] = lf.traffic.DRAM
		lf.features[L2Bytes] = lf.traffic.L2
		if cfg.Refetch && lf.traffic.Refetched > 0 {
			lf.features[DRAMBytes] -= lf.traffic.Refetched
			lf.features[RefetchBytes] = lf.traffic.Refetched
		}
	}
	if cfg.Conflict && f != nil && f.Lines && lv.L2Core > 0 {
		k, err := env.Counter.Kernel(c.Kernel, c.Consts)
		if err != nil {
			return nil, err
		}
		lost, err := conflictsOf(k, c.Params, lf.groups*lf.size, lv)
		if err != nil {
			return nil, err
		}
		if lost.Lines > 0 {
			lf.features[ConflictBytes] = lost.Lines
		}
		if cfg.ConflictTLB && lost.TLB > 0 {
			lf.features[ConflictTLBBytes] = lost.TLB
		}
		if cfg.LongWalk != "" && lost.Long > 0 {
			lf.features[ConflictLongBytes] = lost.Long
		}
		if cfg.LongWalk != "" && cfg.LongSecond && lost.Long2 > 0 {
			lf.features[ConflictLong2Bytes] = lost.Long2
		}
	}
	if cfg.LocalConflict && lv.L1 > 0 && lv.L1Ways > 0 {
		if err := lf.addLocalConflicts(env, c, cfg, lv); err != nil {
			return nil, err
		}
	}
	return lf, nil
}

// addLocalConflicts adds a launch's LocalConflicts features under cfg
// with the capacities lv.
func (lf *launchFacts) addLocalConflicts(env *models.Env, c models.Case, cfg Config, lv Levels) error {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return err
	}
	r, err := once("localconflicts", k, c.Params, func() ([2]float64, error) {
		loads, stores, err := LocalConflicts(k, c.Params, lv)
		return [2]float64{loads, stores}, err
	})
	if err != nil {
		return err
	}
	loads, stores := r[0], r[1]
	if !cfg.LocalConflictStores {
		loads, stores = loads+stores, 0
	}
	if loads > 0 {
		lf.features[LocalConflictBytes] = loads
	}
	if stores > 0 {
		lf.features[LocalConflictStoreBytes] = stores
	}
	return nil
}

// dropRegisterLoads leaves the local loads of a launch that a compiler
// keeps in registers (Config.LocalReuse) out of its local.load.T
// features, in place.
func (lf *launchFacts) dropRegisterLoads(env *models.Env, c models.Case) error {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return err
	}
	kept, err := once("registerloads", k, c.Params, func() (map[string]int64, error) { return k.RegisterLoadsAt(c.Params) })
	if err != nil {
		return err
	}
	for p, n := range kept {
		lf.features[p] -= float64(n)
		lf.registers += n
	}
	return nil
}

// conflictsOf returns the conflict features of a launch of k at params
// with items work-items, under the
// capacities lv.
func conflictsOf(k *counts.Counted, params map[string]int64, items int64, lv Levels) (Lost, error) {
	walks, err := once("walks", k, params, func() (map[string][]int64, error) { return Walks(k.Kernel(), params) })
	if err != nil || len(walks) == 0 {
		return Lost{}, err
	}
	ls, vals, err := linesAt(k, params)
	if err != nil {
		return Lost{}, err
	}
	item, group := map[string]float64{}, map[string]float64{}
	for i, l := range ls {
		switch {
		case l.Array == "":
		case l.Name == counts.LinesWorkItem:
			item[l.Array] = float64(vals[i])
		case l.Name == counts.LinesGroup:
			group[l.Array] = float64(vals[i])
		}
	}
	return Conflicts(walks, item, group, items, lv), nil
}

// isGlobalAccess reports whether a property counts global loads or
// stores (global.load.*, global.store.*, global.minldst.*): the accesses
// whose cost Config.Lines scales by the lines they move.
func isGlobalAccess(name string) bool {
	for _, p := range []string{"global.load.", "global.store.", "global.minldst."} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// levelsOf returns the capacities of the device's caches that cfg
// names.
func levelsOf(env *models.Env, cfg Config) (Levels, error) {
	if err := cfg.checkPairs(); err != nil {
		return Levels{}, fmt.Errorf("hierarchy: %w", err)
	}
	if env.Device == nil {
		return Levels{}, fmt.Errorf("hierarchy: %w: the model places traffic by the device's cache capacities (give --device-file)", models.ErrNoDeviceFile)
	}
	c := env.Device.Caches
	if c == nil {
		return Levels{}, &gpus.MissingError{File: env.Device.File, Field: "caches", Model: "hierarchy", Section: true}
	}
	lv := Levels{L1: c.L1PerSM, LLC: c.L2}
	if cfg.LLC == "l3" && c.L3 > 0 {
		lv.LLC = c.L3
	}
	if cfg.CoreShare && env.Device.SMs > 0 {
		lv.Core = lv.LLC / int64(env.Device.SMs)
	}
	if (cfg.Conflict || cfg.Context == ContextL2) && env.Device.SMs > 0 {
		lv.L2Core, lv.Ways = c.L2/int64(env.Device.SMs), c.L2Ways
	}
	if cfg.ConflictTLB {
		lv.DTLB = c.DTLBEntries
	}
	switch cfg.Warm {
	case WarmLLC:
		lv.Warm = lv.LLC
	case WarmL3:
		if c.L3Shared <= 0 {
			return Levels{}, &gpus.MissingError{File: env.Device.File, Field: "caches.l3_shared_bytes", Model: "hierarchy (config.warm " + WarmL3 + ")"}
		}
		lv.Warm = c.L3Shared
	}
	if cfg.LocalConflict {
		lv.L1Ways = c.L1Ways
	}
	if cfg.LongWalk != "" {
		if err := cfg.checkLong(false); err != nil {
			return Levels{}, fmt.Errorf("hierarchy: %w", err)
		}
		lv.Knee, lv.KneePages = cfg.LongKnee, cfg.LongWalk == LongPages
		if cfg.LongSecond {
			lv.Knee2 = cfg.LongKnee2
		}
	}
	return lv, nil
}

// loadFeature is the priced loads of a load property of n loads: with
// the work-items' repeats left out (keep is the fraction kept) or, where
// the group shares more of them within its iterations, those.
func loadFeature(p string, n, keep float64, t Traffic, it *IterFootprints) float64 {
	v := n * keep
	if t.Shared && it != nil {
		v = min(v, n-it.Shared[p])
	}
	return v
}
