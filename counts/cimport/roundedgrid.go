package cimport

import (
	"fmt"
	"strings"
)

// An axis whose flags' bound the kernel's guard does not imply (conv3d's
// if ... else, which every launched work-item runs) covers the launched
// grid, rounded to whole groups. Where a C variable holds get_global_id
// of it, a launch index that C computes nothing for, the axis is named
// by that variable all the same, so that using it costs nothing, as in
// C: its domain is the rounded grid, v < L*G with G the groups launched
// (32*ceil(nk/32) for --global nk in groups of 32), which bounds the
// split's outer iname as floor(v/L) < G would not. CUDA's
// blockIdx.x*blockDim.x + threadIdx.x is arithmetic that C executes, and
// stays written out at its uses (reduce0's i < n), as before.

// isGlobalID reports whether e is get_global_id(a), cast or not.
func isGlobalID(e *expr) bool {
	for e != nil && e.op == "cast" {
		e = e.args[0]
	}
	return e != nil && e.op == "call" && e.args[0].op == "id" && e.args[0].text == "get_global_id"
}

// roundedGrid writes the launch's bound on an axis named v as v < L*G,
// with G the number of groups of the axis's flag: ceil(n/L) for
// --global, N/D + c in C's arithmetic for --groups. It reports false
// where L or D is not a number or n names a tunable, which the .knl's
// floor and ceil would read as a const of other values.
func (t *translator) roundedGrid(ax *axis, v string) (string, bool) {
	l := ax.launch
	if l == nil {
		return "", false
	}
	size, ok := ax.size.constant()
	den, dok := l.den.constant()
	if !ok || !dok || t.namesTunable(l.n) {
		return "", false
	}
	var g string
	switch {
	case den == 1:
		n, ok := l.n.add(constPoly(l.c), 1)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("%s < %d*%s", v, size, parenthesized(n)), true
	case l.rounded:
		g = fmt.Sprintf("ceil(%s/%d)", parenthesized(l.n), den)
	default:
		g = fmt.Sprintf("floor(%s/%d)", parenthesized(l.n), den)
	}
	switch {
	case l.c > 0:
		g = fmt.Sprintf("(%s + %d)", g, l.c)
	case l.c < 0:
		g = fmt.Sprintf("(%s - %d)", g, -l.c)
	}
	return fmt.Sprintf("%s < %d*%s", v, size, g), true
}

// namesTunable reports whether p has a tunable in a monomial.
func (t *translator) namesTunable(p poly) bool {
	for m := range p {
		for _, f := range strings.Split(m, "*") {
			if f != "" && t.isTunable(f) {
				return true
			}
		}
	}
	return false
}
