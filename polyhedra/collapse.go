package polyhedra

import "math/big"

// maxCollapsePeriod bounds the residue classes tried per parameter.
const maxCollapsePeriod = 64

// collapse removes the periodicity of the poly in parameter column c when
// every residue class of c modulo the period gives the same polynomial.
// With n = M*k + r, each class's poly is a polynomial in k, which is
// rewritten in n through k = (n - r)/M; if all classes agree, that one
// polynomial is the value everywhere on the domain. It returns false when
// every residue class is empty (the piece is empty).
func (p *bset) collapse(c int) bool {
	usesDiv := false
	for k := range p.divs {
		usesDiv = usesDiv || p.poly.usesCol(p.divCol(k))
	}
	m := p.splitModulus(c)
	if !usesDiv || m == 1 || m > maxCollapsePeriod {
		return true
	}
	if p.classesDiffer(c, m) {
		return true
	}
	return p.collapseClasses(c, m)
}

// collapseClasses is collapse's symbolic comparison of the residue
// classes of column c modulo m.
func (p *bset) collapseClasses(c int, m int64) bool {
	var key string
	var found *bset
	var foundPoly *poly
	for r := int64(0); r < m; r++ {
		if p.classEmpty(c, m, r) {
			continue
		}
		q := p.clone()
		e := q.unit(c, m)
		e[0] = r
		q.substitute(c, e)
		if !q.normalize() || q.provablyEmpty() {
			continue
		}
		if q.splitModulus(c) != 1 {
			return true
		}
		back := polyVar(c).add(polyInt(-r)).scale(big.NewRat(1, m))
		qp := q.poly.substitute(c, back)
		k := polyKey(q, qp)
		switch {
		case found == nil:
			key, found, foundPoly = k, q, qp
		case k != key:
			return true
		}
	}
	if found == nil {
		return false
	}
	mp := p.importCols(found)
	p.poly = translatePoly(mp, foundPoly)
	p.normalize()
	return true
}

// classEmpty reports whether the residue class c = r (mod m) of p's
// domain is provably empty, decided on the domain alone: substituting
// c = m*k + r into a poly with many divs and terms, as collapseClasses
// does for every class, costs far more than the constraints (the wedge
// of issue 26 has 14 empty classes of 15 in a piece of 47 terms). The
// proof runs outside p's work limits, so that it spends none of them.
func (p *bset) classEmpty(c int, m, r int64) bool {
	q := p.clone()
	q.poly, q.work = nil, nil
	e := q.unit(c, m)
	e[0] = r
	q.substitute(c, e)
	return !q.normalize() || q.provablyEmpty()
}

// classGrid are the values of each parameter at which classesDiffer
// looks for points of a domain, maxClassProbes bounds the grid points
// it tries, maxClassBases the points of the domain from which it found
// D + 2 consecutive ones and maxClassTries all points of the domain it
// starts from. Counting only full runs as bases lets a thin domain's
// short runs pass (the wedge's chamber 2m <= n has 3 points in m at
// n = 5): the classes times terms that collapse substituted while
// counting the wedge fell from 768 to 63.
var classGrid = []int64{16, 23, 9, 5, 2, 0, 1, 3, 4, 6, 7, 8, 11, 13, -1, -4, -9}

const (
	maxClassProbes = 256
	maxClassBases  = 4
	maxClassTries  = 16
)

// classesDiffer reports whether points of p's domain show that the
// residue classes of column c modulo its period do not all have the same
// polynomial, so that collapse(c) would find so too, without its
// symbolic substitutions. On a class n = m*k + r the poly is, at fixed
// other parameters, a polynomial in n of degree at most the poly's
// degree D (each div of n is affine in k there): the one collapse
// compares. If all classes had the same polynomial, the values at D + 2
// consecutive n of the domain would lie on it, and their (D+1)-th
// difference would be 0; a point of each class is among them, so no
// class is empty. A difference other than 0 thus proves that collapse
// keeps the poly; 0 proves nothing, and collapse goes on symbolically.
// Only speed depends on it. The values are exact: evalInt64 gives them
// over one denominator, and an overflow ends the search.
func (p *bset) classesDiffer(c int, m int64) bool {
	if p.nd != 0 || p.np > 3 {
		return false
	}
	deg := p.poly.degree()
	cols := p.newRow()
	vals := make([]int64, deg+1+int(m))
	// inside evaluates the poly at cols with column c set to n, if that
	// is a point of the domain.
	inside := func(n int64) (v int64, in, ok bool) {
		cols[c] = n
		ok = tryNoOverflow(func() { in = p.holds(cols) })
		if !ok || !in {
			return 0, false, ok
		}
		v, _, ok = p.poly.evalInt64(cols)
		return v, true, ok
	}
	bases, tried := 0, 0
	for i := range maxClassProbes {
		cols[0] = 1
		for k := 1; k <= p.np; k++ {
			cols[k] = classGrid[(i+i/len(classGrid)*k+k-1)%len(classGrid)]
		}
		n0 := cols[c]
		if _, in, ok := inside(n0); !ok {
			return false
		} else if !in {
			continue
		}
		// The run of consecutive points of the domain from lo, at most
		// D + 1 below n0, up until there are D + 1 + m: every window of
		// D + 2 within one period. Each window is tested as the run
		// reaches it, so that a step near n0 ends the search early.
		lo := n0
		for lo > n0-int64(deg+1) {
			if _, in, ok := inside(lo - 1); !ok {
				return false
			} else if !in {
				break
			}
			lo--
		}
		run := 0
		for n := lo; run < len(vals); n++ {
			v, in, ok := inside(n)
			if !ok {
				return false
			}
			if !in {
				break
			}
			vals[run] = v
			run++
			if run >= deg+2 {
				d, ok := highestDifference(vals[run-deg-2 : run])
				if !ok {
					return false
				}
				if d != 0 {
					return true
				}
			}
		}
		if run == len(vals) {
			if bases++; bases == maxClassBases {
				break
			}
		}
		if tried++; tried == maxClassTries {
			break
		}
	}
	return false
}

