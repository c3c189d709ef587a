package counts

import "github.com/uniperf/uniperf/polyhedra"

// This file counts the sets of a plan at fixed parameters as products of
// their independent parts, and shares the parts' counts between the
// kernels counted with one Shared. With the parameters fixed, a set
// whose variables fall into groups that no constraint links is the
// Cartesian product of its projections onto the groups (the
// existential variables go with the group of the constraints that
// mention them). The tiled convolution's domain is a row part in gy, ty
// and yi, a column part in gx, tx and xi, and the filter's i and j:
// across a tuning space the row parts depend on the row tunables only,
// so the 10,640 bindings of four tunables of docs/tuning.md's space
// count 769 parts where they counted 32,199 distinct whole sets (85,128
// in all).

// countFixed counts the set u, whose parameters are fixed (it mentions
// none) and whose isl text is text, as the product of its independent
// parts, each counted through shared; a set that is a union of pieces
// is counted whole.
func countFixed(u *uset, text string, shared *Shared, lim polyhedra.Limits) (*polyhedra.PwQPolynomial, error) {
	parts, empty := u.independentParts()
	if empty {
		return shared.count(islSet(nil, nil, "1 = 0"), lim)
	}
	if len(parts) == 1 {
		return shared.count(text, lim)
	}
	var n *polyhedra.PwQPolynomial
	for _, part := range parts {
		c, err := shared.count(part.isl(nil), lim)
		if err != nil {
			return nil, err
		}
		if n == nil {
			n = c
		} else if n, err = n.Mul(c); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// independentParts splits a set of one piece into the sets of its
// groups of linked variables, whose counts multiply to its own: two
// variables are linked when a constraint mentions both. Constraints
// without variables are dropped where they hold; empty reports one that
// fails, which makes the set empty. A union, or a set with a meet, is
// returned whole, as is a set of one group.
func (u *uset) independentParts() (parts []*uset, empty bool) {
	if len(u.pieces) != 1 || len(u.meet) > 0 {
		return []*uset{u}, false
	}
	pc := u.pieces[0]
	vars := append(append([]string(nil), u.dims...), pc.exists...)
	slot := make(map[string]int, len(vars))
	for i, v := range vars {
		slot[v] = i
	}
	group := make([]int, len(vars)) // union-find parents
	for i := range group {
		group[i] = i
	}
	find := func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	owner := make([]int, len(pc.c)) // a variable of each constraint, -1 for none
	var names []string
	for ci, x := range pc.c {
		owner[ci] = -1
		names = x.e.names(names[:0])
		for _, n := range names {
			i, ok := slot[n]
			if !ok {
				return []*uset{u}, false // a name that is not a variable: leave it to polyhedra
			}
			if owner[ci] < 0 {
				owner[ci] = i
			} else {
				group[find(i)] = find(owner[ci])
			}
		}
		if owner[ci] < 0 && !x.e.isConst() {
			return []*uset{u}, false
		}
		if owner[ci] < 0 && !constHolds(x) {
			return nil, true
		}
	}
	index := map[int]int{} // root -> part
	for i := range vars {
		r := find(i)
		k, ok := index[r]
		if !ok {
			k = len(parts)
			index[r] = k
			parts = append(parts, &uset{pieces: []piece{{}}})
		}
		if i < len(u.dims) {
			parts[k].dims = append(parts[k].dims, vars[i])
		} else {
			parts[k].pieces[0].exists = append(parts[k].pieces[0].exists, vars[i])
		}
	}
	if len(parts) <= 1 {
		return []*uset{u}, false
	}
	for ci, x := range pc.c {
		if owner[ci] >= 0 {
			k := index[find(owner[ci])]
			parts[k].pieces[0].c = append(parts[k].pieces[0].c, x)
		}
	}
	return parts, false
}

// constHolds reports whether a constraint without variables holds.
func constHolds(x cons) bool {
	if x.eq {
		return x.e.c == 0
	}
	return x.e.c >= 0
}
