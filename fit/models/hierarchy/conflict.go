package hierarchy

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
)

// ConflictBytes is the feature of Config.Conflict: the lines the
// work-items of a group fetch again from beyond a core's L2 because the
// walk that brought them reaches too few of its sets (Conflicts), in
// bytes.
const ConflictBytes = "mem.l2.conflict.bytes"

// ConflictTLBBytes is the feature of Config.ConflictTLB: the lines of
// ConflictBytes fetched at a step of their walk that also misses a
// core's first-level data TLB (WalkPageMisses), in bytes.
const ConflictTLBBytes = "mem.l2.conflict.tlb.bytes"

// ConflictLongBytes is the feature of Config.LongWalk: the lines of
// ConflictBytes that a walk loses past its Config.LongKnee-th line or
// page (WalkPast), in bytes.
const ConflictLongBytes = "mem.l2.conflict.long.bytes"

// ConflictLong2Bytes is the feature of Config.LongSecond: the lines of
// ConflictBytes that a walk loses past its Config.LongKnee2-th line or
// page, in bytes.
const ConflictLong2Bytes = "mem.l2.conflict.long2.bytes"

// PageBytes is the page the TLB counts take: x86-64's base page, 4 KiB.
// The EPYC's column walks slow down past about 4096 of them a walk (the
// second-level TLB's entries, docs/accuracy.md), a knee 2 MiB pages would
// put at 8 GiB.
const PageBytes = 4096

// Walks returns, for each global array of k, the byte strides at params
// of its accesses that PoCL runs one work-item at a time (Scalar), each
// along the loop it walks innermost: the last iname of the innermost
// reduction it lies in, else its instruction's innermost loop. Loops
// tagged unr are not walks: the compiler unrolls them, and the loop
// over the work-items, vectorised, is the innermost left
// (matvec_t_unrolled's 64 rows of a at 32 KiB a row take 0.21 ns a load
// on PoCL, as contiguous loads do). Accesses that do not move along the
// walk (stride 0), indirect ones and those with floor divisions (no
// constant stride) are left out.
//
// A CPU core runs such a walk to its end before the next work-item
// starts, so that its lines must stay in the core's cache until the
// next work-item, walking the neighbouring elements, needs them.
func Walks(k *counts.Kernel, params map[string]int64) (map[string][]int64, error) {
	out := map[string][]int64{}
	err := walkSites(k, params, counts.Global, func(_ *counts.Instruction, a *counts.Access, _ string, s int64) {
		out[a.Array.Name] = append(out[a.Array.Name], s)
	})
	return out, err
}

// walkSites calls visit, in schedule order, with each access to an array
// of space in the instructions of k that PoCL runs one work-item at a
// time (Scalar), its instruction, the loop it walks innermost (Walks
// says which) and its byte stride along that loop at params, where the
// stride is not 0.
func walkSites(k *counts.Kernel, params map[string]int64, space counts.Space, visit func(s *counts.Instruction, a *counts.Access, iname string, stride int64)) error {
	scalar := Scalar(k)
	var err error
	var walk func(nodes []counts.Node, loops []string)
	walk = func(nodes []counts.Node, loops []string) {
		for _, n := range nodes {
			switch n := n.(type) {
			case *counts.Loop:
				if unrolled(k, n.Iname) {
					walk(n.Body, loops)
					continue
				}
				walk(n.Body, append(loops[:len(loops):len(loops)], n.Iname))
			case *counts.Instruction:
				if !scalar[n.StatementID()] {
					continue
				}
				inner := ""
				if len(loops) > 0 {
					inner = loops[len(loops)-1]
				}
				for _, e := range []counts.Expr{n.LHS, n.RHS, n.Pred} {
					if e != nil && err == nil {
						err = walkAccesses(k, n, e, inner, params, space, visit)
					}
				}
			}
		}
	}
	walk(k.Schedule, nil)
	return err
}

func unrolled(k *counts.Kernel, iname string) bool {
	in := k.Iname(iname)
	return in != nil && in.Tag.Kind == counts.Unroll
}

