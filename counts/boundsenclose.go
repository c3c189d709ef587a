package counts

import "math"

// This file bounds the range of a subscript soundly but not always
// tightly, in time linear in the domain's constraints, so that the
// bounds check needs the exact range (scannedRange, exactRange) only
// where the bound reaches outside the array. Per conjunction of the
// domain, interval propagation boxes the inames, and the subscript's
// interval over the box is narrowed by adding a multiple of one
// inequality e >= 0 of the domain that cancels one of its terms: the
// grid-stride load data[192*g + l + 46080*k] under
// 192*g + l + 46080*k < n has a box reaching past n - 1, while the
// subscript plus the inequality is the constant n - 1.

// enclosedRange returns an interval that holds every value of subscript
// ix over the execution domain of b at params; ok is false where the
// interval cannot be found (a domain too large to box), and the interval
// is empty where b never runs.
func (c *Counted) enclosedRange(b boundedAccess, ix Affine, params map[string]int64) (r ival, ok bool) {
	u, err := c.indexSet(b, ix, params)
	if err != nil {
		return ival{}, false
	}
	e := newSetEngine(c.k.File, u.vars(), c.k.Params, params)
	t := e.slot[indexDim]
	known := make([]bool, len(e.base))
	for _, p := range e.paramNames {
		known[e.slot[p]] = true
	}
	r = ival{lo: 1, hi: 0}
	for _, p := range u.dnf() {
		var own []int
		for _, n := range append(append([]string(nil), u.dims...), p.exists...) {
			own = append(own, e.slot[n])
		}
		cc, err := e.compileConj(p.c, own)
		if err != nil {
			return ival{}, false
		}
		if cc.dead {
			continue
		}
		cr := cc.box[t]
		if q := subscriptOf(cc, t); q != nil {
			cr = cr.intersect(narrowed(cc, q, t, e.base, known))
		}
		r = r.hull(cr)
	}
	return r, !r.loInf && !r.hiInf || r.empty()
}

// subscriptOf returns the expression q of the equality q - t = 0 (or
// t - q = 0) of cc that defines target t, or nil.
func subscriptOf(cc *cconj, t int) *cexpr {
	for _, x := range cc.cons {
		a := x.e.coefOf(t)
		if !x.eq || a != 1 && a != -1 || floorsUse(&x.e, t) {
			continue
		}
		return linComb(&x.e, -a, nil, 0, t)
	}
	return nil
}

// narrowed bounds q over the box of cc using one inequality at a time:
// on the domain e >= 0, so |b|*q <= |b|*q + |a|*e where q's term in
// slot s has coefficient a and e's has b of the opposite sign (and
// symmetrically below), and the sum cancels that slot.
func narrowed(cc *cconj, q *cexpr, t int, v []int64, known []bool) ival {
	r := q.interval(v, known, cc.box, -1)
	for _, x := range cc.cons {
		if x.eq || x.e.coefOf(t) != 0 || floorsUse(&x.e, t) {
			continue
		}
		for _, term := range q.lin {
			a, b := term.coef, x.e.coefOf(term.slot)
			if b == 0 || known[term.slot] || a == math.MinInt64 || b == math.MinInt64 {
				continue
			}
			ma, mb := max(a, -a), max(b, -b)
			s := linComb(q, mb, &x.e, ma, -1)
			if s == nil {
				continue
			}
			w := s.interval(v, known, cc.box, -1)
			if a*b < 0 && !w.hiInf {
				r = r.intersect(ival{hi: floorDiv(w.hi, mb), loInf: true})
			}
			s = linComb(q, mb, &x.e, -ma, -1)
			if s == nil {
				continue
			}
			w = s.interval(v, known, cc.box, -1)
			if a*b > 0 && !w.loInf && w.lo != math.MinInt64 {
				r = r.intersect(ival{lo: ceilDiv(w.lo, mb), hiInf: true})
			}
		}
	}
	return r
}

// linComb returns ka*a + kb*b without the linear term in slot drop (-1
// drops none), or nil where a coefficient overflows.
func linComb(a *cexpr, ka int64, b *cexpr, kb int64, drop int) *cexpr {
	out := &cexpr{}
	add := func(x *cexpr, k int64) bool {
		c, err := mulInt(x.c, k)
		if err != nil {
			return false
		}
		if out.c, err = addInt(out.c, c); err != nil {
			return false
		}
		for _, term := range x.lin {
			if term.slot == drop {
				continue
			}
			m, err := mulInt(term.coef, k)
			if err != nil {
				return false
			}
			i := len(out.lin)
			for j, o := range out.lin {
				if o.slot == term.slot {
					i = j
				}
			}
			if i == len(out.lin) {
				out.lin = append(out.lin, cterm{slot: term.slot})
			}
			if out.lin[i].coef, err = addInt(out.lin[i].coef, m); err != nil {
				return false
			}
		}
		for _, f := range x.floors {
			m, err := mulInt(f.coef, k)
			if err != nil {
				return false
			}
			out.floors = append(out.floors, cfloor{coef: m, num: f.num, den: f.den})
		}
		return true
	}
	if !add(a, ka) || b != nil && !add(b, kb) {
		return nil
	}
	return out
}

// floorsUse reports whether a floor of x uses slot s.
func floorsUse(x *cexpr, s int) bool {
	for _, f := range x.floors {
		for _, u := range f.num.slots(nil) {
			if u == s {
				return true
			}
		}
	}
	return false
}
