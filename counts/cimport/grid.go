package cimport

import (
	"fmt"
	"slices"
)

// --groups says gridDim as the host computes it, in C: a division
// truncates, so the host's (n + 255)/256 pastes as it stands, and n/256
// launches fewer work-items than n unless 256 divides n. These are the
// launch bounds that follow, and the warning where a launch so written
// may leave out work-items that the kernel's guard admits.

// setGridBounds bounds each axis's group index by its flag, once
// --assume is read, which may make a division of --groups exact.
// --global rounds up to whole groups, group < ceil(n/den), that is
// den*group <= n - 1; --groups divides as C does, group < n/den + c with
// the quotient truncated, den*(group - c) <= n - den, which is the same
// where den divides n and is then written as the rounded bound, so that
// a guard i < n implies it.
func (t *translator) setGridBounds() error {
	for _, ax := range t.axes {
		l := ax.launch
		if l == nil {
			continue
		}
		last := constPoly(1)
		if l.flag == "--groups" && !t.divides(l.n, l.den) {
			last = l.den
			if err := t.nonNegativeDividend(l); err != nil {
				return err
			}
		}
		l.rounded = last.equal(constPoly(1))
		e, ok := groupsBound(ax.group, l.n, l.den, last, l.c)
		if !ok {
			return errorOverflow(l.flag)
		}
		ax.bound = &cond{op: "cmp", rel: ">=", e: e}
	}
	return nil
}

// groupsBound is the bound on a group index of --groups N/den + c, as
// den*(group - c) + last <= n, written e >= 0: last is den for C's
// truncated quotient, 1 where den divides n (the same bound then,
// written as --global's rounded one is).
func groupsBound(group string, n, den, last poly, c int64) (aff, bool) {
	dc, ok := den.mul(constPoly(c))
	if !ok {
		return nil, false
	}
	low, ok := last.add(dc, -1)
	if !ok {
		return nil, false
	}
	return affConst(n).add(aff{group: den, "": low}, -1)
}

// divides reports whether den, a constant, divides n at every value of
// the parameters: every coefficient of n is a multiple of it, or
// --assume says e % m == 0 for a multiple m of it and every coefficient
// of n - e is a multiple of it (n % 256 == 0 makes n - 512 a multiple of
// 256 too). (A den of tunables is not decided: the .knl's consts may
// take other values.)
func (t *translator) divides(n, den poly) bool {
	d, ok := den.constant()
	if !ok || d <= 0 {
		return false
	}
	if _, ok := n.divExact(d); ok {
		return true
	}
	return slices.ContainsFunc(t.assumed, func(a *cond) bool {
		if a.op != "mod" || a.rel != "==" || a.mod%d != 0 {
			return false
		}
		rest, ok := affConst(n).add(a.e, -1)
		if !ok || len(rest) > 1 || len(rest) == 1 && rest[""] == nil {
			return false
		}
		_, ok = rest[""].divExact(d)
		return ok
	})
}

// nonNegativeDividend makes --groups N/den + c exact where c > 0 and
// den does not divide N: C truncates a negative quotient towards zero,
// where the bound of groupsBound floors it, so a dividend in (-den*c, 0)
// would launch groups that the .knl would not (an exact quotient is the
// same either way). The .knl assumes N >= 0, which counts
// at sizes that break it refuse; a dividend known negative is refused
// here.
func (t *translator) nonNegativeDividend(l *launchSize) error {
	if l.c <= 0 || l.den.equal(constPoly(1)) {
		return nil
	}
	if s, ok := t.sign(l.n); ok {
		if s < 0 {
			return &Error{Msg: fmt.Sprintf("--groups %s: the dividend %s is negative, and C truncates its quotient towards zero, where the .knl's bound would round it down; give the number of groups", l.text, l.n)}
		}
		return nil
	}
	t.assumed = append(t.assumed, &cond{op: "cmp", rel: ">=", e: affConst(l.n)})
	t.notes = append(t.notes, fmt.Sprintf("assumed: %s >= 0: --groups %s adds %d to a quotient, which C truncates towards zero", l.n, l.text, l.c))
	return nil
}

// checkLaunch warns where the guard hoisted into the domain bounds an
// axis's global index from above and the launch of --groups is not
// sure to cover it: a work-item the guard admits but the launch leaves
// out does no work in C, and none is counted, which is what C does, but
// is most likely a host expression that rounds down where the host
// rounds up.
func (t *translator) checkLaunch() {
	for a, ax := range t.axes {
		if ax.launch == nil || ax.launch.flag != "--groups" || t.implied(ax.bound) {
			continue
		}
		bounds := slices.ContainsFunc(t.hoisted, func(h *cond) bool {
			s, ok := t.sign(h.e[ax.group])
			return h.op == "cmp" && ok && s < 0
		})
		if !bounds {
			continue
		}
		t.warnings = append(t.warnings, fmt.Sprintf("--groups %s (axis %d) may launch fewer work-items than the guard at line %d admits, and those left out do nothing and count nothing; %s",
			ax.launch.text, a, t.guardAt.line, ax.launch.advice()))
	}
}
