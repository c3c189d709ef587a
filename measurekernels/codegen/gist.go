package codegen

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// cond is a constraint in isl notation, for polyhedra, and as C. Bounds of
// a loop dimension also carry their side and the bound itself.
type cond struct {
	isl  string
	c    func(vars map[string]string) string
	side int // 0, or lower or upper for a bound of the dimension
	// The bound in isl notation and as C, for bounds.
	boundISL string
	bound    func(vars map[string]string) string
}

const (
	lower = 1
	upper = 2
)

func (s simplifier) constraints(cs []polyhedra.Constraint) []cond {
	out := make([]cond, len(cs))
	for i, c := range cs {
		out[i] = cond{isl: c.String(), c: func(vars map[string]string) string { return constraintC(c, s.params, vars) }}
	}
	return out
}

// boundConds are a piece's bounds of x and its filters as constraints.
func (s simplifier) boundConds(x string, p polyhedra.LoopBounds) []cond {
	var out []cond
	add := func(side int, op string, e polyhedra.Expr) {
		out = append(out, cond{isl: x + op + "(" + e.String() + ")", side: side, boundISL: e.String(), bound: e.C,
			c: func(vars map[string]string) string { return name(x, vars) + op + e.C(vars) }})
	}
	for _, l := range p.Lower {
		add(lower, " >= ", l)
	}
	for _, u := range p.Upper {
		add(upper, " <= ", u)
	}
	return append(out, s.constraints(p.Filter)...)
}

func name(x string, vars map[string]string) string {
	if v, ok := vars[x]; ok {
		return v
	}
	return x
}

// simplifier decides implications between constraints within a context,
// with package polyhedra.
type simplifier struct {
	header string // "[n, m] -> ", the kernel's parameters
	params map[string]bool
}

// set parses { [dims] : conds } over the kernel's parameters.
func (s simplifier) set(dims []string, conds []string) (*polyhedra.Set, error) {
	c := "true"
	if len(conds) > 0 {
		c = "(" + strings.Join(conds, ") and (") + ")"
	}
	src := s.header + "{ [" + strings.Join(dims, ", ") + "] : " + c + " }"
	set, err := polyhedra.ParseSet(src)
	if err != nil {
		return nil, fmt.Errorf("internal error: %s does not parse: %w", src, err)
	}
	return set, nil
}

// within narrows ctx to the points where conds hold.
func (s simplifier) within(ctx *polyhedra.Set, dims []string, conds []cond) (*polyhedra.Set, error) {
	if len(conds) == 0 {
		return ctx, nil
	}
	t, err := s.set(dims, isls(conds))
	if err != nil {
		return nil, err
	}
	return polyhedra.Intersect(ctx, t)
}

// isEmpty reports whether ctx narrowed to conds has no point. A question
// too complex for polyhedra is answered no.
func (s simplifier) isEmpty(ctx *polyhedra.Set, dims []string, conds []cond) (bool, error) {
	t, err := s.within(ctx, dims, conds)
	if err != nil {
		return false, err
	}
	empty, err := t.IsEmpty()
	if _, ok := errors.AsType[*polyhedra.ComplexityError](err); ok {
		return false, nil
	}
	return empty, err
}

// implied reports whether c holds at every point of ctx where the given
// constraints hold. A question too complex for polyhedra is answered no.
func (s simplifier) implied(ctx *polyhedra.Set, dims []string, given []cond, c string) (bool, error) {
	return s.isEmpty(ctx, dims, append(slices.Clone(given), cond{isl: "not (" + c + ")"}))
}

// gist drops the constraints that the others imply within ctx, so that
// ctx and the constraints left describe the same points as ctx and conds.
// It keeps at least one lower and one upper bound when conds has them:
// those are a loop's first and last value, which no other constraint
// stands in for.
func (s simplifier) gist(ctx *polyhedra.Set, dims []string, conds []cond) ([]cond, error) {
	kept := slices.Clone(conds)
	for i := 0; i < len(kept); {
		side := kept[i].side
		if side != 0 && countSide(kept, side) == 1 {
			i++
			continue
		}
		others := slices.Delete(slices.Clone(kept), i, i+1)
		ok, err := s.implied(ctx, dims, others, kept[i].isl)
		if err != nil {
			return nil, err
		}
		if ok {
			kept = others
		} else {
			i++
		}
	}
	return kept, nil
}

func isls(conds []cond) []string {
	out := make([]string, len(conds))
	for i, c := range conds {
		out[i] = c.isl
	}
	return out
}

func countSide(conds []cond, side int) int {
	n := 0
	for _, c := range conds {
		if c.side == side {
			n++
		}
	}
	return n
}

// bounds renders the lower or upper bounds among conds.
func bounds(conds []cond, side int, vars map[string]string) []string {
	var out []string
	for _, c := range conds {
		if c.side == side {
			out = append(out, c.bound(vars))
		}
	}
	return out
}

// conj renders the constraints that are not bounds joined by &&, "" for
// none.
func conj(conds []cond, vars map[string]string) string {
	var parts []string
	for _, c := range conds {
		if c.side == 0 {
			parts = append(parts, c.c(vars))
		}
	}
	return strings.Join(parts, " && ")
}

// allConj renders all the constraints, bounds included, joined by &&.
func allConj(conds []cond) string {
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = c.c(nil)
		if len(conds) > 1 && !enclosed(parts[i]) {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, " && ")
}

// fold renders the largest (f = "imax") or smallest ("imin") of exprs.
func fold(f string, exprs []string) (string, error) {
	if len(exprs) == 0 {
		return "", errors.New("internal error: a loop without a bound on one side")
	}
	out := exprs[0]
	for _, e := range exprs[1:] {
		out = f + "(" + out + ", " + e + ")"
	}
	return out, nil
}
