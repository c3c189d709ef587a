package counts

import (
	"math"
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
	// meet, when not empty, is a second union that the points must lie
	// in as well. The bounding interval of a union of images is the
	// points below some image's point and above some image's point: two
	// unions of n pieces, where their intersection written out takes n²
	// pieces, each with the existential variables of two images.
	meet []piece
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
	cond := union(u.pieces)
	if len(u.meet) > 0 {
		cond = "(" + cond + ") and (" + union(u.meet) + ")"
	}
	return islSet(params, u.dims, cond)
}

// union renders a union of pieces in isl notation.
func union(pieces []piece) string {
	if len(pieces) == 0 {
		return "1 = 0"
	}
	parts := make([]string, len(pieces))
	for i, p := range pieces {
		c := "0 = 0"
		if len(p.c) > 0 {
			c = p.c.String()
		}
		if len(p.exists) > 0 {
			c = "exists (" + strings.Join(p.exists, ", ") + " : " + c + ")"
		}
		parts[i] = c
		if len(pieces) > 1 {
			parts[i] = "(" + c + ")"
		}
	}
	return strings.Join(parts, " or ")
}

// dnf returns u's pieces, with a meet written out as the pairwise
// conjunctions of its pieces with u's (whose existential variables are
// distinct).
func (u *uset) dnf() []piece {
	if len(u.meet) == 0 {
		return u.pieces
	}
	var out []piece
	for _, p := range u.pieces {
		for _, q := range u.meet {
			out = append(out, piece{exists: slices.Concat(p.exists, q.exists), c: slices.Concat(p.c, q.c)})
		}
	}
	return out
}

// vars lists the dimensions and then every existential variable once.
func (u *uset) vars() []string {
	out := slices.Clone(u.dims)
	for _, p := range slices.Concat(u.pieces, u.meet) {
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
	return countConcreteWithin(u, file, paramNames, params, &budget)
}

// countConcreteWithin is countConcrete spending from *left, which it
// leaves at what remains: several sets share one budget.
func countConcreteWithin(u *uset, file string, paramNames []string, params map[string]int64, left *int64) (n int64, err error) {
	defer recoverRun(&err)
	q, err := u.query(file, paramNames, params, *left)
	if err != nil {
		return 0, err
	}
	defer func() { *left = q.e.budget }()
	q.each(slices.Clone(q.e.base), func() { n++ })
	return n, nil
}

// query compiles u at the parameter values into a query that enumerates
// its dimensions, within budget candidate values.
func (u *uset) query(file string, paramNames []string, params map[string]int64, budget int64) (*query, error) {
	e := newSetEngine(file, u.vars(), paramNames, params)
	e.budget = budget
	dom := &cdomain{}
	for i := range u.vars() {
		dom.inames = append(dom.inames, i)
	}
	for _, p := range u.dnf() {
		var own []int
		for _, n := range append(slices.Clone(u.dims), p.exists...) {
			own = append(own, e.slot[n])
		}
		cc, err := e.compileConj(p.c, own)
		if err != nil {
			return nil, err
		}
		dom.conjs = append(dom.conjs, cc)
	}
	return e.newQuery(dom, nil, u.dims), nil
}

// simplify removes existential variables that can be eliminated exactly
// and cheaply, which keeps the sets small for the symbolic counter and
// for enumeration:
//
//   - a variable no constraint mentions;
//   - a variable fixed by an equality with coefficient ±1, substituted
//     into the other constraints;
//   - a variable bounded on one side only (some value always satisfies
//     its constraints);
//   - a variable in exactly two inequalities k*v + A >= 0 and
//     -k*v + B >= 0 with A + B a constant >= k - 1: an interval of length
//     at least k always holds a multiple of k (the tile of a split);
//   - a variable with one lower bound a*v + R >= 0 and otherwise upper
//     bounds only, where ⌈-R/a⌉ is the same constant c for every value R
//     takes within the constant bounds the piece puts on its variables:
//     some v satisfies the piece exactly when v = c does, so c is
//     substituted (and symmetrically for one upper bound). This turns
//     "exists i_out : 0 <= 16*i_out + i_in < n", with 0 <= i_in <= 15,
//     into i_in < n;
//   - the outer variable io of a tile: when the inner variable ii occurs
//     alone only in constant bounds lo <= ii <= lo + T - 1, and io only
//     in T*io + ii (times some coefficient), every value i of T*io + ii
//     has exactly one such pair, so ii takes the place of i and io and
//     the bounds go. This undoes the splits of the kernel in the
//     existential part of a set (two copies of a split loop in the
//     footprint of a strided access, say), where the symbolic counter
//     would otherwise eliminate the tile pair by residue classes.
//
// When none of these applies, a variable with coefficient ±1 in every
// inequality it is in, and in no equality, goes when pairing its lower
// and upper bounds gives at most two constraints more than it removes:
// the sums of the pairs take their place (the loop domain's variables
// that a projection leaves out mostly look like this).
//
// Variables inside floor divisions are left alone.
func (pc piece) simplify() piece {
	c := slices.Clone(pc.c)
	exists := slices.Clone(pc.exists)
	// The constant bounds of c serve every attempt until c changes.
	var cb bounds
	bounded := func() bounds {
		if cb == nil {
			cb = varBounds(c)
		}
		return cb
	}
	for changed := true; changed; {
		changed, cb = false, nil
		for vi := 0; vi < len(exists); vi++ {
			v := exists[vi]
			if nc, ok := eliminate(c, v, bounded); ok {
				c, cb = nc, nil
				exists = slices.Delete(exists, vi, vi+1)
				vi--
				changed = true
			}
		}
		for _, io := range exists {
			for _, ii := range exists {
				if nc, ok := mergeTile(c, io, ii); ok && ii != io {
					c = nc
					exists = slices.DeleteFunc(exists, func(v string) bool { return v == io })
					changed = true
					break
				}
			}
			if changed {
				break
			}
		}
		if changed {
			continue
		}
		// Last, as pairing bounds would hide the tiles that mergeTile
		// removes more simply.
		for vi, v := range exists {
			if nc, ok := unitPairs(c, v); ok {
				c = nc
				exists = slices.Delete(exists, vi, vi+1)
				changed = true
				break
			}
		}
	}
	return piece{exists: exists, c: c}
}

// mergeTile merges the tile pair (io, ii) of c into ii, as simplify
// describes.
func mergeTile(c conj, io, ii string) (conj, bool) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	t := int64(0) // T, from the first constraint with both
	if c.inFloor(io) || c.inFloor(ii) {
		return nil, false
	}
	for _, x := range c {
		a, b := x.e.coefOf(io), x.e.coefOf(ii)
		switch {
		case a == 0 && b == 0:
		case a == 0:
			// a bound on ii alone
			if len(x.e.terms) != 1 || x.eq {
				return nil, false
			}
			if b > 0 {
				lo = max(lo, ceilDiv(-x.e.c, b))
			} else {
				hi = min(hi, floorDiv(x.e.c, -b))
			}
		default:
			if b == 0 || a%b != 0 || a/b <= 1 || t != 0 && a/b != t {
				return nil, false
			}
			t = a / b
		}
	}
	if t == 0 || lo == math.MinInt64 || hi == math.MaxInt64 || hi-lo+1 != t {
		return nil, false
	}
	out := make(conj, 0, len(c))
	for _, x := range c {
		a, b := x.e.coefOf(io), x.e.coefOf(ii)
		switch {
		case a == 0 && b != 0:
			continue // the box
		case a != 0:
			e, err := x.e.addScaled(qname(io), -a)
			if err != nil {
				return nil, false
			}
			x = cons{e, x.eq}
		}
		out = append(out, x)
	}
	return out, true
}

