package polyhedra

// Domain constraints over divs that mean a plain one.
//
// Chambers and their non-empty conditions compare rounded bounds, and a
// printed domain can keep a constraint such as
// m >= n - floor((2 + n + m)/3) - floor((2n + m)/3), which on the wedge
// of issue 26 holds exactly where m >= 0. Replacing floor(e/d) by e/d
// changes such a row r by a bounded amount: with L the lcm of the
// denominators, L*r lies in [R - A, R + B] for the div-free R, so r >= 0
// implies R + B >= 0 and follows from R - A >= 0. The smallest k in
// [-A, B] for which the rest of the domain with r implies R + k >= 0 is
// found by bisection, and if the rest of the domain with R + k >= 0
// implies r in turn, the two are the same set and R + k >= 0 replaces r.
// Both directions are proved (FM with the divs' definitions and integer
// tightening); a row whose proof fails stays as it is.

// maxPlainSpan bounds the constants tried for one row's plain form.
const maxPlainSpan = 1 << 10

// plainRows replaces each inequality over divs of parameters by a
// div-free one where the domain proves them equivalent.
func (p *bset) plainRows() {
	for i := range p.ineqs {
		if plain, ok := p.plainForm(i); ok {
			p.ineqs[i] = plain
		}
	}
	p.normalize()
}

// plainForm returns a div-free inequality that holds on the domain
// exactly where inequality i does, if it finds one.
func (p *bset) plainForm(i int) ([]int64, bool) {
	r := p.ineqs[i]
	R, lo, hi, ok := p.relaxRow(r)
	if !ok || hi-lo > maxPlainSpan {
		return nil, false
	}
	rest := *p
	rest.poly = nil
	rest.ineqs = append(append([][]int64(nil), p.ineqs[:i]...), p.ineqs[i+1:]...)
	with := rest
	with.ineqs = append(append([][]int64(nil), rest.ineqs...), r)
	shifted := func(k int64) []int64 {
		c := copyRow(R)
		c[0] = add64(c[0], k)
		return c
	}
	// with implies R + hi >= 0; find the least such k.
	for lo < hi {
		mid := lo + (hi-lo)/2
		if with.implies(shifted(mid)) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	plain := shifted(hi)
	rest.ineqs = append(rest.ineqs, plain)
	if !rest.implies(r) {
		return nil, false
	}
	return plain, true
}

// relaxRow returns, for a row r that uses divs whose numerators use no
// div, the div-free row R with L*r in [R + lo, R + hi] at every point
// (L the lcm of the divs' denominators, lo <= 0 <= hi); ok is false for
// a row without divs or with a nested one.
func (p *bset) relaxRow(r []int64) (R []int64, lo, hi int64, ok bool) {
	l := int64(1)
	for k, d := range p.divs {
		if r[p.divCol(k)] == 0 {
			continue
		}
		for c := p.firstDiv(); c < len(d.num); c++ {
			if d.num[c] != 0 {
				return nil, 0, 0, false
			}
		}
		l = lcm64(l, d.den)
	}
	if l == 1 {
		return nil, 0, 0, false
	}
	R = make([]int64, p.firstDiv())
	addScaled(R, l, r[:p.firstDiv()])
	for k, d := range p.divs {
		a := r[p.divCol(k)]
		if a == 0 {
			continue
		}
		// a*floor(e/d) = a*e/d - a*f with the fraction f in [0, (d-1)/d].
		addScaled(R, mul64(a, l/d.den), d.num[:min(len(d.num), p.firstDiv())])
		spread := mul64(abs64(a), mul64(l/d.den, d.den-1))
		if a > 0 {
			lo = sub64(lo, spread)
		} else {
			hi = add64(hi, spread)
		}
	}
	return p.fit(R), lo, hi, true
}
