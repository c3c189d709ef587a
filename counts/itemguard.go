package counts

import "slices"

// itemGuard answers a query's member for every work-item of a group at
// one instance of the loops around an instruction. The work-items'
// points differ only in the local-id slots, so the constraints over
// fixed slots that mention none of them hold or fail alike for all of
// them: start checks those once, and member checks the rest, in the
// same order as query.member. Its answers are query.member's.
type itemGuard struct {
	q    *query
	inv  [][]int // per conjunction: pre constraints free of local ids
	rest [][]int // per conjunction: the other pre constraints
	live []bool  // per conjunction: inv holds at the instance
}

// newItemGuard splits q's constraints by whether they mention a slot
// marked in local.
func newItemGuard(q *query, local []bool) *itemGuard {
	g := &itemGuard{q: q, live: make([]bool, len(q.conjs))}
	for i := range q.conjs {
		qc := &q.conjs[i]
		var inv, rest []int
		for _, ci := range qc.pre {
			if slices.ContainsFunc(qc.c.cons[ci].slots, func(s int) bool { return local[s] }) {
				rest = append(rest, ci)
			} else {
				inv = append(inv, ci)
			}
		}
		g.inv = append(g.inv, inv)
		g.rest = append(g.rest, rest)
	}
	return g
}

// start checks the local-id-free constraints at v and reports whether
// any conjunction can still hold.
func (g *itemGuard) start(v []int64) bool {
	some := false
	for i := range g.q.conjs {
		g.live[i] = holdsAll(g.q.conjs[i].c, g.inv[i], v)
		some = some || g.live[i]
	}
	return some
}

// member is g.q.member(v) for a v that differs from start's only in the
// local-id slots.
func (g *itemGuard) member(v []int64) bool {
	q := g.q
	for i, s := range q.free {
		q.save[i] = v[s]
	}
	found := false
	for i := range q.conjs {
		if g.live[i] && q.conjMemberPre(&q.conjs[i], g.rest[i], v) {
			found = true
			break
		}
	}
	for i, s := range q.free {
		v[s] = q.save[i]
	}
	return found
}