// walkAccesses visits each access of e to an array of space with its
// stride along iname (or, inside a reduction, its innermost iname not
// unrolled), where that is not 0.
func walkAccesses(k *counts.Kernel, s *counts.Instruction, e counts.Expr, iname string, params map[string]int64, space counts.Space, visit func(*counts.Instruction, *counts.Access, string, int64)) error {
	var err error
	counts.Walk(e, func(e counts.Expr) bool {
		if err != nil {
			return false
		}
		switch e := e.(type) {
		case *counts.Reduce:
			inner := iname
			for _, in := range e.Inames {
				if !unrolled(k, in) {
					inner = in
				}
			}
			err = walkAccesses(k, s, e.Body, inner, params, space, visit)
			return false
		case *counts.Access:
			if e.Array == nil || e.Array.Space != space {
				break
			}
			var st int64
			if st, err = strideAlong(e, iname, params); err == nil && st != 0 {
				visit(s, e, iname, st)
			}
		}
		return true
	})
	return err
}

// strideAlong returns the byte distance between the elements an access
// reaches at consecutive values of iname, at params: its subscripts'
// coefficients of iname times the dimensions' pitches, as the
// interpreter lays arrays out. It is 0 where the access is indirect, has
// a floor division, or iname is "".
func strideAlong(a *counts.Access, iname string, params map[string]int64) (int64, error) {
	arr := a.Array
	if iname == "" || arr == nil || a.IsIndirect() {
		return 0, nil
	}
	var s int64
	pitch := int64(arr.DType.Size())
	for k := range a.Index {
		d := len(a.Index) - 1 - k
		if arr.ColMajor {
			d = k
		}
		ix := a.Index[d]
		if len(ix.Floors) > 0 {
			return 0, nil
		}
		c, err := ix.CoeffOf(iname).Eval(params)
		if err != nil {
			return 0, fmt.Errorf("array %s: the stride of %s along %s: %w", arr.Name, a, iname, err)
		}
		s += c * pitch
		if k < len(a.Index)-1 {
			ext, err := arr.Shape[d].Eval(params)
			if err != nil {
				return 0, fmt.Errorf("array %s: the extent of dimension %d: %w", arr.Name, d, err)
			}
			pitch *= ext
		}
	}
	if s < 0 {
		s = -s
	}
	return s, nil
}

// WalkMisses returns how many of the l lines of a walk of byte stride s
// an LRU cache of size bytes and ways ways, its sets indexed by
// consecutive lines, loses before the walk comes back to them (0 ways:
// unknown, taken as fully associative). A stride whose power-of-two
// part g exceeds a line steps over g/LineBytes sets at a time (one set
// at a multiple of a way, size/ways), so the walk's lines share D of the
// cache's sets, each taking l/D of them or one more; where a set gets
// more lines than it has ways, a walk that comes back in the same order
// misses every line of it. A stride with no power of two above a line
// reaches every set.
func WalkMisses(l, s, size, ways int64) int64 {
	sets := size / LineBytes / max(ways, 1)
	if l <= 0 || sets <= 0 || ways <= 0 {
		return 0
	}
	step := max(1, (s&-s)/LineBytes)
	d := sets / min(sets, step)
	q, rem := l/d, l%d
	var out int64
	if q+1 > ways {
		out += rem * (q + 1)
	}
	if q > ways {
		out += (d - rem) * q
	}
	return out
}

// WalkPageMisses returns how many of the l steps of a walk of byte
// stride s miss a fully associative LRU TLB of entries pages when the
// walk comes back over the same pages in the same order (0 entries:
// unknown, no misses; s may be negative, a walk back). Where the
// walk's pages (WalkPages) exceed the entries, the walk evicts each
// page's translation before it returns, and its first step on every
// page misses; else none does.
func WalkPageMisses(l, s, entries int64) int64 {
	s = walkStride(s)
	if l <= 0 || s == 0 || entries <= 0 {
		return 0
	}
	if pages := WalkPages(l, s); pages > entries {
		return pages
	}
	return 0
}

// walkStride is the byte distance between a walk's steps, s taken
// either way: a walk back through the cells (a loop whose subscript
// falls) touches the lines and pages a forward one does.
func walkStride(s int64) int64 {
	if s < 0 {
		return -s
	}
	return s
}

