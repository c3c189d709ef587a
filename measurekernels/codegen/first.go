package codegen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/polyhedra"
)

// first computes the first value of parallel iname x, its value on
// hardware index 0 (its least value in its index domain, as
// counts.Kernel.IndexBases defines it), as C over the parameters.
//
// The bounds are simplified against the assumptions only: x's own domain
// would make every bound of x redundant. Hardware indices run over
// contiguous values, so where filters remain the first value is found by
// stepping up from the largest lower bound.
func (d *polyDomain) first(x string) (firstValue, error) {
	s, err := d.indexed(x)
	if err != nil {
		return firstValue{}, err
	}
	ps, err := d.piecesOf(d.assume, s, x, nil)
	if err != nil {
		return firstValue{}, err
	}
	f, err := d.firstCode(x, ps)
	if err != nil {
		return firstValue{}, err
	}
	if len(ps) == 1 {
		for _, c := range ps[0].all {
			if c.side == lower {
				f.lows = append(f.lows, c.boundISL)
			}
		}
		// The first value equals the lower bound only where it is that
		// bound, not a choice among values above it (firstSelect).
		lo, err := ps[0].lo(nil)
		if err != nil {
			return firstValue{}, err
		}
		if f.stmts == nil && len(f.lows) == 1 && f.expr == lo {
			f.exact = f.lows[0]
		}
	}
	f.extent, err = d.extentBound(s, x)
	return f, err
}

// extentBound bounds the number of values of x, max - min + 1 over s (its
// index domain), by a constant: the least constant upper bound minus the
// largest constant lower bound plus one, when its bounds have one piece
// with both (0 when they have none). It is -1 when unknown.
func (d *polyDomain) extentBound(s *polyhedra.Set, x string) (int64, error) {
	r, err := constBounds(s, x)
	switch {
	case err != nil:
		return 0, err
	case r.pieces == 0:
		return 0, nil
	case r.pieces > 1:
		return -1, nil
	}
	if !r.small() {
		return -1, nil
	}
	return max(r.hi-r.lo+1, 0), nil
}

// constRange is what the bounds of an iname over the domain projected onto
// it say by constants alone.
type constRange struct {
	pieces int // of the bounds; lo and hi describe one piece only
	// lo is the largest constant lower bound (MinInt64 without one), hi
	// the least constant upper bound (MaxInt64 without one).
	lo, hi int64
}

// small reports whether both ends are known and within int32: an end
// without a constant bound, or one too large to matter, is not.
func (r constRange) small() bool {
	return r.lo >= math.MinInt32 && r.hi <= math.MaxInt32
}

// constBounds bounds x over s, a set of x alone, by constants.
func constBounds(s *polyhedra.Set, x string) (constRange, error) {
	raw, err := s.Bounds(x, nil)
	if err != nil || len(raw) != 1 {
		return constRange{pieces: len(raw)}, err
	}
	r := constRange{pieces: 1, lo: math.MinInt64, hi: math.MaxInt64}
	for _, l := range raw[0].Lower {
		if v, err := l.Eval(nil); err == nil {
			r.lo = max(r.lo, v)
		}
	}
	for _, u := range raw[0].Upper {
		if v, err := u.Eval(nil); err == nil {
			r.hi = min(r.hi, v)
		}
	}
	return r, nil
}

