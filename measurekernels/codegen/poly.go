package codegen

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/polyhedra"
)

// polyDomain answers code generation's polyhedral questions with package
// polyhedra, from the kernel's projected domains (see
// counts.Kernel.ProjectedDomain, the one definition of where loops run and
// instructions execute).
//
// Every bound and guard is simplified against what is already known where
// it is evaluated: the assumptions, the enclosing loops' domain, and what
// the launch grid guarantees about the hardware indices. A constraint is
// left out only when polyhedra proves it holds there, so correctness never
// depends on the simplification; it keeps the generated tests short and
// out of inner loops.
type polyDomain struct {
	k      *counts.Kernel
	header string                    // "[n, m] -> ", the kernel's parameters
	sets   map[string]*polyhedra.Set // projected domains by iname list
	// par holds what the launch grid guarantees about the parallel
	// inames: one alone on its hardware axis takes exactly the values of
	// its projected domain; one sharing its axis takes at least its
	// smallest value.
	par *polyhedra.Set
}

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

func newPolyDomain(k *counts.Kernel) (*polyDomain, error) {
	d := &polyDomain{k: k, header: "[" + strings.Join(k.Params, ", ") + "] -> ", sets: map[string]*polyhedra.Set{}}
	par, err := d.set(nil, nil)
	if err != nil {
		return nil, err
	}
	axisUse := map[counts.Tag]int{}
	for _, in := range k.Inames {
		axisUse[in.Tag]++
	}
	for _, in := range k.Inames {
		if !in.Tag.Parallel() {
			continue
		}
		var known *polyhedra.Set
		if axisUse[in.Tag] == 1 {
			known, err = d.projected([]string{in.Name})
		} else {
			known, err = d.lowerBounds(in.Name)
		}
		if err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
		if par, err = polyhedra.Intersect(par, known); err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
	}
	d.par = par
	return d, nil
}

// set parses { [dims] : conds } over the kernel's parameters.
func (d *polyDomain) set(dims []string, conds []string) (*polyhedra.Set, error) {
	c := "true"
	if len(conds) > 0 {
		c = strings.Join(conds, " and ")
	}
	src := d.header + "{ [" + strings.Join(dims, ", ") + "] : " + c + " }"
	s, err := polyhedra.ParseSet(src)
	if err != nil {
		return nil, fmt.Errorf("internal error: %s does not parse: %w", src, err)
	}
	return s, nil
}

// projected is the kernel domain projected onto inames.
func (d *polyDomain) projected(inames []string) (*polyhedra.Set, error) {
	key := strings.Join(inames, ",")
	if s, ok := d.sets[key]; ok {
		return s, nil
	}
	src := d.k.ProjectedDomain(inames)
	s, err := polyhedra.ParseSet(src)
	if err != nil {
		return nil, fmt.Errorf("domain %s: %w", src, err)
	}
	d.sets[key] = s
	return s, nil
}

// lowerBounds is { [x] : x >= L } for the lower bounds L of the projected
// domain of x when it has one piece (the first value is then at least each
// of them; see base), or no constraint at all.
func (d *polyDomain) lowerBounds(x string) (*polyhedra.Set, error) {
	s, err := d.projected([]string{x})
	if err != nil {
		return nil, err
	}
	pieces, err := s.Bounds(x, nil)
	if err != nil {
		return nil, err
	}
	var conds []string
	if len(pieces) == 1 {
		for _, l := range pieces[0].Lower {
			conds = append(conds, x+" >= "+l.String())
		}
	}
	return d.set([]string{x}, conds)
}

// context is what holds wherever the inames known have values in their
// projected domain: the assumptions, those values, and the launch grid's
// guarantees.
func (d *polyDomain) context(known []string) (*polyhedra.Set, error) {
	s, err := d.projected(known)
	if err != nil {
		return nil, err
	}
	return polyhedra.Intersect(d.par, s)
}

// implied reports whether c holds at every point of ctx where the given
// constraints hold. A question too complex for polyhedra is answered no.
func (d *polyDomain) implied(ctx *polyhedra.Set, dims []string, given []cond, c string) (bool, error) {
	conds := make([]string, 0, len(given)+1)
	for _, g := range given {
		conds = append(conds, g.isl)
	}
	conds = append(conds, "not ("+c+")")
	t, err := d.set(dims, conds)
	if err != nil {
		return false, err
	}
	t, err = polyhedra.Intersect(ctx, t)
	if err != nil {
		return false, err
	}
	empty, err := t.IsEmpty()
	var ce *polyhedra.ComplexityError
	if errors.As(err, &ce) {
		return false, nil
	}
	return empty, err
}

