package cimport

import (
	"fmt"
	"math/bits"
	"strings"
)

// A kernel that gives each run of C work-items one task (SHOC's
// spmv_csr_vector_kernel, a warp a row) computes the lane t & (C - 1)
// (or t % C) and the run t / C of its work-item index t. Both are
// quasi-affine in t, and in a global array's subscript the run has no
// one stride between work-items; but where C divides the work-group's
// size along t's axis they are the indices of a work-group of C x L/C,
// as the original means them: the .knl splits the work-item index
// (split l0 32 l0_run l0_lane), tags the lane with the axis and the run
// with the lowest hardware axis the launch leaves free, and both are
// affine, the run a row's index in a subscript. t itself is C*run +
// lane, written l0, a value that costs nothing, as in C. The
// work-items keep the original's order (the lane varies fastest), so a
// warp holds the same work-items, and what the counts class by stride
// and by bank is what the original's work-items do. What C executes to
// compute the lane and the run, an AND (or a remainder) and a shift (or
// a division), is counted where C computes them: an instruction stores
// each in a private (lane = l0 & 31, run = l0 // 32), which the
// language prices as a % and a // by a power of two (a bitwise AND, a
// shift); the .knl reads the inames instead.
//
// The split is decided by a first translation, which stops at the first
// lane or run it meets (splitRequest); the translation then starts
// again with the axis split (Import).

// splitRequest stops a translation that meets the lane or the run of a
// work-item index not yet split; Import translates again with the split.
type splitRequest struct {
	axis int
	split
}

func (s *splitRequest) Error() string {
	return fmt.Sprintf("the work-item index along axis %d is divided by %d; please report this with the source", s.axis, s.c)
}

// setSplits splits the work-item indices of the axes that splits names;
// each run takes the lowest hardware axis the launch leaves free.
func (t *translator) setSplits(splits map[int]split) {
	next := len(t.axes)
	for a, ax := range t.axes {
		s, ok := splits[a]
		if !ok {
			continue
		}
		ax.split, ax.runAxis = &s, next
		next++
		ax.lane, ax.run = t.unique(ax.local+"_lane"), t.unique(ax.local+"_run")
		size, _ := t.value(ax.size)
		t.notes = append(t.notes, fmt.Sprintf("work-item index %s (axis %d) split by %d, as %s at line %d:%d divides it: the lane %s %% %d is %s (l.%d), the run %s / %d is %s (l.%d), work-groups of %d x %d with the original's work-items in its order; the instructions lane = ... and run = ... count what C computes for them, where it does",
			ax.local, a, s.c, s.what, s.p.line, s.p.col, ax.local, s.c, ax.lane, a, ax.local, s.c, ax.run, ax.runAxis, s.c, size/s.c))
	}
}

// laneVar and runVar are the privates that hold the lane and the run
// of a split axis.
func (t *translator) laneVar(ax *axis) string {
	if ax.laneName == "" {
		ax.laneName = t.private("lane", "i32")
	}
	return ax.laneName
}

func (t *translator) runVar(ax *axis) string {
	if ax.runName == "" {
		ax.runName = t.private("run", "i32")
	}
	return ax.runName
}

// private declares a private scalar named after want.
func (t *translator) private(want, dtype string) string {
	a := &array{name: t.unique(want), dtype: dtype, space: "private", p: t.k.p}
	t.privs = append(t.privs, a)
	return a.name
}

// laneOf evaluates x % d and x & (d - 1) (op % or &) and x / d (op /,
// or >> with d a power of two)
// where x is a work-item's local or global index along an axis (plus
// group indices times multiples of d): the lane, the run plus the
// groups' part divided by d. On an axis not yet split it asks for the
// split (splitRequest). It returns nil and why not where x is such an
// index that cannot be split, and nil and "" where x is none.
func (t *translator) laneOf(e *expr, x aff, d int64, op string) (*value, string, error) {
	if t.inFlag {
		return nil, "", nil
	}
	for a, ax := range t.axes {
		rest, ok := x.add(ax.localValue(), -1)
		if !ok {
			continue
		}
		groups, ok := t.groupsPart(rest, d)
		if !ok || d <= 1 {
			continue
		}
		what := fmt.Sprintf("%s %d", op, d)
		switch op {
		case "&":
			what = fmt.Sprintf("& %d", d-1)
		case ">>":
			what = fmt.Sprintf(">> %d", bits.TrailingZeros64(uint64(d)))
		}
		switch {
		case ax.split != nil && ax.split.c != d:
			return nil, fmt.Sprintf("%s of the work-item index, which %s at line %d already splits into lanes of %d; divide it by %d alone, or write the lane and the run of %d (x %% %d and x / %d) and compute from them", what, ax.split.what, ax.split.p.line, ax.split.c, ax.split.c, ax.split.c, ax.split.c, ax.split.c), nil
		case ax.split == nil:
			if _, ok := ax.size.divExact(d); !ok {
				return nil, fmt.Sprintf("%s of the work-item index, whose lanes and runs of %d are no indices of a work-group of %s along axis %d, which %d does not divide; launch work-groups whose size along the axis %d divides", what, d, ax.size, a, d, d), nil
			}
			if t.usedAxes() >= 3 {
				return nil, fmt.Sprintf("%s of the work-item index, quasi-affine: its lane and its run would be indices of their own, but the launch's three axes leave none free for the run; write the index without it", what), nil
			}
			return nil, "", &splitRequest{a, split{c: d, p: e.p, what: what}}
		}
		var target string
		text := t.instrAff(x)
		out, _ := groups.add(affIname(ax.run), 1)
		switch op {
		case "/", ">>":
			target = t.runVar(ax)
			text = paren(text, affPrec(text), precMul) + " // " + formatInt(d)
		case "%":
			target, out = t.laneVar(ax), affIname(ax.lane)
			text = paren(text, affPrec(text), precMul) + " % " + formatInt(d)
		default:
			target, out = t.laneVar(ax), affIname(ax.lane)
			text = paren(text, affPrec(text), precBitAnd) + " & " + formatInt(d-1)
		}
		key := priced{e, t.steps}
		if !t.priced[key] {
			t.priced[key] = true
			t.emit(&item{kind: "instr", text: target + " = " + text, p: e.p})
		}
		return &value{kind: vInt, a: out}, "", nil
	}
	return nil, "", nil
}

// groupsPart reports whether rest is a sum of group indices times
// non-negative multiples of d, and returns it divided by d.
func (t *translator) groupsPart(rest aff, d int64) (aff, bool) {
	out := aff{}
	for k, p := range rest {
		q, ok := p.divExact(d)
		if s, known := t.sign(p); !ok || !known || s < 0 || !t.isGroupIname(k) {
			return nil, false
		}
		out[k] = q
	}
	return out, true
}

func (t *translator) isGroupIname(name string) bool {
	for _, ax := range t.axes {
		if name == ax.group {
			return true
		}
	}
	return false
}

// usedAxes is the number of hardware axes the launch and its splits
// take.
func (t *translator) usedAxes() int {
	n := len(t.axes)
	for _, ax := range t.axes {
		if ax.split != nil {
			n++
		}
	}
	return n
}

// splitLines are the .knl's split lines of the split axes.
func (t *translator) splitLines() string {
	var b strings.Builder
	for _, ax := range t.axes {
		if ax.split != nil {
			fmt.Fprintf(&b, "split %s %d %s %s\n", ax.local, ax.split.c, ax.run, ax.lane)
		}
	}
	return b.String()
}