// inFloor reports whether a floor division of c mentions v; simplify
// leaves such variables alone.
func (c conj) inFloor(v string) bool {
	for _, x := range c {
		for _, f := range x.e.floors {
			if slices.Contains(f.num.names(nil), v) {
				return true
			}
		}
	}
	return false
}

// eliminate tries the eliminations of simplify on one variable; bounded
// returns the constant bounds of c's variables (varBounds).
func eliminate(c conj, v string, bounded func() bounds) (conj, bool) {
	if c.inFloor(v) {
		return nil, false
	}
	var uses []int
	for i, x := range c {
		if x.e.coefOf(v) != 0 {
			uses = append(uses, i)
		}
	}
	if len(uses) == 0 {
		return c, true
	}
	for _, i := range uses {
		a := c[i].e.coefOf(v)
		if !c[i].eq || (a != 1 && a != -1) {
			continue
		}
		// v = -(e - a*v)/a
		rest, err := c[i].e.addScaled(qname(v), -a)
		if err != nil {
			return nil, false
		}
		val, err := rest.scale(-a)
		if err != nil {
			return nil, false
		}
		out := make(conj, 0, len(c)-1)
		for j, x := range c {
			if j == i {
				continue
			}
			e, err := x.e.subst(v, val)
			if err != nil {
				return nil, false
			}
			out = append(out, cons{e, x.eq})
		}
		return out, true
	}
	pos, neg := 0, 0
	for _, i := range uses {
		if c[i].eq {
			return nil, false
		}
		if c[i].e.coefOf(v) > 0 {
			pos++
		} else {
			neg++
		}
	}
	drop := func() conj {
		out := make(conj, 0, len(c)-len(uses))
		for j, x := range c {
			if !slices.Contains(uses, j) {
				out = append(out, x)
			}
		}
		return out
	}
	if pos == 0 || neg == 0 {
		return drop(), true
	}
	if pos == 1 || neg == 1 {
		if nc, ok := pinExtreme(c, v, uses, pos == 1, bounded); ok {
			return nc, true
		}
	}
	if len(uses) == 2 {
		lo, hi := c[uses[0]].e, c[uses[1]].e
		if lo.coefOf(v) < 0 {
			lo, hi = hi, lo
		}
		k := lo.coefOf(v)
		if sum, err := lo.addScaled(hi, 1); err == nil && hi.coefOf(v) == -k && sum.isConst() && sum.c >= k-1 {
			return drop(), true
		}
	}
	return nil, false
}

