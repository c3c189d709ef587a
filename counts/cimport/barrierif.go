package cimport

import (
	"fmt"
	"strings"
)

// A barrier inside an if that is not the kernel's guard: C lets every
// work-item of a group reach it or none, the .knl only every work-item.
// SHOC's spmv_csr_vector_kernel tests myRow < dim, a row of 4 a group,
// around its reduction's barriers; launched at --global dim*32, every
// work-item passes the test where dim is a multiple of 4, and the host
// says so with --assume 'dim % 4 == 0'. Where the launch's bounds and
// --assume imply the if's condition at every work-item launched
// (launchHolds), every work-item reaches the barrier, and the if changes
// nothing from its first barrier on: the statements before that stay
// under the if, where C tests it once, and the rest is translated
// outside it. The .knl's header says so, beside the assumption's own
// note, and its assume line makes counts at sizes that break the
// assumption refuse. Where they do not imply it, the barrier is refused,
// and the refusal names the --assume that would (holdsUnder).

// hasBarrier reports whether s holds a barrier.
func (t *translator) hasBarrier(s *stmt) bool {
	return stmtHas(s, func(e *expr) bool { return e.op == "call" && t.isBarrier(e) })
}

// ifHolding translates if (C) BODY, where BODY holds a barrier and C
// holds at every work-item launched: BODY's statements before the first
// that holds a barrier under the if (the variables they set keep their
// values after it), the others after it; an else,
// which no work-item runs, is left out. It reports false, translating
// nothing, where C does not hold so.
func (t *translator) ifHolding(s *stmt, c *cond) (bool, error) {
	if !t.hasBarrier(s.then) || !t.launchHolds(c) {
		return false, nil
	}
	body := []*stmt{s.then}
	if s.then.kind == "block" {
		body = s.then.body
	}
	k := 0
	for !t.hasBarrier(body[k]) {
		k++
	}
	t.scopes = append(t.scopes, map[string]*variable{})
	defer func() { t.scopes = t.scopes[:len(t.scopes)-1] }()
	test := "its test counts once, before it"
	if k > 0 {
		if err := t.branch(c, s.p, true, func() error { return t.sequence(body[:k]) }, nil); err != nil {
			return true, err
		}
	} else {
		test = "its test, at the barrier, counts nothing"
	}
	if s.els != nil {
		test += "; its else, which no work-item runs, is left out"
	}
	under := "the launch's bounds"
	if len(t.opts.Assume) > 0 {
		under += " and --assume '" + strings.Join(t.opts.Assume, "' '") + "'"
	}
	t.notes = append(t.notes, fmt.Sprintf("assumed: the if at line %d (%s) holds at every work-item launched, as %s imply: the barrier at line %d inside it is reached by every work-item, and the if's statements from line %d on are written outside it (%s)",
		s.p.line, c.format(t.instrAff), under, t.barrierLine(body[k]), body[k].p.line, test))
	return true, t.sequence(body[k:])
}

// barrierLine is the line of the first barrier in s.
func (t *translator) barrierLine(s *stmt) int {
	line := 0
	stmtHas(s, func(e *expr) bool {
		if e.op == "call" && t.isBarrier(e) {
			line = e.p.line
			return true
		}
		return false
	})
	return line
}

// launchHolds reports whether c, a conjunction of affine comparisons,
// holds at every work-item the launch covers: each comparison's least
// value over the work-group and the groups launched, under --assume's x
// % M == 0, is a constant that is not negative.
func (t *translator) launchHolds(c *cond) bool {
	conj, ok := c.conjunction()
	if !ok || len(conj) == 0 {
		return false
	}
	for _, k := range conj {
		if k.rel != ">=" {
			return false
		}
		least, ok := t.least(k.e)
		if c, isConst := least.constant(); !ok || !isConst || c < 0 {
			return false
		}
	}
	return true
}

