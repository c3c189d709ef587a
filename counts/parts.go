package counts

import (
	"slices"
	"strings"
)

// A projection leaves out most of a domain's inames, and the inames of
// the loops it leaves out form parts that no constraint links to the
// kept dimensions: matmul_tiled's launch size along l.0 keeps pa, and
// the tile pairs of i and j are such parts. A part only says whether its
// loops run, a condition on the parameters, and the same part recurs in
// every projection that leaves its loops out. simplifyParts simplifies
// each part on its own, once per plan: eliminating a part's variables
// touches only its constraints, so the result is the same set.

// simplifyParts simplifies pc as simplify does, simplifying first each
// part of its existential variables that shares no constraint with a
// name other than the parameters and the part's own variables, looked up
// in memo by its variables (in order) and constraints or added to it.
func (pc piece) simplifyParts(params []string, memo map[string]piece) piece {
	parts, rest := pc.freeParts(params)
	if len(parts) == 0 {
		return pc.simplify()
	}
	for _, part := range parts {
		key := strings.Join(part.exists, ",") + " : " + part.c.String()
		s, ok := memo[key]
		if !ok {
			s = part.simplify()
			memo[key] = s
		}
		rest.exists = append(rest.exists, s.exists...)
		rest.c = append(rest.c, s.c...)
	}
	return rest.simplify()
}

// freeParts splits pc into the parts that simplifyParts simplifies on
// their own and the rest: the other constraints and variables.
func (pc piece) freeParts(params []string) (parts []piece, rest piece) {
	// Variables that share a constraint have one root (union–find over
	// the indices of pc.exists); attached marks the roots of variables
	// that share a constraint with a dimension.
	root := make([]int, len(pc.exists))
	for i := range root {
		root[i] = i
	}
	find := func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	attached := make([]bool, len(pc.exists))
	first := make([]int, len(pc.c)) // an existential variable of each constraint, or -1
	var names []string
	for ci, x := range pc.c {
		first[ci] = -1
		dim := false
		names = x.e.names(names[:0])
		for _, n := range names {
			switch i := slices.Index(pc.exists, n); {
			case i < 0:
				dim = dim || !slices.Contains(params, n)
			case first[ci] < 0:
				first[ci] = i
			default:
				root[find(i)] = find(first[ci])
			}
		}
		if dim && first[ci] >= 0 {
			attached[first[ci]] = true
		}
	}
	for i := range attached {
		if attached[i] {
			attached[find(i)] = true
		}
	}
	index := map[int]int{} // root -> its part
	for ci, x := range pc.c {
		if first[ci] < 0 || attached[find(first[ci])] {
			rest.c = append(rest.c, x)
			continue
		}
		r := find(first[ci])
		k, ok := index[r]
		if !ok {
			k = len(parts)
			index[r] = k
			parts = append(parts, piece{})
		}
		parts[k].c = append(parts[k].c, x)
	}
	for i, v := range pc.exists {
		if k, ok := index[find(i)]; ok {
			parts[k].exists = append(parts[k].exists, v)
		} else {
			rest.exists = append(rest.exists, v)
		}
	}
	return parts, rest
}
