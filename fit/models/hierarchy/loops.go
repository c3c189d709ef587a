package hierarchy

import (
	"maps"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
)

// Scalar reports, for each statement of k, whether PoCL runs its global
// accesses one work-item at a time rather than vectorised across the
// work-items: PoCL wraps each barrier-free region of a kernel in a loop
// over the work-items, which LLVM vectorises along local id 0 only where
// it is the innermost loop. An instruction inside a sequential loop whose
// body holds no barrier lies wholly in one region, so the work-item loop
// encloses the kernel's loop, and the kernel's loop, not local id 0, is
// innermost; a reduction is an inner loop of its instruction alike.
// Instructions in loops that hold a barrier (a tiled matmul's loop over
// tiles) are split into regions inside the loop and stay vectorised.
func Scalar(k *counts.Kernel) map[string]bool { return scalarOf(k, false) }

// scalarOf is Scalar; with unrolledSums (Config.UnrolledSums) a
// reduction over unrolled inames alone (unr or ilp: straight-line code,
// no loop of its own) does not make its instruction scalar, which then
// runs one work-item at a time only inside a sequential loop or a
// reduction over some iname that is not unrolled.
func scalarOf(k *counts.Kernel, unrolledSums bool) map[string]bool {
	reduces := hasReduce
	if unrolledSums {
		reduces = func(s *counts.Instruction) bool { return hasLoopReduce(k, s) }
	}
	out := map[string]bool{}
	var walk func(nodes []counts.Node, inLoop bool)
	walk = func(nodes []counts.Node, inLoop bool) {
		for _, n := range nodes {
			switch n := n.(type) {
			case *counts.Loop:
				walk(n.Body, !holdsBarrier(n.Body))
			case *counts.Instruction:
				out[n.StatementID()] = inLoop || reduces(n)
			}
		}
	}
	walk(k.Schedule, false)
	return out
}

func holdsBarrier(nodes []counts.Node) bool {
	for _, n := range nodes {
		switch n := n.(type) {
		case *counts.Barrier:
			return true
		case *counts.Loop:
			if holdsBarrier(n.Body) {
				return true
			}
		}
	}
	return false
}

func hasReduce(s *counts.Instruction) bool {
	return containsReduce(s.RHS) || (s.Pred != nil && containsReduce(s.Pred))
}

// contiguous is the stride class of an access that uses its lines in
// order: what a scalar access walking memory costs per access, the lines
// it moves being priced by the line counts.
const contiguous = "stride=1"

// scalarClass returns the property a scalar access of property p is
// priced as: its strided global loads and stores as contiguous ones of
// the same kind and type; "" where p stays (not a strided global
// access, or already contiguous or uniform).
func scalarClass(p string) string {
	if !strings.HasPrefix(p, "global.load.") && !strings.HasPrefix(p, "global.store.") && !strings.HasPrefix(p, "global.ldg.") {
		return ""
	}
	i := strings.LastIndex(p, ".stride=")
	if i < 0 || p[i+1:] == contiguous || p[i+1:] == "stride=0" {
		return ""
	}
	return p[:i+1] + contiguous
}

// scalarProperties returns, by property, the counts of a launch's
// instructions that run one work-item at a time (scalarOf, with
// unrolledSums as Config.UnrolledSums says), counted once per launch:
// what ScalarLoops moves (scalarMoves) and ScalarOps sums (scalarOpsOf)
// are read from it. A property's share cannot overflow, since its whole
// count is an int64.
func scalarProperties(k *counts.Counted, params map[string]int64, unrolledSums bool) (map[string]int64, error) {
	name := "scalar"
	if unrolledSums {
		name = "scalar-unrolled-sums"
	}
	return once(name, k, params, func() (map[string]int64, error) {
		scalar := scalarOf(k.Kernel(), unrolledSums)
		parts, vals, err := k.BreakdownAt(counts.ByInstruction, params)
		if err != nil {
			return nil, err
		}
		out := map[string]int64{}
		for i, p := range parts {
			if scalar[p.Source] {
				out[p.Property] += vals[i]
			}
		}
		return out, nil
	})
}

// scalarMoves returns, by property, the global accesses of a launch that
// run one work-item at a time (Scalar) in a strided class: under
// Config.ScalarLoops they are priced as contiguous accesses
// (scalarClass), since their stride across work-items is not the order
// they run in.
func scalarMoves(c *counts.Counted, params map[string]int64, unrolledSums bool) (map[string]int64, error) {
	props, err := scalarProperties(c, params, unrolledSums)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for p, n := range props {
		if scalarClass(p) != "" {
			out[p] = n
		}
	}
	return out, nil
}

// scalarCounts returns the counts cs of a launch with the strided
// accesses that run one work-item at a time priced as contiguous ones
// (scalarMoves), and the min(loads, stores) corrections of the classes
// they leave and join taken again; moved is the accesses moved.
func scalarCounts(env *models.Env, c models.Case, cs map[string]int64, unrolledSums bool) (out map[string]int64, moved int64, err error) {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return nil, 0, err
	}
	moves, err := scalarMoves(k, c.Params, unrolledSums)
	if err != nil {
		return nil, 0, err
	}
	if len(moves) == 0 {
		return cs, 0, nil
	}
	out = maps.Clone(cs)
	var rests []string
	for p, n := range moves {
		n = min(n, out[p])
		moved += n
		out[p] -= n
		out[scalarClass(p)] += n
		_, rest, _ := strings.Cut(strings.TrimPrefix(p, "global."), ".")
		_, to, _ := strings.Cut(strings.TrimPrefix(scalarClass(p), "global."), ".")
		rests = append(rests, rest, to)
	}
	for _, r := range rests {
		delete(out, "global.minldst."+r)
		if ld, st := out["global.load."+r], out["global.store."+r]; ld > 0 && st > 0 {
			out["global.minldst."+r] = min(ld, st)
		}
	}
	return out, moved, nil
}