// least is e's least value over the launch: a work-item index at 0 or
// at its largest, a group index at 0 or at the last group launched,
// with each size parameter x that --assume makes a multiple of M
// written M*x.
func (t *translator) least(e aff) (poly, bool) {
	out := t.multiples(e[""])
	for k, p := range e {
		if k == "" {
			continue
		}
		c, ok := p.constant()
		if !ok {
			return nil, false
		}
		if c >= 0 {
			continue
		}
		hi, ok := t.largest(k)
		if !ok {
			return nil, false
		}
		if out, ok = out.add(hi, c); !ok {
			return nil, false
		}
	}
	return out, true
}

// largest is the largest value of a launch iname: a work-item index's,
// a lane's or a run's a constant, a group index's the last group of the
// axis's flag, where --assume's multiples make its bound divide.
func (t *translator) largest(name string) (poly, bool) {
	for _, ax := range t.axes {
		size, ok := ax.size.constant()
		if !ok {
			size = 0
		}
		switch {
		case name == ax.local && size > 0:
			return constPoly(size - 1), true
		case ax.split != nil && name == ax.lane:
			return constPoly(ax.split.c - 1), true
		case ax.split != nil && name == ax.run && size > 0:
			return constPoly(size/ax.split.c - 1), true
		case name == ax.group && ax.bound != nil:
			return t.lastGroup(ax)
		}
	}
	return nil, false
}

// lastGroup is floor(Q/den) for the axis's bound Q - den*group >= 0,
// where den is a constant that divides every coefficient of Q but its
// constant, once --assume's multiples are written out.
func (t *translator) lastGroup(ax *axis) (poly, bool) {
	den, ok := ax.bound.e[ax.group].constant()
	if !ok || den >= 0 || len(ax.bound.e) != 2 {
		return nil, false
	}
	den = -den
	q := t.multiples(ax.bound.e[""])
	q0 := q[""]
	rest, ok := q.add(constPoly(q0), -1)
	if !ok {
		return nil, false
	}
	out, ok := rest.divExact(den)
	if !ok {
		return nil, false
	}
	f := q0 / den
	if q0%den != 0 && q0 < 0 {
		f--
	}
	return out.add(constPoly(f), 1)
}

// multiples writes each size parameter x of p that --assume makes a
// multiple of M (x % M == 0) as M*x, x then standing for x/M.
func (t *translator) multiples(p poly) poly {
	out := poly{}
	for m, c := range p {
		if m != "" {
			for _, f := range strings.Split(m, "*") {
				c, _ = mulInt(c, t.multipleOf(f))
			}
		}
		out[m] = c
	}
	return out.trim()
}

// multipleOf is the M of --assume's x % M == 0 for x, or 1.
func (t *translator) multipleOf(x string) int64 {
	for _, a := range t.assumed {
		if a.op == "mod" && a.rel == "==" && len(a.e) == 1 && len(a.e[""]) == 1 && a.e[""][x] == 1 {
			return a.mod
		}
	}
	return 1
}

// holdsUnder is what to write where the innermost if around a barrier
// would hold at every work-item launched under one more assumption, x %
// D == 0 for a comparison P - D*group - ... >= 0 with P + 1 = x (a row
// myRow < dim, D rows a group): "" where none would.
func (t *translator) holdsUnder() string {
	var c *cond
	for _, f := range t.frames {
		if !f.loop {
			c = f.c
		}
	}
	if c == nil {
		return ""
	}
	conj, _ := c.conjunction()
	for _, k := range conj {
		x, ok := k.e[""].add(constPoly(1), 1)
		if !ok || len(x) != 1 {
			continue
		}
		name := sortedMonomials(x)[0]
		if x[name] != 1 || name == "" || strings.Contains(name, "*") {
			continue
		}
		for _, ax := range t.axes {
			d, ok := k.e[ax.group].constant()
			if !ok || d >= 0 {
				continue
			}
			t.assumed = append(t.assumed, &cond{op: "mod", rel: "==", e: affConst(poly{name: 1}), mod: -d})
			holds := t.launchHolds(c)
			t.assumed = t.assumed[:len(t.assumed)-1]
			if holds {
				return fmt.Sprintf("; or, where the host makes %s a multiple of %d, say so with --assume '%s %% %d == 0': the if then holds at every work-item launched, and every one reaches the barrier", name, -d, name, -d)
			}
		}
	}
	return ""
}
