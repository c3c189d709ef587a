package polyhedra

import "math/big"

// maxResidueDen bounds the denominators of the floors whose powers
// lowerFloorDegrees lowers: a floor of denominator d is lowered only
// where it is raised to the power d or more, and counts rarely raise a
// floor to a power above 3.
const maxResidueDen = 3

// lowerFloorDegrees rewrites p's poly with each floor f = floor(e/d) of
// a small denominator (e without floors) raised to powers below d, and
// keeps the result where it prints shorter. The residue r = e - d*f
// takes only the values 0 to d-1, so r(r-1)...(r-d+1) = 0 at every
// integer point and r^d equals a polynomial of lower degree in r:
// floor(n/2)^2 is (n^2 - 2n*r + r)/4 with r = n - 2*floor(n/2), which
// is n*floor(n/2) - floor(n/2)/2 - n^2/4 + n/4, with no square. The
// value is the same everywhere, on the domain or off it. The stencil of
// issue 26 printed floor(n/2)^2 and floor(m/2)^2 terms that barvinok's
// answer does not have, in 333 characters against its 193; then in 207,
// and in 190 since sparseFloors writes it with floor((n + m)/2) and
// floor(n/2) lost its inner parentheses.
func (p *bset) lowerFloorDegrees() {
	q := p.residueForm()
	if q != p.poly && len(polyKey(p, q)) < len(polyKey(p, p.poly)) {
		p.poly = q
		p.dropUnusedDivs()
	}
}

// residueForm is p's poly with the powers of its floors of small
// denominators lowered (see lowerFloorDegrees), or p's poly itself
// where there is none to lower.
func (p *bset) residueForm() *poly {
	type residue struct {
		col, rcol int
		num       []int64
		den       int64
	}
	var rs []residue
	q := p.poly
	for k, d := range p.divs {
		col := p.divCol(k)
		if d.den > maxResidueDen || !isZeroRow(d.num[p.firstDiv():]) || degreeIn(q, col) < int(d.den) {
			continue
		}
		r := residue{col, p.width() + k, d.num, d.den}
		// f = (e - r)/d
		q = q.substitute(col, polyFromRow(r.num).sub(polyVar(r.rcol)).scale(big.NewRat(1, r.den)))
		rs = append(rs, r)
	}
	for _, r := range rs {
		q = reduceResidue(q, r.rcol, r.den)
		// r = e - d*f
		q = q.substitute(r.rcol, polyFromRow(r.num).sub(polyVar(r.col).scale(big.NewRat(r.den, 1))))
	}
	return q
}

// degreeIn is the highest power of column col in q.
func degreeIn(q *poly, col int) int {
	return len(q.coeffsIn(col)) - 1
}

// reduceResidue lowers the powers of column col, a residue modulo m
// (an integer from 0 to m-1), below m: x^m = x^m - x(x-1)...(x-m+1),
// a polynomial of degree m-1, at every value x takes.
func reduceResidue(q *poly, col int, m int64) *poly {
	cs := q.coeffsIn(col)
	x := powers(polyVar(col), max(len(cs)-1, int(m)))
	vanishing := polyInt(1)
	for j := range m {
		vanishing = vanishing.mul(polyVar(col).add(polyInt(-j)))
	}
	lower := x[m].sub(vanishing) // x^m at every value x takes, of degree m - 1
	for k := len(cs) - 1; k >= int(m); k-- {
		if cs[k].isZero() {
			continue
		}
		// cs[k] x^k = cs[k] x^(k-m) x^m
		low := cs[k].mul(lower).mul(x[k-int(m)])
		cs[k] = &poly{}
		for i, c := range low.coeffsIn(col) {
			cs[i] = cs[i].add(c)
		}
	}
	out := &poly{}
	for k, c := range cs {
		out = out.add(c.mul(x[k]))
	}
	return out
}