// WalkPages returns the pages a walk of l steps of byte stride s > 0
// touches: a stride of a page or more moves to a new page every step, l
// pages; a smaller one that divides PageBytes, from a start within s of a
// page's beginning (a column walk's, whose work-items start in its first
// row), stays on each page PageBytes/s steps, ⌈l·s/PageBytes⌉ pages (a
// walk that starts further in, or whose stride does not divide a page,
// may touch one more).
func WalkPages(l, s int64) int64 {
	if s >= PageBytes {
		return l
	}
	return (l*s + PageBytes - 1) / PageBytes
}

// WalkPast returns how many of the l steps of a walk of byte stride s
// come past its knee-th line (pages false: l - knee) or, with pages, the
// steps that move to a page past its knee-th (WalkPages - knee), at
// least 0; 0 for a knee of 0 (off); s may be negative. The EPYC's column walks at a
// power-of-two pitch lose their lines at about 0.75 ns an element up to
// 512 lines a walk, at 4, 8 and 16 KiB alike, and at 2 and 3 ns at 1024
// and 2048 (docs/accuracy.md): the price of a lost line grows past a
// length no device figure gives, so Calibrate fits the knee.
func WalkPast(l, s, knee int64, pages bool) int64 {
	s = walkStride(s)
	if l <= 0 || s == 0 || knee <= 0 {
		return 0
	}
	n := l
	if pages {
		n = WalkPages(l, s)
	}
	return max(0, n-knee)
}

// Lost is what Conflicts counts of a launch, in bytes.
type Lost struct {
	// Lines is the conflict lines (ConflictBytes); TLB those of them
	// fetched at a step that also misses the TLB (ConflictTLBBytes);
	// Long those a walk loses past its knee (ConflictLongBytes), Long2
	// those past its second knee (ConflictLong2Bytes).
	Lines, TLB, Long, Long2 float64
}

// Conflicts returns the lines, in bytes, that the work-items of a launch
// fetch again because a walk's lines do not fit the sets it reaches in a
// core's L2 (lv.L2Core bytes, lv.Ways ways): for each global array with
// a walk (Walks), the share WalkMisses gives of the lines each work-item
// touches in it (itemLines over items, its walk's length: exact where
// every work-item walks as far, else their average), the largest over
// its strides, of the lines a work-item touches beyond its group's
// first touch (itemLines - groupLines): those the next work-item would
// find in L2, walking the same lines. Other arrays' lines in the same
// sets are not counted against the walk.
//
// Lost.TLB is the part of them fetched at a step that also misses a
// TLB of lv.DTLB pages (WalkPageMisses over the walk's steps, at the
// stride that loses the most lines), and Lost.Long the part past the
// walk's lv.Knee-th line or page (WalkPast): exact where the walk loses
// every line, as a long column walk at a power-of-two pitch does, and
// taken as the same share of the steps where it loses some. Lost.Long2
// is the part past lv.Knee2 alike.
func Conflicts(walks map[string][]int64, itemLines, groupLines map[string]float64, items int64, lv Levels) Lost {
	var out Lost
	if items <= 0 {
		return out
	}
	for a, ss := range walks {
		l := int64(itemLines[a] / float64(items))
		var miss, pageMiss, past, past2 int64
		for _, s := range ss {
			if m := WalkMisses(l, s, lv.L2Core, lv.Ways); m > miss {
				miss, pageMiss, past = m, WalkPageMisses(l, s, lv.DTLB), WalkPast(l, s, lv.Knee, lv.KneePages)
				past2 = WalkPast(l, s, lv.Knee2, lv.KneePages)
			}
		}
		if miss > 0 {
			refetched := float64(miss) / float64(l) * max(0, itemLines[a]-groupLines[a])
			out.Lines += LineBytes * refetched
			out.TLB += LineBytes * float64(pageMiss) / float64(l) * refetched
			out.Long += LineBytes * float64(past) / float64(l) * refetched
			out.Long2 += LineBytes * float64(past2) / float64(l) * refetched
		}
	}
	return out
}