// hardwareFacts is what the launch grid guarantees about the parallel
// inames: one alone on its hardware axis takes exactly the values of its
// index domain (counts makes them a contiguous range and the axis exactly
// as long); one that shares its axis is x = first + q for an
// index q >= 0, so at least every lower bound its first value starts from
// (firstCode only steps up from their largest), and where the first value
// is one bound E, and the extent of every iname on the axis has a constant
// bound, at most E plus the largest of those bounds minus one.
func (d *polyDomain) hardwareFacts() (*polyhedra.Set, error) {
	onAxis := map[counts.Tag][]string{}
	for _, in := range d.k.Inames {
		if in.Tag.Parallel() {
			onAxis[in.Tag] = append(onAxis[in.Tag], in.Name)
		}
	}
	facts := d.assume
	for _, in := range d.k.Inames {
		if !in.Tag.Parallel() {
			continue
		}
		names := onAxis[in.Tag]
		var fact *polyhedra.Set
		var err error
		if len(names) == 1 {
			fact, err = d.indexed(in.Name)
		} else {
			fact, err = d.sharedFact(in.Name, names)
		}
		if err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
		if facts, err = polyhedra.Intersect(facts, fact); err != nil {
			return nil, fmt.Errorf("iname %s: %w", in.Name, err)
		}
	}
	return facts, nil
}

// sharedFact is the fact about x, which shares its hardware axis with the
// inames of axis (x among them); see hardwareFacts.
func (d *polyDomain) sharedFact(x string, axis []string) (*polyhedra.Set, error) {
	f := d.firsts[x]
	var conds []string
	for _, l := range f.lows {
		conds = append(conds, x+" >= "+l)
	}
	longest := int64(0)
	for _, y := range axis {
		if e := d.firsts[y].extent; e < 0 || longest < 0 {
			longest = -1
		} else {
			longest = max(longest, e)
		}
	}
	if f.exact != "" && longest > 0 {
		conds = append(conds, fmt.Sprintf("%s <= %s + %d", x, f.exact, longest-1))
	}
	return d.simp.set([]string{x}, conds)
}

// firstCode writes the computation of the first value of x from the
// simplified pieces of its bounds.
func (d *polyDomain) firstCode(x string, ps []piece) (firstValue, error) {
	v := unusedName(d.k, "base_"+x)
	switch len(ps) {
	case 0: // the domain is empty: no instruction runs in x
		return firstValue{expr: "0"}, nil
	case 1:
		p := ps[0]
		lo, err := p.lo(nil)
		if err != nil {
			return firstValue{}, err
		}
		filter := conj(p.all, map[string]string{x: v})
		if filter == "" {
			return firstValue{expr: lo}, nil
		}
		ok, err := d.filterHoldsFirst(x, p)
		if err != nil || ok {
			return firstValue{expr: lo}, err
		}
		hi, err := p.hi(nil)
		if err != nil {
			return firstValue{}, err
		}
		if sel, ok, err := d.firstSelect(x, p, lo, hi, ""); err != nil || ok {
			return firstValue{expr: sel}, err
		}
		return firstValue{stmts: []string{
			fmt.Sprintf("int %s = %s;", v, lo),
			fmt.Sprintf("while (%s < %s && !(%s)) ++%s;", v, hi, filter, v),
		}, expr: v}, nil
	}
	// Several pieces: the least first value of those that are not empty.
	first := unusedName(d.k, "first_"+x)
	at := map[string]string{x: first}
	stmts := []string{fmt.Sprintf("int %s = %s;", v, intMax)}
	for _, p := range ps {
		lo, err := p.lo(nil)
		if err != nil {
			return firstValue{}, err
		}
		hi, err := p.hi(nil)
		if err != nil {
			return firstValue{}, err
		}
		test := conj(p.all, at)
		if test == "" {
			test = "1"
		}
		s := fmt.Sprintf("{ int %s = %s; while (%s <= %s && !(%s)) ++%s; if (%s <= %s) %s = imin(%s, %s); }",
			first, lo, first, hi, test, first, first, hi, v, v, first)
		sel, ok, err := d.firstSelect(x, p, lo, hi, intMax)
		if err != nil {
			return firstValue{}, err
		}
		if ok {
			s = fmt.Sprintf("%s = imin(%s, %s);", v, v, sel)
		}
		if g := conj(p.guard, nil); g != "" {
			s = "if (" + g + ") " + s
		}
		stmts = append(stmts, s)
	}
	stmts = append(stmts, fmt.Sprintf("if (%s == %s) %s = 0;", v, intMax, v))
	return firstValue{stmts: stmts, expr: v}, nil
}