// unitPairs eliminates v from c when v has coefficient ±1 in each
// inequality it is in and no equality or floor mentions it: some integer
// v lies between the integer lower bounds and upper bounds exactly when
// every lower bound is at most every upper bound, so the pairs' sums
// replace them (Fourier–Motzkin, exact here). Pairs whose sum is a
// constant hold or fail outright. It declines when the pairs would
// outnumber the bounds by more than two.
func unitPairs(c conj, v string) (conj, bool) {
	if c.inFloor(v) {
		return nil, false
	}
	// Most calls decline, so the bounds are only counted first.
	nl, nu := 0, 0
	for _, x := range c {
		switch a := x.e.coefOf(v); {
		case a == 0:
		case x.eq || a != 1 && a != -1:
			return nil, false
		case a == 1:
			nl++
		default:
			nu++
		}
	}
	if nl*nu > nl+nu+2 {
		return nil, false
	}
	lower, upper := make([]qaff, 0, nl), make([]qaff, 0, nu)
	rest := make(conj, 0, len(c)-nl-nu+nl*nu)
	for _, x := range c {
		switch a := x.e.coefOf(v); a {
		case 0:
			rest = append(rest, x)
		case 1:
			lower = append(lower, x.e)
		default:
			upper = append(upper, x.e)
		}
	}
	for _, l := range lower {
		for _, u := range upper {
			sum, err := l.addScaled(u, 1)
			if err != nil {
				return nil, false
			}
			if sum.isConst() && sum.c >= 0 {
				continue
			}
			rest = append(rest, cons{e: sum})
		}
	}
	return rest, true
}

// pinExtreme substitutes for v the value its only lower bound (lower
// set) or only upper bound forces, when that value is a constant within
// the bounds of the other variables (bounded, as for eliminate).
func pinExtreme(c conj, v string, uses []int, lower bool, bounded func() bounds) (conj, bool) {
	var bound qaff
	for _, i := range uses {
		if (c[i].e.coefOf(v) > 0) == lower {
			bound = c[i].e
		}
	}
	a := bound.coefOf(v)
	rest, err := bound.addScaled(qname(v), -a)
	if err != nil || len(rest.floors) > 0 {
		return nil, false
	}
	lo, hi, ok := bounded().rangeOf(rest, v)
	if !ok || lo == math.MinInt64 || hi == math.MinInt64 || a == math.MinInt64 {
		return nil, false
	}
	// lower: v >= ⌈-R/a⌉; upper (a < 0): v <= ⌊R/-a⌋.
	var val int64
	if lower {
		val = ceilDiv(-hi, a)
		if ceilDiv(-lo, a) != val {
			return nil, false
		}
	} else {
		val = floorDiv(lo, -a)
		if floorDiv(hi, -a) != val {
			return nil, false
		}
	}
	out := make(conj, len(c))
	for j, x := range c {
		e, err := x.e.subst(v, qconst(val))
		if err != nil {
			return nil, false
		}
		out[j] = cons{e, x.eq}
	}
	return out, true
}

// bounds holds constant lower and upper bounds of variables.
type bounds map[string][2]int64

// varBounds collects the constant bounds that the one-variable
// constraints of c put on their variables.
func varBounds(c conj) bounds {
	b := bounds{}
	for _, x := range c {
		if len(x.e.terms) != 1 || len(x.e.floors) > 0 || x.e.c == math.MinInt64 {
			continue
		}
		t := x.e.terms[0]
		r, ok := b[t.name]
		if !ok {
			r = [2]int64{math.MinInt64, math.MaxInt64}
		}
		// coef*v + c >= 0 (or = 0)
		if t.coef > 0 || x.eq {
			k := absU(t.coef)
			lb := ceilDiv(-x.e.c*sign(t.coef), int64(k))
			r[0] = max(r[0], lb)
		}
		if t.coef < 0 || x.eq {
			k := absU(t.coef)
			ub := floorDiv(x.e.c*sign(-t.coef), int64(k))
			r[1] = min(r[1], ub)
		}
		b[t.name] = r
	}
	return b
}

func sign(a int64) int64 {
	if a < 0 {
		return -1
	}
	return 1
}

// rangeOf bounds an affine expression (without floors) that does not
// mention skip; ok is false when a variable lacks a bound or a value
// overflows.
func (b bounds) rangeOf(e qaff, skip string) (lo, hi int64, ok bool) {
	lo, hi = e.c, e.c
	for _, t := range e.terms {
		r, found := b[t.name]
		if !found || t.name == skip || r[0] == math.MinInt64 || r[1] == math.MaxInt64 {
			return 0, 0, false
		}
		x, err1 := mulInt(t.coef, r[0])
		y, err2 := mulInt(t.coef, r[1])
		if err1 != nil || err2 != nil {
			return 0, 0, false
		}
		var err3, err4 error
		lo, err3 = addInt(lo, min(x, y))
		hi, err4 = addInt(hi, max(x, y))
		if err3 != nil || err4 != nil {
			return 0, 0, false
		}
	}
	return lo, hi, true
}
