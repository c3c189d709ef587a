package hierarchy

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
)

// LocalConflictBytes is the feature of Config.LocalConflict: the lines
// that the local-memory walks of a launch's work-items lose from a
// core's L1 because they reach too few of its sets, fetched again by the
// next work-item (LocalConflicts), in bytes. With
// Config.LocalConflictStores it holds the loads' lines only.
const LocalConflictBytes = "local.l1.conflict.bytes"

// LocalConflictStoreBytes is the feature of Config.LocalConflictStores:
// the stores' part of LocalConflictBytes, whose lost lines are dirty and
// are written back besides being fetched again.
const LocalConflictStoreBytes = "local.l1.conflict.store.bytes"

// LocalWalk is a local-memory access that a work-item runs along a loop
// of its own, from the first step to the last before the next work-item
// of its group starts (PoCL on a CPU): local_tile's t[k, LX - 1 - i_in]
// walks column LX - 1 - i_in of the tile, a row (LX + PAD)*4 bytes a
// step, C steps.
type LocalWalk struct {
	// Statement is the instruction's ID; Store says whether the access
	// is the one it stores to.
	Statement string
	Store     bool
	// Property is the count of the instruction's accesses it is one of:
	// local.load.T or local.store.T.
	Property string
	// Stride is the bytes between the cells of consecutive steps; Steps
	// the values the loop's iname takes (its constant range).
	Stride, Steps int64
	// Across is the bytes between the cells that the same step of
	// consecutive work-items (along l.0) reaches: 4 where each takes
	// the next float of the row, so that 16 share a 64-byte line.
	Across int64
}

// LocalWalks returns the local-memory walks of k at params, in schedule
// order: the local accesses of the instructions PoCL runs one work-item
// at a time (Scalar), along the innermost loop each lies in (Walks), where
// they move along it and its iname's range is constant (a loop whose
// bounds depend on the parameters is left out: local arrays have
// constant extents, and so have the loops that walk them). sites counts,
// by statement and property, every local access of the instructions (a
// walk or not), over which an instruction's accesses of one property
// share its count.
func LocalWalks(k *counts.Kernel, params map[string]int64) (walks []LocalWalk, sites map[string]int, err error) {
	var local0 []string
	for _, in := range k.Inames {
		if in.Tag.Kind == counts.LocalID && in.Tag.Axis == 0 {
			local0 = append(local0, in.Name)
		}
	}
	sites = map[string]int{}
	for _, s := range k.Statements {
		in, ok := s.(*counts.Instruction)
		if !ok {
			continue
		}
		for _, e := range []counts.Expr{in.LHS, in.RHS, in.Pred} {
			counts.Walk(e, func(e counts.Expr) bool {
				if a, ok := e.(*counts.Access); ok && a.Array != nil && a.Array.Space == counts.Local {
					sites[in.StatementID()+" "+localProperty(in, a)]++
				}
				return true
			})
		}
	}
	err = walkSites(k, params, counts.Local, func(s *counts.Instruction, a *counts.Access, iname string, stride int64) {
		lo, hi, ok := k.ConstantRange(iname)
		if !ok || hi < lo || err != nil {
			return
		}
		// Several inames may share l.0 (matmul_tiled's j_in and pa): the
		// access moves along the one it names.
		var across int64
		for _, l := range local0 {
			if across == 0 && err == nil {
				across, err = strideAlong(a, l, params)
			}
		}
		if err != nil {
			err = fmt.Errorf("local array %s: %w", a.Array.Name, err)
			return
		}
		walks = append(walks, LocalWalk{Statement: s.StatementID(), Store: a == s.LHS, Property: localProperty(s, a), Stride: stride, Steps: hi - lo + 1, Across: across})
	})
	return walks, sites, err
}

// localProperty is the count a local access of s is one of.
func localProperty(s *counts.Instruction, a *counts.Access) string {
	kind := "load"
	if a == s.LHS {
		kind = "store"
	}
	return "local." + kind + "." + a.Array.DType.MemName()
}

// Lost returns the lines the walk loses from an LRU cache of size bytes
// and ways ways, fetched again, over execs executions of its access by
// the work-items of groups of width work-items along l.0: each walk
// (execs/Steps of them) loses WalkMisses of its lines, and the next
// work-item whose walk reaches the same lines (Across below a line:
// LineBytes/Across of them share each, all of the width at Across 0)
// fetches them again; the first to reach a line would have fetched it
// anyway. Exact where Across divides a line and the walks start at a
// line's first byte, as local_tile's do; at Across of a line or more no
// other work-item reaches the walk's lines, and nothing is lost. A
// walk back (a negative Stride) loses what the walk forward does.
func (w LocalWalk) Lost(execs, width, size, ways int64) float64 {
	stride := walkStride(w.Stride)
	lines := w.Steps
	if stride < LineBytes {
		lines = (w.Steps*stride + LineBytes - 1) / LineBytes
	}
	miss := WalkMisses(lines, stride, size, ways)
	share := width
	if w.Across > 0 {
		share = min(width, max(1, LineBytes/w.Across))
	}
	if miss == 0 || share <= 1 || w.Steps <= 0 {
		return 0
	}
	return float64(execs) / float64(w.Steps) * float64(miss) * (1 - 1/float64(share))
}

// LocalConflicts returns the bytes of the lines that the local walks of
// a launch of k at params lose from a core's L1 (lv.L1 bytes, lv.L1Ways
// ways), the loads' and the stores' apart (LocalWalk.Lost, an access's
// executions its instruction's count of its property over the accesses
// of that property it holds).
func LocalConflicts(k *counts.Counted, params map[string]int64, lv Levels) (loads, stores float64, err error) {
	walks, sites, err := LocalWalks(k.Kernel(), params)
	if err != nil || len(walks) == 0 {
		return 0, 0, err
	}
	_, local, err := k.Kernel().Launch(params)
	if err != nil {
		return 0, 0, err
	}
	parts, vals, err := k.BreakdownAt(counts.ByInstruction, params)
	if err != nil {
		return 0, 0, err
	}
	execs := map[string]int64{}
	for i, p := range parts {
		execs[p.Source+" "+p.Property] += vals[i]
	}
	for _, w := range walks {
		key := w.Statement + " " + w.Property
		lost := LineBytes * w.Lost(execs[key]/int64(sites[key]), local[0], lv.L1, lv.L1Ways)
		if w.Store {
			stores += lost
		} else {
			loads += lost
		}
	}
	return loads, stores, nil
}