// maxSelect bounds the candidates firstSelect tries; over a wider range
// it tries only the first wideSelect, and only where one of them is
// first at every size.
const (
	maxSelect  = 64
	wideSelect = 4
)

// firstSelect writes the first value of x in piece p, between lo and hi
// (constants), as a chain of conditional expressions over the values that
// can be first: t0 ? v0 : t1 ? v1 : ... : none, where ti is the test on
// the parameters that vi satisfies the filters, and none the value where
// no candidate does ("" in a piece alone: its domain is then empty, so
// any value serves and the last candidate needs no test). A candidate that
// polyhedra proves never first (its test fails wherever the earlier ones
// fail) is left out, and each test is simplified where the earlier ones
// fail, so that a first value that is 0 at large sizes and 1 below reads
// (n >= 34) ? 0 : 1 rather than a test per candidate. (A split's inner
// iname, bounded by itself, starts at its own lower bound, a constant;
// this serves the inames that take their projected domain.)
//
// A loop that steps up from lo computes the same value, but every
// work-item computes the first value, and on a CPU OpenCL a loop in every
// work-item keeps the work-items' loop around the kernel body from
// vectorizing (jacobi-2d's, when its inner inames started at their least
// value in the domain, ran 9 to 10 times slower than the same choice as
// a conditional, on PoCL; jacobi-1d's 3.7 to 5.7 times). The candidates
// stop where no parameter values are left on which the piece has a
// point, so a wide range with few first values needs few of them; one
// query first makes sure that they do, so that a range whose first value
// can be any (a domain from a parameter, s <= i) costs no more than
// before. ok is false when lo or hi is not a constant, or when that
// query or maxSelect candidates leave parameter values open.
func (d *polyDomain) firstSelect(x string, p piece, lo, hi, none string) (sel string, ok bool, err error) {
	l, err1 := strconv.ParseInt(lo, 10, 32)
	h, err2 := strconv.ParseInt(hi, 10, 32)
	if err1 != nil || err2 != nil {
		return "", false, nil
	}
	ctx, err := d.simp.within(d.assume, nil, p.guard)
	if err != nil {
		return "", false, err
	}
	filters := strings.Join(isls(p.all), " and ")
	some := fmt.Sprintf("exists (%s : %s)", x, filters)
	if h-l >= maxSelect {
		early := fmt.Sprintf("exists (%s : %s <= %d and %s)", x, x, l+wideSelect-1, filters)
		covered, err := d.simp.isEmpty(ctx, nil, []cond{{isl: some}, {isl: "not (" + early + ")"}})
		if err != nil || !covered {
			return "", false, err
		}
	}
	var tests, vals []string
	for c := l; c <= h; c++ {
		if c-l >= maxSelect {
			return "", false, nil
		}
		holds := fmt.Sprintf("exists (%s : %s = %d and %s)", x, x, c, filters)
		never, err := d.simp.isEmpty(ctx, nil, []cond{{isl: holds}})
		if err != nil {
			return "", false, err
		}
		if never {
			continue
		}
		test, err := d.paramTest(ctx, holds)
		if err != nil {
			return "", false, err
		}
		if strings.Contains(test, "floordiv(") {
			if test, err = d.threshold(ctx, holds, test); err != nil {
				return "", false, err
			}
		}
		tests, vals = append(tests, test), append(vals, strconv.FormatInt(c, 10))
		if test == "" {
			break
		}
		if ctx, err = d.simp.within(ctx, nil, []cond{{isl: "not (" + holds + ")"}}); err != nil {
			return "", false, err
		}
		if left, err := d.simp.isEmpty(ctx, nil, []cond{{isl: some}}); err != nil || left {
			if err != nil {
				return "", false, err
			}
			break
		}
	}
	if len(vals) == 0 {
		if none == "" {
			none = hi
		}
		return none, true, nil
	}
	if last := len(tests) - 1; tests[last] != "" {
		if none == "" {
			tests[last] = ""
		} else {
			tests, vals = append(tests, ""), append(vals, none)
		}
	}
	if len(vals) == 1 {
		return vals[0], true, nil
	}
	var b strings.Builder
	for i, v := range vals {
		if tests[i] != "" {
			fmt.Fprintf(&b, "(%s) ? %s : ", tests[i], v)
		} else {
			b.WriteString(v)
		}
	}
	return "(" + b.String() + ")", true, nil
}