// gist drops the constraints that the others imply within ctx.
func (d *polyDomain) gist(ctx *polyhedra.Set, dims []string, conds []cond) ([]cond, error) {
	kept := slices.Clone(conds)
	for i := 0; i < len(kept); {
		others := slices.Delete(slices.Clone(kept), i, i+1)
		ok, err := d.implied(ctx, dims, others, kept[i].isl)
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

// within narrows ctx to the points where conds hold.
func (d *polyDomain) within(ctx *polyhedra.Set, dims []string, conds []cond) (*polyhedra.Set, error) {
	if len(conds) == 0 {
		return ctx, nil
	}
	s, err := d.set(dims, isls(conds))
	if err != nil {
		return nil, err
	}
	return polyhedra.Intersect(ctx, s)
}

func isls(conds []cond) []string {
	out := make([]string, len(conds))
	for i, c := range conds {
		out[i] = c.isl
	}
	return out
}

func constraints(cs []polyhedra.Constraint) []cond {
	out := make([]cond, len(cs))
	for i, c := range cs {
		out[i] = cond{isl: c.String(), c: c.C}
	}
	return out
}

// boundConds are a piece's bounds of x and its filters as constraints.
func boundConds(x string, p polyhedra.LoopBounds) []cond {
	var out []cond
	add := func(side int, op string, e polyhedra.Expr) {
		out = append(out, cond{isl: x + op + e.String(), side: side, boundISL: e.String(), bound: e.C,
			c: func(vars map[string]string) string { return name(x, vars) + op + e.C(vars) }})
	}
	for _, l := range p.Lower {
		add(lower, " >= ", l)
	}
	for _, u := range p.Upper {
		add(upper, " <= ", u)
	}
	return append(out, constraints(p.Filter)...)
}

func name(x string, vars map[string]string) string {
	if v, ok := vars[x]; ok {
		return v
	}
	return x
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
		if !strings.HasPrefix(parts[i], "(") && len(conds) > 1 {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return strings.Join(parts, " && ")
}

// fold renders the largest (f = "imax") or smallest ("imin") of exprs.
func fold(f string, exprs []string) string {
	out := exprs[0]
	for _, e := range exprs[1:] {
		out = f + "(" + out + ", " + e + ")"
	}
	return out
}

// piece is one piece of a dimension's bounds after simplification: where
// guard holds (a condition on the parameters and the outer inames), the
// values between the bounds that satisfy the other constraints.
type piece struct {
	guard []cond
	all   []cond // the bounds, and the filters that are not bounds
}

func (p piece) lo(vars map[string]string) string { return fold("imax", bounds(p.all, lower, vars)) }
func (p piece) hi(vars map[string]string) string { return fold("imin", bounds(p.all, upper, vars)) }

// pieces returns the simplified pieces of x's bounds with outer fixed,
// within ctx.
func (d *polyDomain) pieces(ctx *polyhedra.Set, x string, outer []string) ([]piece, error) {
	s, err := d.projected(append(slices.Clone(outer), x))
	if err != nil {
		return nil, err
	}
	raw, err := s.Bounds(x, outer)
	if err != nil {
		return nil, err
	}
	dims := append(slices.Clone(outer), x)
	var out []piece
	for _, r := range raw {
		guard, err := d.gist(ctx, dims, constraints(r.Guard))
		if err != nil {
			return nil, err
		}
		inner, err := d.within(ctx, dims, guard)
		if err != nil {
			return nil, err
		}
		all, err := d.gist(inner, dims, boundConds(x, r))
		if err != nil {
			return nil, err
		}
		out = append(out, piece{guard: guard, all: all})
	}
	return out, nil
}

func (d *polyDomain) loop(x string, known []string) (loopBounds, error) {
	ctx, err := d.context(known)
	if err != nil {
		return loopBounds{}, err
	}
	ps, err := d.pieces(ctx, x, known)
	if err != nil {
		return loopBounds{}, err
	}
	switch len(ps) {
	case 0:
		return loopBounds{lo: "0", hi: "-1"}, nil
	case 1:
		p := ps[0]
		return loopBounds{guard: conj(p.guard, nil), lo: p.lo(nil), hi: p.hi(nil), filter: conj(p.all, nil)}, nil
	}
	return d.multiLoop(ctx, x, known, ps)
}

// Sentinels of the first and last values of pieces whose guards fail.
const (
	intMax = "2147483647"
	intMin = "(-2147483647 - 1)"
)

// multiLoop runs x from the smallest first value of the pieces whose
// guards hold to the largest last value, and tests membership in the
// pieces inside. (Running the pieces one after the other would visit
// values out of order where several hold at once.)
func (d *polyDomain) multiLoop(ctx *polyhedra.Set, x string, known []string, ps []piece) (loopBounds, error) {
	var los, his []string
	for _, p := range ps {
		lo, hi := p.lo(nil), p.hi(nil)
		if g := conj(p.guard, nil); g != "" {
			lo = "((" + g + ") ? " + lo + " : " + intMax + ")"
			hi = "((" + g + ") ? " + hi + " : " + intMin + ")"
		}
		los, his = append(los, lo), append(his, hi)
	}
	// A bound that every piece has holds between the loop's bounds.
	var common []cond
	for _, c := range ps[0].all {
		if c.side != 0 && !slices.ContainsFunc(ps[1:], func(p piece) bool {
			return !slices.ContainsFunc(p.all, func(o cond) bool { return o.isl == c.isl })
		}) {
			common = append(common, c)
		}
	}
	dims := append(slices.Clone(known), x)
	inner, err := d.within(ctx, dims, common)
	if err != nil {
		return loopBounds{}, err
	}
	var ors []string
	for _, p := range ps {
		m, err := d.gist(inner, dims, append(slices.Clone(p.guard), p.all...))
		if err != nil {
			return loopBounds{}, err
		}
		if len(m) == 0 {
			ors = nil
			break
		}
		ors = append(ors, "("+allConj(m)+")")
	}
	return loopBounds{lo: fold("imin", los), hi: fold("imax", his), filter: strings.Join(ors, " || ")}, nil
}

// member is the test that the current values of inames lie in their
// projected domain, where those of known do.
func (d *polyDomain) member(inames, known []string) (string, error) {
	ctx, err := d.context(known)
	if err != nil {
		return "", err
	}
	s, err := d.projected(inames)
	if err != nil {
		return "", err
	}
	// The constraints of s are the guards of a dimension fixed to 0.
	const dummy = "uniperf_point_"
	z, err := d.set([]string{dummy}, []string{dummy + " = 0"})
	if err != nil {
		return "", err
	}
	if s, err = polyhedra.Intersect(s, z); err != nil {
		return "", err
	}
	raw, err := s.Bounds(dummy, inames)
	if err != nil {
		return "", err
	}
	var ors []string
	for _, r := range raw {
		cs := constraints(r.Guard)
		inner, err := d.within(ctx, inames, cs)
		if err != nil {
			return "", err
		}
		if empty, err := inner.IsEmpty(); err == nil && empty {
			continue // the piece never holds here
		}
		m, err := d.gist(ctx, inames, cs)
		if err != nil {
			return "", err
		}
		if len(m) == 0 {
			return "", nil
		}
		ors = append(ors, allConj(m))
	}
	switch len(ors) {
	case 0:
		return "0", nil
	case 1:
		return ors[0], nil
	}
	for i, o := range ors {
		ors[i] = "(" + o + ")"
	}
	return strings.Join(ors, " || "), nil
}

// base returns the first value of parallel iname x (its value on hardware
// index 0, as counts.Kernel.IndexBases defines it) as a C expression of the
// parameters, with the statements that compute it when it is not one.
// Hardware indices run over contiguous values, so where filters remain the
// first value is found by stepping up from the largest lower bound.
func (d *polyDomain) base(x string) (stmts []string, expr string, err error) {
	ctx, err := d.context(nil)
	if err != nil {
		return nil, "", err
	}
	ps, err := d.pieces(ctx, x, nil)
	if err != nil {
		return nil, "", err
	}
	v := "base_" + x
	at := map[string]string{x: v}
	if len(ps) == 0 {
		return nil, "0", nil
	}
	if len(ps) == 1 {
		p := ps[0]
		filter := conj(p.all, at)
		if filter == "" {
			return nil, p.lo(nil), nil
		}
		ok, err := d.filterHoldsFirst(ctx, x, p)
		if err != nil {
			return nil, "", err
		}
		if ok {
			return nil, p.lo(nil), nil
		}
		return []string{
			fmt.Sprintf("int %s = %s;", v, p.lo(nil)),
			fmt.Sprintf("while (%s < %s && !(%s)) ++%s;", v, p.hi(nil), filter, v),
		}, v, nil
	}
	// Several pieces: the least first value of those that are not empty.
	first := "first_" + x
	at = map[string]string{x: first}
	stmts = []string{fmt.Sprintf("int %s = %s;", v, intMax)}
	for _, p := range ps {
		test := conj(p.all, at)
		if test == "" {
			test = "1"
		}
		s := fmt.Sprintf("{ int %s = %s; while (%s <= %s && !(%s)) ++%s; if (%s <= %s) %s = imin(%s, %s); }",
			first, p.lo(nil), first, p.hi(nil), test, first, first, p.hi(nil), v, v, first)
		if g := conj(p.guard, nil); g != "" {
			s = "if (" + g + ") " + s
		}
		stmts = append(stmts, s)
	}
	stmts = append(stmts, fmt.Sprintf("if (%s == %s) %s = 0;", v, intMax, v))
	return stmts, v, nil
}

// filterHoldsFirst reports whether a piece with one lower bound L always
// has L itself as its first value when it is not empty: the filters hold
// at x = L whenever the guard holds and L is below the upper bounds.
func (d *polyDomain) filterHoldsFirst(ctx *polyhedra.Set, x string, p piece) (bool, error) {
	var given, filters []cond
	for _, c := range p.all {
		switch c.side {
		case lower:
			given = append(given, cond{isl: x + " = " + c.boundISL})
		case upper:
			given = append(given, c)
		default:
			filters = append(filters, c)
		}
	}
	if len(bounds(p.all, lower, nil)) != 1 {
		return false, nil
	}
	inner, err := d.within(ctx, nil, p.guard)
	if err != nil {
		return false, err
	}
	return d.implied(inner, []string{x}, given, strings.Join(isls(filters), " and "))
}
