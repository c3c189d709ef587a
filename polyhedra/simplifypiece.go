package polyhedra

import "slices"

// simplifyPiece simplifies one piece in place; it returns false when the
// piece turned out empty or zero.
func (p *bset) simplifyPiece() bool {
	return p.live() && p.simplifyLive()
}

// live normalizes p and reports whether it may have points with a
// nonzero value.
func (p *bset) live() bool {
	return p.normalize() && !p.provablyEmpty() && !p.poly.isZero()
}

// simplifyLive is simplifyPiece for a piece that live has just kept.
func (p *bset) simplifyLive() bool {
	changed := p.applyEqualities()
	changed = p.fixDivs() || changed
	fixed := p.poly
	for c := 1; c <= p.np; c++ {
		if !p.collapse(c) {
			return false
		}
	}
	if p.poly != fixed {
		// Only a collapse that replaced the poly can leave it divs
		// that the first pass did not see.
		p.fixDivs()
		changed = true
	}
	if !p.dropRedundant() && !changed {
		// p is the piece that live kept.
		return true
	}
	return p.normalize() && !p.provablyEmpty() && !p.poly.isZero()
}

// applyEqualities uses each equality x = e (unit coefficient, e without
// divs) to replace x in every other row, div and the poly; the equality
// itself stays, so the domain is unchanged, and divs of x whose value the
// equality fixes become constants. It reports whether it substituted
// one.
func (p *bset) applyEqualities() (changed bool) {
	for i := 0; i < len(p.eqs); i++ {
		r := p.eqs[i]
		x := -1
		for c := 1; c < p.firstDiv(); c++ {
			if r[c] == 1 || r[c] == -1 {
				x = c
			}
		}
		if x < 0 || !isZeroRow(r[p.firstDiv():]) {
			continue
		}
		expr := copyRow(r)
		if r[x] == 1 {
			expr = negRow(expr)
		}
		expr[x] = 0
		p.eqs = slices.Delete(p.eqs, i, i+1)
		p.substitute(x, expr)
		p.eqs = slices.Insert(p.eqs, i, r)
		changed = true
		if !p.normalize() {
			return true
		}
	}
	return changed
}

// findEqualities adds the equalities the domain implies: an inequality
// e >= 0 that the domain also forces to e <= 0 becomes e = 0, and a
// parameter that FM pins to one value gets that value. Over the integers
// a domain is often thinner than its rational relaxation (m >= -13n,
// m >= 3n and m <= -5n + 6 hold only at n = 0), and an equality lets
// applyEqualities put the value into the polynomial, so that pieces that
// differ only away from their domains become equal and coalesce. It
// reports whether it found one.
func (p *bset) findEqualities() bool {
	found := p.tightenToEqualities()
	for c := 1; c <= p.np; c++ {
		if p.pinned(c) {
			continue
		}
		if lo, hi, hasLo, hasHi, _ := p.ratRange(c); hasLo && hasHi && lo == hi {
			e := p.unit(c, 1)
			e[0] = neg64(lo)
			p.addEq(e)
			found = true
		}
	}
	return found
}

// tightenToEqualities turns each inequality e >= 0 that the domain
// also forces to e <= 0 into e = 0 and reports whether there was one.
func (p *bset) tightenToEqualities() bool {
	loose := p.looseAtSimplePoints()
	found := false
	for i := 0; i < len(p.ineqs); i++ {
		if r := p.ineqs[i]; !loose[i] && p.implies(negRow(r)) {
			p.ineqs = slices.Delete(p.ineqs, i, i+1)
			loose = slices.Delete(loose, i, i+1)
			p.addEq(r)
			found = true
			i--
		}
	}
	return found
}

// looseAtSimplePoints reports for each inequality whether a simple point
// of p (eachSimplePoint) satisfies it strictly, which shows that p does
// not force it to equality. implies' own witnesses, with all dimensions
// equal, miss such points: without them a triangle paid an FM run per
// constraint.
func (p *bset) looseAtSimplePoints() []bool {
	loose := make([]bool, len(p.ineqs))
	left := len(p.ineqs)
	if left == 0 {
		return loose
	}
	p.eachSimplePoint(func(x []int64) bool {
		for i, r := range p.ineqs {
			if v, ok := dotOK(r, x); ok && v > 0 && !loose[i] {
				loose[i] = true
				left--
			}
		}
		return left == 0
	})
	return loose
}

// eachSimplePoint calls visit with each point of p, divs filled, among a
// few simple ones: large parameters and distinct dimensions in
// increasing or decreasing order (0 <= j <= i < n holds strictly at
// i = 2, j = 1), until visit returns true. visit may not keep x, which
// the next point overwrites.
func (p *bset) eachSimplePoint(visit func(x []int64) bool) {
	var buf [32]int64
	x := p.scratchRow(&buf)
	for _, pv := range [...]int64{17, 1000} {
		for _, pattern := range [...]func(k int) int64{
			func(k int) int64 { return int64(k + 1) },
			func(k int) int64 { return int64(p.nd + p.np - k) },
			func(k int) int64 { return 2 * int64(k+1) },
			func(k int) int64 { return 2 * int64(p.nd+p.np-k) },
		} {
			x[0] = 1
			for c := 1; c < p.firstDim(); c++ {
				x[c] = pv * pattern(c-1)
			}
			for c := p.firstDim(); c < p.firstDiv(); c++ {
				x[c] = pattern(c - 1)
			}
			if p.fillDivs(x) && p.satisfies(x, nil) && visit(x) {
				return
			}
		}
	}
}