// paramTest renders the test that the condition holds (isl over the
// parameters), simplified within ctx: "" when ctx implies it.
func (d *polyDomain) paramTest(ctx *polyhedra.Set, holds string) (string, error) {
	const dummy = "uniperf_point_"
	s, err := d.simp.set([]string{dummy}, []string{dummy + " = 0", holds})
	if err != nil {
		return "", err
	}
	raw, err := s.Bounds(dummy, nil)
	if err != nil {
		return "", err
	}
	var ors []string
	for _, r := range raw {
		cs := d.simp.constraints(r.Guard)
		if never, err := d.simp.isEmpty(ctx, nil, cs); err != nil || never {
			if err != nil {
				return "", err
			}
			continue
		}
		m, err := d.simp.gist(ctx, nil, cs)
		if err != nil {
			return "", err
		}
		if len(m) == 0 {
			return "", nil
		}
		ors = append(ors, allConj(m))
	}
	if len(ors) == 0 {
		return "0", nil
	}
	if len(ors) == 1 {
		return ors[0], nil
	}
	return "(" + strings.Join(ors, ") || (") + ")", nil
}

// filterHoldsFirst reports whether a piece with one lower bound L always
// has L itself as its first value when it is not empty: the filters hold
// at x = L whenever the guard holds and L is below the upper bounds.
func (d *polyDomain) filterHoldsFirst(x string, p piece) (bool, error) {
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
	if countSide(p.all, lower) != 1 {
		return false, nil
	}
	if len(filters) == 0 {
		return true, nil
	}
	inner, err := d.simp.within(d.assume, nil, p.guard)
	if err != nil {
		return false, err
	}
	return d.simp.implied(inner, []string{x}, given, strings.Join(isls(filters), " and "))
}

// threshold rewrites test, the C form of the condition holds on one
// parameter p, as p >= c where polyhedra proves the two equivalent within
// ctx (finite-diff's halo starts at 0 where n + 16*floordiv(n + 14, 16)
// >= 32, which is n >= 16). c is the largest value below which holds
// never holds, found by bisection; it stands only if holds then holds
// at every p >= c, so a question too complex for polyhedra leaves test as
// it is.
func (d *polyDomain) threshold(ctx *polyhedra.Set, holds, test string) (string, error) {
	var params []string
	anyIdent(test, func(name string, call bool) bool {
		if d.simp.params[name] && !slices.Contains(params, name) {
			params = append(params, name)
		}
		return false
	})
	if len(params) != 1 {
		return test, nil
	}
	p := params[0]
	never := func(conds ...string) (bool, error) {
		cs := make([]cond, len(conds))
		for i, c := range conds {
			cs[i] = cond{isl: c}
		}
		return d.simp.isEmpty(ctx, nil, cs)
	}
	// never(holds and p < c) holds for c = lo and fails for c = hi + 1.
	lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		ok, err := never(holds, fmt.Sprintf("%s <= %d", p, mid-1))
		if err != nil {
			return "", err
		}
		if ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if ok, err := never(holds, fmt.Sprintf("%s <= %d", p, lo-1)); err != nil || !ok {
		return test, err
	}
	if ok, err := never("not ("+holds+")", fmt.Sprintf("%s >= %d", p, lo)); err != nil || !ok {
		return test, err
	}
	return fmt.Sprintf("%s >= %d", p, lo), nil
}
