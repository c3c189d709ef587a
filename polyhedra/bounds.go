package polyhedra

import (
	"fmt"
	"slices"
	"strings"
)

// An Expr is a quasi-affine expression: an integer affine combination of
// parameters, dimensions and floor divisions of such expressions. Exprs
// come from Bounds; they print in isl notation and render as C.
type Expr struct {
	b   *bset
	nm  names
	row []int64
}

// A Constraint is Expr >= 0, or Expr = 0 when Eq is set.
type Constraint struct {
	Expr Expr
	Eq   bool
}

// A LoopBounds is one piece of the bounds of a dimension: where every
// Guard constraint holds (they involve only parameters and outer
// dimensions), the dimension runs from the largest Lower to the smallest
// Upper expression (both inclusive, functions of parameters and outer
// dimensions), visiting only the values that satisfy every Filter
// constraint (strides and other conditions that are not bounds).
type LoopBounds struct {
	Guard  []Constraint
	Lower  []Expr
	Upper  []Expr
	Filter []Constraint
}

// Bounds returns the loop bounds of dimension dim when the dimensions in
// outer are fixed, computed from the exact projection of s onto outer and
// dim. The pieces are disjoint: for any values of the parameters and the
// outer dimensions, the dim values of s are exactly those visited by the
// pieces whose guards hold, each value once.
func (s *Set) Bounds(dim string, outer []string) (lb []LoopBounds, err error) {
	defer catch(&err, "loop bounds")
	if slices.Contains(outer, dim) {
		return nil, fmt.Errorf("bounds of %s: it is also an outer dimension", dim)
	}
	keep := append(slices.Clone(outer), dim)
	p, err := s.Project(keep)
	if err != nil {
		return nil, err
	}
	nm := names{params: p.params, dims: p.dims}
	x := 1 + len(p.params) + len(outer)
	for _, b := range disjointParts(p.parts, newBudget(Limits{})) {
		// Divs that depend on the dimension, directly or through other
		// divs, make their constraints filters.
		onDim := make([]bool, b.width())
		onDim[x] = true
		for k, d := range b.divs {
			for c, v := range d.num {
				if v != 0 && onDim[c] {
					onDim[b.divCol(k)] = true
				}
			}
		}
		var pc LoopBounds
		mentions := func(r []int64) (direct, viaDiv bool) {
			for c, v := range r {
				if v != 0 && onDim[c] {
					if c == x {
						direct = true
					} else {
						viaDiv = true
					}
				}
			}
			return direct, viaDiv
		}
		rest := func(r []int64) []int64 {
			r = copyRow(r)
			r[x] = 0
			return r
		}
		bound := func(r []int64, lower bool) {
			// a*x + l >= 0: x >= ceil(-l/a) = -floor(l/a);
			// -a*x + u >= 0: x <= floor(u/a).
			a := abs64(r[x])
			e := rest(r)
			if lower {
				e = negRow(b.floorExpr(e, a))
				pc.Lower = append(pc.Lower, Expr{b, nm, e})
			} else {
				pc.Upper = append(pc.Upper, Expr{b, nm, b.floorExpr(e, a)})
			}
		}
		for _, r := range b.eqs {
			direct, viaDiv := mentions(r)
			switch {
			case viaDiv:
				pc.Filter = append(pc.Filter, Constraint{Expr{b, nm, r}, true})
			case direct:
				if r[x] < 0 {
					r = negRow(r)
				}
				bound(r, true)
				bound(negRow(r), false)
			default:
				pc.Guard = append(pc.Guard, Constraint{Expr{b, nm, r}, true})
			}
		}
		for _, r := range b.ineqs {
			direct, viaDiv := mentions(r)
			switch {
			case viaDiv:
				pc.Filter = append(pc.Filter, Constraint{Expr{b, nm, r}, false})
			case direct:
				bound(r, r[x] > 0)
			default:
				pc.Guard = append(pc.Guard, Constraint{Expr{b, nm, r}, false})
			}
		}
		if len(pc.Lower) == 0 || len(pc.Upper) == 0 {
			return nil, &UnboundedError{Dim: dim}
		}
		// Rows gathered before floorExpr added divs are shorter; pad them.
		for _, list := range [][]Constraint{pc.Guard, pc.Filter} {
			for i := range list {
				list[i].Expr.row = b.fit(copyRow(list[i].Expr.row))
			}
		}
		for _, list := range [][]Expr{pc.Lower, pc.Upper} {
			for i := range list {
				list[i].row = b.fit(list[i].row)
			}
		}
		lb = append(lb, pc)
	}
	return lb, nil
}

