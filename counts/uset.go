package counts

import (
	"slices"
	"strings"
)

// uset is a finite union of projected basic sets: the points of dims for
// which some piece has values of its existential variables satisfying its
// constraints. Every count of the symbolic counts is the number of points
// of a uset (or a product of such numbers), so that the same set can be
// counted symbolically and, for checking, by enumeration.
type uset struct {
	dims   []string
	pieces []piece
}

// piece is one basic set of a uset with its own existential variables.
type piece struct {
	exists []string
	c      conj
}

// isl renders the set in isl notation over the given parameters.
func (u *uset) isl(params []string) string {
	if len(u.pieces) == 0 {
		return islSet(params, u.dims, "1 = 0")
	}
	parts := make([]string, len(u.pieces))
	for i, p := range u.pieces {
		c := "0 = 0"
		if len(p.c) > 0 {
			c = p.c.String()
		}
		if len(p.exists) > 0 {
			c = "exists (" + strings.Join(p.exists, ", ") + " : " + c + ")"
		}
		parts[i] = c
		if len(u.pieces) > 1 {
			parts[i] = "(" + c + ")"
		}
	}
	return islSet(params, u.dims, strings.Join(parts, " or "))
}

// vars lists the dimensions and then every existential variable once.
func (u *uset) vars() []string {
	out := slices.Clone(u.dims)
	for _, p := range u.pieces {
		for _, e := range p.exists {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// countConcrete counts the points of u at concrete parameter values by
// enumeration, spending at most budget candidate values.
func countConcrete(u *uset, file string, paramNames []string, params map[string]int64, budget int64) (n int64, err error) {
	e := newSetEngine(file, u.vars(), paramNames, params)
	e.budget = budget
	defer recoverRun(&err)
	dom := &cdomain{}
	for i := range u.vars() {
		dom.inames = append(dom.inames, i)
	}
	for _, p := range u.pieces {
		var own []int
		for _, n := range append(slices.Clone(u.dims), p.exists...) {
			own = append(own, e.slot[n])
		}
		cc, err := e.compileConj(p.c, own)
		if err != nil {
			return 0, err
		}
		dom.conjs = append(dom.conjs, cc)
	}
	q := e.newQuery(dom, nil, u.dims)
	v := slices.Clone(e.base)
	q.each(v, func() { n++ })
	return n, nil
}
