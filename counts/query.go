package counts

import "slices"

// query answers membership and enumeration questions about one compiled
// domain for a fixed split of its inames: the fixed inames get values
// from the caller, the targets are enumerated, and the remaining (free)
// inames are projected out, that is, searched for an extension.
type query struct {
	e       *engine
	dom     *cdomain
	targets []int
	free    []int
	conjs   []qconj
	known   []bool
	save    []int64
	// down makes each run through the targets' values from the largest
	// (a loop over a Down iname).
	down bool
	// searches, where limited, bounds the steps down the search of the
	// free inames (each call of search, one a depth): a step whose
	// iname's bounds are empty spends nothing of the engine's budget, yet
	// a scan can take millions of them (indexRange's first, quick scan
	// and reachesOutside stop on it).
	searches int64
	limited  bool
}

type qconj struct {
	c     *cconj
	pre   []int   // constraints over fixed slots and targets only
	tcons [][]int // per target: constraints linear in it
	comps []*qcomp
}

// qcomp is a connected group of free inames: constraints link them to
// each other but not to the free inames of other groups, so each group
// is searched on its own.
type qcomp struct {
	vars   []int
	bcons  [][]int // per var: constraints linear in it, for bounds
	checks [][]int // per depth: constraints fully known from that depth
	indep  bool    // mentions no fixed iname or target: answer is cached
	cache  int8    // 0 unknown, 1 non-empty, -1 empty
}

// newQuery prepares questions about dom where fixed inames have given
// values and targets are enumerated.
func (e *engine) newQuery(dom *cdomain, fixed, targets []string) *query {
	q := &query{e: e, dom: dom, known: make([]bool, len(e.base))}
	for _, p := range e.paramNames {
		q.known[e.slot[p]] = true
	}
	isFixed := make([]bool, len(e.base))
	for _, n := range fixed {
		isFixed[e.slot[n]] = true
		q.known[e.slot[n]] = true
	}
	for _, n := range targets {
		q.targets = append(q.targets, e.slot[n])
		isFixed[e.slot[n]] = true
	}
	for _, p := range e.paramNames {
		isFixed[e.slot[p]] = true
	}
	for _, s := range dom.inames {
		if !isFixed[s] {
			q.free = append(q.free, s)
		}
	}
	q.save = make([]int64, len(q.free))
	for _, c := range dom.conjs {
		if c.dead {
			continue
		}
		q.conjs = append(q.conjs, q.prepareConj(c, isFixed, len(e.varNames)))
	}
	return q
}

func (q *query) prepareConj(c *cconj, isFixed []bool, nInames int) qconj {
	qc := qconj{c: c, tcons: make([][]int, len(q.targets))}
	for j, t := range q.targets {
		for i := range c.cons {
			if c.cons[i].e.coefOf(t) != 0 {
				qc.tcons[j] = append(qc.tcons[j], i)
			}
		}
	}
	// Group free inames by shared constraints (union-find).
	parent := map[int]int{}
	var find func(int) int
	find = func(x int) int {
		if parent[x] != x {
			parent[x] = find(parent[x])
		}
		return parent[x]
	}
	for _, s := range q.free {
		parent[s] = s
	}
	for i := range c.cons {
		var first = -1
		for _, s := range c.cons[i].slots {
			if isFixed[s] {
				continue
			}
			if first < 0 {
				first = s
			} else {
				parent[find(s)] = find(first)
			}
		}
		if first < 0 {
			qc.pre = append(qc.pre, i)
		}
	}
	byRoot := map[int]*qcomp{}
	for _, s := range q.free { // domain order: outer inames are searched first
		r := find(s)
		if byRoot[r] == nil {
			byRoot[r] = &qcomp{indep: true}
			qc.comps = append(qc.comps, byRoot[r])
		}
		byRoot[r].vars = append(byRoot[r].vars, s)
	}
	for _, comp := range qc.comps {
		comp.bcons = make([][]int, len(comp.vars))
		comp.checks = make([][]int, len(comp.vars))
		depth := map[int]int{}
		for d, s := range comp.vars {
			depth[s] = d
		}
		for i := range c.cons {
			x := &c.cons[i]
			deepest, mine, touchesFixed := -1, false, false
			for _, s := range x.slots {
				if d, ok := depth[s]; ok {
					mine = true
					deepest = max(deepest, d)
				} else if s < nInames && isFixed[s] {
					touchesFixed = true
				}
			}
			if !mine {
				continue
			}
			if touchesFixed {
				comp.indep = false
			}
			comp.checks[deepest] = append(comp.checks[deepest], i)
			for d, s := range comp.vars {
				if x.e.coefOf(s) != 0 {
					comp.bcons[d] = append(comp.bcons[d], i)
				}
			}
		}
	}
	return qc
}

// member reports whether the fixed inames and targets (values in v) lie
// in the projection of the domain. Free slots of v are restored.
func (q *query) member(v []int64) bool {
	for i, s := range q.free {
		q.save[i] = v[s]
	}
	found := false
	for i := range q.conjs {
		if q.conjMember(&q.conjs[i], v) {
			found = true
			break
		}
	}
	for i, s := range q.free {
		v[s] = q.save[i]
	}
	return found
}

func (q *query) conjMember(qc *qconj, v []int64) bool {
	return q.conjMemberPre(qc, qc.pre, v)
}