// String returns the expression in isl notation.
func (e Expr) String() string { return e.nm.affine(e.b, e.row) }

// String returns the constraint in isl notation.
func (c Constraint) String() string { return c.Expr.nm.constraint(c.Expr.b, c.Expr.row, c.Eq) }

// C renders the expression as C source. vars maps every parameter and
// dimension name to a C expression (names missing from vars are written
// as they are). Floor divisions are written floordiv(a, b), b > 0, which
// the generated code must define with floor semantics for negative a.
func (e Expr) C(vars map[string]string) string { return e.c(vars, false) }

// c renders e; wide writes its coefficients as 64-bit literals, so that a
// floor division's numerator (4095*n + 128*g + t, whose int arithmetic
// overflows at n = 2^20) is computed in 64 bits, as floordiv takes it.
func (e Expr) c(vars map[string]string, wide bool) string {
	l := lin{c: e.row[0], cStyle: true, wide: wide}
	for c := 1; c < len(e.row); c++ {
		if e.row[c] != 0 {
			l.terms = append(l.terms, linTerm{k: e.row[c], atom: e.cAtom(c, vars)})
		}
	}
	return l.render(false)
}

func (e Expr) cAtom(c int, vars map[string]string) string {
	if c >= e.b.firstDiv() {
		d := e.b.divs[c-e.b.firstDiv()]
		num := Expr{e.b, e.nm, d.num}.c(vars, true)
		return "floordiv(" + num + ", " + cInt(d.den) + ")"
	}
	name := e.nm.col(e.b, c)
	if v, ok := vars[name]; ok {
		name = v
	}
	if !isCIdent(name) {
		name = "(" + name + ")"
	}
	return name
}

func isCIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// C renders the constraint as a C condition.
func (c Constraint) C(vars map[string]string) string {
	op := " >= 0"
	if c.Eq {
		op = " == 0"
	}
	return "(" + c.Expr.C(vars) + op + ")"
}

// ConjunctionC renders the constraints joined by &&, or 1 for none.
func ConjunctionC(cs []Constraint, vars map[string]string) string {
	if len(cs) == 0 {
		return "1"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.C(vars)
	}
	return strings.Join(parts, " && ")
}

// C renders the membership test of s as a C condition over the names in
// vars (see Expr.C), for example to guard an instruction in generated code.
func (s *Set) C(vars map[string]string) string {
	if len(s.parts) == 0 {
		return "0"
	}
	nm := names{params: s.params, dims: s.dims}
	var ors []string
	for _, b := range s.parts {
		var cs []Constraint
		for _, r := range b.eqs {
			cs = append(cs, Constraint{Expr{b, nm, r}, true})
		}
		for _, r := range b.ineqs {
			cs = append(cs, Constraint{Expr{b, nm, r}, false})
		}
		ors = append(ors, "("+ConjunctionC(cs, vars)+")")
	}
	return strings.Join(ors, " || ")
}

// Eval returns the value of the expression for the given values of its
// parameters and dimensions; a missing name is an error.
func (e Expr) Eval(values map[string]int64) (v int64, err error) {
	defer catch(&err, "evaluating expression")
	cols, err := e.columns(values)
	if err != nil {
		return 0, err
	}
	return dot(e.row, cols), nil
}

// Holds reports whether the constraint holds for the given values.
func (c Constraint) Holds(values map[string]int64) (bool, error) {
	v, err := c.Expr.Eval(values)
	if err != nil {
		return false, err
	}
	if c.Eq {
		return v == 0, nil
	}
	return v >= 0, nil
}

// columns computes the column values of e's bset that e needs.
func (e Expr) columns(values map[string]int64) ([]int64, error) {
	b := e.b
	need := make([]bool, b.width())
	for c, v := range e.row {
		need[c] = v != 0
	}
	for k := len(b.divs) - 1; k >= 0; k-- {
		if need[b.divCol(k)] {
			for c, v := range b.divs[k].num {
				need[c] = need[c] || v != 0
			}
		}
	}
	cols := make([]int64, b.width())
	cols[0] = 1
	for c := 1; c < b.firstDiv(); c++ {
		if !need[c] {
			continue
		}
		n := e.nm.col(b, c)
		v, ok := values[n]
		if !ok {
			return nil, fmt.Errorf("missing value for %s", n)
		}
		cols[c] = v
	}
	for k, d := range b.divs {
		if need[b.divCol(k)] {
			cols[b.divCol(k)] = floorDiv(dot(d.num, cols), d.den)
		}
	}
	return cols, nil
}