// pinned reports whether an equality of p fixes column c alone.
func (p *bset) pinned(c int) bool {
	for _, r := range p.eqs {
		if r[c] != 0 && isZeroRow(r[1:c]) && isZeroRow(r[c+1:]) {
			return true
		}
	}
	return false
}

// settleEqualities alternates findEqualities and simplifyPiece until no
// equality is new: each substituted equality can narrow the others'
// ranges to a point. It reports whether the piece may still have points.
func (p *bset) settleEqualities() bool {
	for range p.np + 1 {
		if !p.findEqualities() {
			return true
		}
		if !p.simplifyPiece() {
			return false
		}
	}
	return true
}

// fixDivs replaces divs of the poly whose value the domain pins to a
// constant and reports whether there was one.
func (p *bset) fixDivs() (fixed bool) {
	var pts [][]int64
	for k := len(p.divs) - 1; k >= 0; k-- {
		col := p.divCol(k)
		if !p.poly.usesCol(col) {
			continue
		}
		// Two points of the domain where the div differs show that it is
		// not pinned, for less than the FM run of ratRange.
		if pts == nil {
			p.eachSimplePoint(func(x []int64) bool {
				pts = append(pts, copyRow(x))
				return false
			})
		}
		if varies(pts, col) {
			continue
		}
		lo, hi, hasLo, hasHi, _ := p.ratRange(col)
		if hasLo && hasHi && lo == hi {
			// Keep floor(num/den) = lo as den*lo <= num <= den*lo + den - 1.
			d := p.divs[k]
			l := copyRow(d.num)
			l[0] = sub64(l[0], mul64(d.den, lo))
			h := negRow(d.num)
			h[0] = add64(h[0], add64(mul64(d.den, lo), d.den-1))
			p.addIneq(l)
			p.addIneq(h)
			p.substitute(col, p.unit(0, lo))
			p.normalize()
			k, pts = len(p.divs), nil
			fixed = true
		}
	}
	return fixed
}

// varies reports whether column col takes two values among pts.
func varies(pts [][]int64, col int) bool {
	for _, x := range pts[min(1, len(pts)):] {
		if x[col] != pts[0][col] {
			return true
		}
	}
	return false
}

// dropRedundant removes inequalities implied by the others and reports
// whether there was one. The test reads the others through a shallow
// copy of p: implies changes no row.
func (p *bset) dropRedundant() (dropped bool) {
	sole := p.soleBounds()
	for i := 0; i < len(p.ineqs); i++ {
		r := p.ineqs[i]
		if sole.holds(r) {
			continue
		}
		q := *p
		q.poly = nil
		q.ineqs = slices.Delete(slices.Clone(p.ineqs), i, i+1)
		if q.implies(r) {
			p.ineqs = slices.Delete(p.ineqs, i, i+1)
			sole.drop(r)
			i--
			dropped = true
		}
	}
	return dropped
}

// soleBounds counts, for each column that can move freely (a parameter
// or dimension that no equality and no div refers to), the inequalities
// that bound it from below and from above. An inequality that is the
// only lower (or upper) bound of such a column is not implied by the
// others: from a point of the others, moving that column down (up)
// keeps them all and breaks it. The parameters of a count (n >= 1 and
// m >= 1) are mostly such bounds, and each spared an implication test.
type soleBounds struct{ lower, upper []int }

func (p *bset) soleBounds() soleBounds {
	free := make([]bool, p.firstDiv())
	for c := 1; c < len(free); c++ {
		free[c] = true
	}
	for _, rows := range [][][]int64{p.eqs, p.divNums()} {
		for _, r := range rows {
			for c := 1; c < len(free); c++ {
				free[c] = free[c] && r[c] == 0
			}
		}
	}
	sb := soleBounds{make([]int, len(free)), make([]int, len(free))}
	for c := range free {
		if !free[c] {
			sb.lower[c], sb.upper[c] = -1, -1
		}
	}
	for _, r := range p.ineqs {
		sb.count(r, 1)
	}
	return sb
}

// count adds delta to the bounds that r places on the free columns.
func (sb soleBounds) count(r []int64, delta int) {
	for c := 1; c < len(sb.lower) && c < len(r); c++ {
		switch {
		case sb.lower[c] < 0:
		case r[c] > 0:
			sb.lower[c] += delta
		case r[c] < 0:
			sb.upper[c] += delta
		}
	}
}

// drop forgets the bounds of a dropped inequality.
func (sb soleBounds) drop(r []int64) { sb.count(r, -1) }

// holds reports whether r is the only lower or upper bound of a free
// column, and so not implied by the other inequalities.
func (sb soleBounds) holds(r []int64) bool {
	for c := 1; c < len(sb.lower) && c < len(r); c++ {
		if sb.lower[c] >= 0 && (r[c] > 0 && sb.lower[c] == 1 || r[c] < 0 && sb.upper[c] == 1) {
			return true
		}
	}
	return false
}