// conjMemberPre is conjMember with pre standing for qc.pre: the
// constraints over fixed slots that are still to be checked.
func (q *query) conjMemberPre(qc *qconj, pre []int, v []int64) bool {
	if !holdsAll(qc.c, pre, v) {
		return false
	}
	for _, comp := range qc.comps {
		if comp.indep && comp.cache != 0 {
			if comp.cache < 0 {
				return false
			}
			continue
		}
		ok := q.search(qc.c, comp, 0, v)
		if comp.indep {
			comp.cache = 1
			if !ok {
				comp.cache = -1
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// holdsAll reports whether the constraints of c numbered in idx hold at v.
func holdsAll(c *cconj, idx []int, v []int64) bool {
	for _, i := range idx {
		if !c.cons[i].holds(v) {
			return false
		}
	}
	return true
}

func (q *query) search(c *cconj, comp *qcomp, d int, v []int64) bool {
	if d == len(comp.vars) {
		return true
	}
	if q.limited {
		if q.searches--; q.searches < 0 {
			panic(runError{errorf(q.e.file, Pos{}, "%v (at %s)", ErrTooLarge, q.e.paramString())})
		}
	}
	x := comp.vars[d]
	b := c.box[x]
	for _, i := range comp.bcons[d] {
		b = b.intersect(boundFrom(&c.cons[i], x, c.cons[i].e.coefOf(x), v, q.known, c.box))
	}
	if b.empty() {
		return false
	}
	q.known[x] = true
	found := false
	for val := b.lo; val <= b.hi && !found; val++ {
		q.e.spend()
		v[x] = val
		ok := true
		for _, i := range comp.checks[d] {
			if !c.cons[i].holds(v) {
				ok = false
				break
			}
		}
		found = ok && q.search(c, comp, d+1, v)
	}
	q.known[x] = false
	return found
}

// targetRange bounds target j given the fixed inames and the targets
// before it: the hull over the conjunctions of what their constraints
// allow.
func (q *query) targetRange(j int, v []int64) ival {
	r := ival{lo: 1, hi: 0}
	t := q.targets[j]
	for i := range q.conjs {
		qc := &q.conjs[i]
		b := qc.c.box[t]
		for _, ci := range qc.tcons[j] {
			b = b.intersect(boundFrom(&qc.c.cons[ci], t, qc.c.cons[ci].e.coefOf(t), v, q.known, qc.c.box))
		}
		if !b.empty() {
			r = r.hull(b)
		}
	}
	return r
}

// each calls fn once for every assignment of the targets (written to v,
// in lexicographic order) that lies in the projection of the domain onto
// the fixed inames and the targets.
func (q *query) each(v []int64, fn func()) {
	q.eachFrom(0, v, fn)
}

func (q *query) eachFrom(j int, v []int64, fn func()) {
	if j == len(q.targets) {
		if q.member(v) {
			fn()
		}
		return
	}
	t := q.targets[j]
	r := q.targetRange(j, v)
	q.known[t] = true
	if q.down {
		for x := r.hi; x >= r.lo; x-- {
			q.e.spend()
			v[t] = x
			q.eachFrom(j+1, v, fn)
		}
	} else {
		for x := r.lo; x <= r.hi; x++ {
			q.e.spend()
			v[t] = x
			q.eachFrom(j+1, v, fn)
		}
	}
	q.known[t] = false
}

// convex reports whether the projection onto the single target is
// provably an interval of the integers, so that every value between its
// extremes is a member: one live conjunction, no floor in a constraint
// on the target or on a free iname linked to it, and every such free
// iname alone in its group (see qcomp) with coefficient ±1 in its
// constraints. Each such iname x then ranges over max L_i(t) <= x <=
// min U_j(t) with L_i, U_j affine in the target t, so it has a value
// exactly where every L_i(t) <= U_j(t), an affine condition on t, as
// the target's own constraints are: the values of t are those of an
// interval. Groups that do not mention the target hold or fail alike
// for every value. The launch grid checks that a hardware index runs
// over a contiguous range, and enumerating every work-group index to
// do so was most of the cost of finding it.
func (q *query) convex() bool {
	if len(q.targets) != 1 || len(q.conjs) != 1 {
		return false
	}
	qc := &q.conjs[0]
	t := q.targets[0]
	for _, i := range qc.pre {
		if x := &qc.c.cons[i]; slices.Contains(x.slots, t) && len(x.e.floors) > 0 {
			return false
		}
	}
	for _, comp := range qc.comps {
		if comp.indep {
			continue
		}
		if len(comp.vars) != 1 {
			return false
		}
		for _, i := range comp.bcons[0] {
			if a := qc.c.cons[i].e.coefOf(comp.vars[0]); a != 1 && a != -1 {
				return false
			}
		}
		// checks[0] holds every constraint on the group's one iname.
		for _, i := range comp.checks[0] {
			if len(qc.c.cons[i].e.floors) > 0 {
				return false
			}
		}
	}
	return true
}

// extremes returns the least and greatest value of the single target in
// the projection, scanning inwards from both ends of its range; ok is
// false when the projection is empty.
func (q *query) extremes(v []int64) (lo, hi int64, ok bool) {
	t := q.targets[0]
	r := q.targetRange(0, v)
	q.known[t] = true
	defer func() { q.known[t] = false }()
	for x := r.lo; x <= r.hi; x++ {
		q.e.spend()
		v[t] = x
		if q.member(v) {
			lo, ok = x, true
			break
		}
	}
	if !ok {
		return 0, 0, false
	}
	for x := r.hi; x >= lo; x-- {
		q.e.spend()
		v[t] = x
		if q.member(v) {
			return lo, x, true
		}
	}
	return lo, lo, true
}
