package polyhedra

import "math/big"

// Parameter compression. A kernel's assumptions often fix a parameter's
// residue (n mod 256 = 0), which the set holds as an equality with a div:
// n = 256*floor(n/256). Counted as it is, every bound that involves n
// carries that div, and the chambers of the count split on values of n
// that the congruence excludes: a partial tile of 32 work-items in
// groups of 256 came out as five overlapping pieces with floors of n,
// in 0.2 ms where barvinok, which compresses such parameters, takes
// 0.08 ms. Counting over n' with n = M*n' + r instead (every point of the
// set has such an n', and only one) leaves bounds without the div, and
// the count over n' is mapped back to n by n' = (n - r)/M on the
// congruence n = r (mod M), which the pieces keep as a constraint.

// maxCompressModulus bounds the moduli compressed, so that scaling the
// rows by them stays far from overflow.
const maxCompressModulus = 1 << 16

// congruence is n = r (mod m) for the parameter in column col.
type congruence struct {
	col  int
	m, r int64
}

// congruences returns the parameter congruences that equalities of b
// state as n + k = m*d, d a div (d's definition does not matter: it is
// an integer), with the first one found for each parameter.
func (b *bset) congruences() []congruence {
	var out []congruence
	seen := map[int]bool{}
	for _, e := range b.eqs {
		col, div := -1, -1
		ok := isZeroRow(e[b.firstDim():b.firstDiv()])
		for c := 1; ok && c < len(e); c++ {
			switch {
			case e[c] == 0:
			case c < b.firstDim() && col < 0 && (e[c] == 1 || e[c] == -1):
				col = c
			case c >= b.firstDiv() && div < 0:
				div = c
			default:
				ok = false
			}
		}
		if !ok || col < 0 || div < 0 || seen[col] {
			continue
		}
		// Make n's coefficient 1: n + k - m*d = 0.
		sign := e[col]
		k, m := sign*e[0], -sign*e[div]
		if m < 0 {
			m = -m
		}
		if m < 2 || m > maxCompressModulus {
			continue
		}
		seen[col] = true
		out = append(out, congruence{col, m, floorMod(-k, m)})
	}
	return out
}

// compress rewrites b over n' with n = m*n' + r: b's points are those of
// the result with n mapped, one to one.
func (b *bset) compress(g congruence) {
	e := b.unit(g.col, g.m)
	e[0] = g.r
	b.substitute(g.col, e)
}

// decompress maps a piece counted over n' (see compress) back to n:
// every row and div numerator with a term a*n' is scaled by m and reads
// a*(n - r) there, the poly takes n' = (n - r)/m, and the congruence
// n = r (mod m) joins the constraints.
func (b *bset) decompress(g congruence) {
	back := func(row []int64) bool {
		a := row[g.col]
		if a == 0 {
			return false
		}
		for j := range row {
			row[j] = mul64(row[j], g.m)
		}
		row[g.col] = a
		row[0] = sub64(row[0], mul64(a, g.r))
		return true
	}
	for _, r := range b.eqs {
		back(r)
	}
	for _, r := range b.ineqs {
		back(r)
	}
	for k := range b.divs {
		if back(b.divs[k].num) {
			b.divs[k].den = mul64(b.divs[k].den, g.m)
		}
	}
	if b.poly != nil {
		nr := polyVar(g.col).add(polyInt(neg64(g.r))).scale(big.NewRat(1, g.m))
		b.poly = b.poly.substitute(g.col, nr)
	}
	num := b.unit(g.col, 1)
	num[0] = neg64(g.r)
	q := b.floorExpr(num, g.m)
	eq := b.fit(copyRow(num))
	addScaled(eq, neg64(g.m), b.fit(q))
	b.addEq(eq)
}