// highestDifference is the last finite difference of vals (the
// len(vals)-1-th), and false on overflow. vals is left as it was.
func highestDifference(vals []int64) (int64, bool) {
	var buf [8]int64
	d := buf[:0]
	if len(vals) > len(buf) {
		d = make([]int64, 0, len(vals))
	}
	d = append(d, vals...)
	for k := 1; k < len(d); k++ {
		for j := len(d) - 1; j >= k; j-- {
			x := d[j] - d[j-1]
			if (x < d[j]) != (d[j-1] > 0) {
				return 0, false
			}
			d[j] = x
		}
	}
	return d[len(d)-1], true
}

// maxValuePeriod bounds the period collapseByValues tries, and
// maxValueSteps the parameter values it visits.
const (
	maxValuePeriod = 1 << 12
	maxValueSteps  = 1 << 14
)

// collapseByValues is collapse for a one-parameter piece whose period is
// too large to split into residue classes (the 256 of floor(n/256) in the
// footprints of work-groups). With M the period of its divs, every
// constraint of the domain and the poly itself are, on a class
// n = M*k + r, affine in k and a polynomial in k of degree at most D, the
// poly's: the class's points in the domain are consecutive values of k,
// and a polynomial P of degree at most D in n equals the poly on all of
// them iff it does on D + 1 of them (or on all, if fewer). P is the
// polynomial through the first D + 1 points of the domain; if it passes
// in every class, it replaces the poly. A poly that stays periodic
// usually fails in the first classes, so the check stops at the first
// point that differs.
func (p *bset) collapseByValues() {
	if p.np != 1 || p.nd != 0 || len(p.divs) == 0 {
		return
	}
	usesDiv := false
	for k, d := range p.divs {
		if !isZeroRow(d.num[2:]) {
			return // a div of a div: the period is not splitModulus's
		}
		usesDiv = usesDiv || p.poly.usesCol(p.divCol(k))
	}
	m := p.splitModulus(1)
	if !usesDiv || m == 1 || m > maxValuePeriod {
		return
	}
	lo, hi, hasLo, hasHi, empty := p.ratRange(1)
	if empty || !hasLo && !hasHi {
		return
	}
	deg := p.poly.degree()
	// Points are visited away from a finite bound of the domain.
	start, dir := lo, int64(1)
	if !hasLo {
		start, dir = hi, -1
	}
	inRange := func(n int64) bool { return (!hasLo || n >= lo) && (!hasHi || n <= hi) }
	steps := 0
	// walk visits the points of the domain from n on, stride apart,
	// until visit returns false or, on a class (whose points are
	// consecutive), once a point was in the domain, one is not; it
	// returns false on overflow or past maxValueSteps.
	walk := func(n, stride int64, visit func(n int64, v *big.Rat) bool) bool {
		class := stride != dir
		inside := false
		for ; inRange(n); n += stride {
			if steps++; steps > maxValueSteps {
				return false
			}
			v, in, ok := polyAt(p, []int64{n})
			switch {
			case !ok:
				return false
			case in:
				inside = true
				if !visit(n, v) {
					return true
				}
			case inside && class:
				return true
			}
		}
		return true
	}
	var xs []int64
	var ys []*big.Rat
	if !walk(start, dir, func(n int64, v *big.Rat) bool {
		xs, ys = append(xs, n), append(ys, v)
		return len(xs) <= deg
	}) || len(xs) == 0 {
		return
	}
	interp := interpolate(xs, ys)
	agrees := true
	for r := range m {
		found := 0
		if !walk(start+dir*r, dir*m, func(n int64, v *big.Rat) bool {
			agrees = interp.evalAt([]int64{1, n}).Cmp(v) == 0
			found++
			return agrees && found <= deg
		}) || !agrees {
			return
		}
	}
	p.poly = interp
	p.normalize()
}

// interpolate returns the polynomial in the one parameter (column 1) of
// degree below len(xs) through the values vals[i] at xs[i] (Lagrange).
func interpolate(xs []int64, vals []*big.Rat) *poly {
	out := &poly{}
	for j, xj := range xs {
		term := polyConst(vals[j])
		for i, xi := range xs {
			if i != j {
				x := polyVar(1).add(polyInt(neg64(xi)))
				term = term.mul(x).scale(big.NewRat(1, sub64(xj, xi)))
			}
		}
		out = out.add(term)
	}
	return out
}

// polyAt evaluates a piece's polynomial at a parameter point, inside its
// domain or not (in says which); ok is false on overflow.
func polyAt(p *bset, params []int64) (v *big.Rat, in, ok bool) {
	ok = tryNoOverflow(func() {
		var cols []int64
		cols, in = p.contains(params)
		v = p.poly.evalAt(cols)
	})
	return v, in, ok
}
