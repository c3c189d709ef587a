package polyhedra

// A div of a variable that ranges over less than one period takes at
// most two values: as x runs through lo..hi with hi - lo < T,
// floor((x + e)/T) is q or q + 1 for q = floor((lo + e)/T), the step
// falling where x + e crosses a multiple of T. Splitting x at that step
// gives two pieces in which the div is affine in q, a div of the other
// columns; splitting x into T residue classes instead gives T pieces,
// each with its own chambers. The inner variable of a tile projected
// away from its outer one (0 <= ii < 16 and 1 <= 16io + ii <= n - 2,
// io projected) has exactly such divs.

// splitNarrowDiv splits b into the two pieces of one div of x with
// coefficient ±1 whose period T exceeds the number of values that x's
// constant bounds allow. It reports false when no div of x is such (or
// the div is used by another div, whose column order the substitution
// would break).
func (b *bset) splitNarrowDiv(x int) ([]*bset, bool) {
	lo, hi, hasLo, hasHi := b.box()
	if !hasLo[x] || !hasHi[x] {
		return nil, false
	}
	for k, d := range b.divs {
		s := d.num[x]
		if s != 1 && s != -1 || hi[x]-lo[x] >= d.den || b.divUsedByDiv(k) {
			continue
		}
		return []*bset{b.narrowPiece(x, k, lo[x], false), b.narrowPiece(x, k, lo[x], true)}, true
	}
	return nil, false
}

// divUsedByDiv reports whether another div uses div k.
func (b *bset) divUsedByDiv(k int) bool {
	col := b.divCol(k)
	for _, d := range b.divs {
		if col < len(d.num) && d.num[col] != 0 {
			return true
		}
	}
	return false
}

// narrowPiece returns the piece of b in which div k, floor((s*x + e)/T)
// with x >= lo, takes its lower value (step false) or its higher one.
// With q = floor((e + s*lo)/T):
//
//	s = 1:  x + e - T*q <= T - 1, div q;   x + e - T*q >= T, div q + 1
//	s = -1: e - x - T*q >= 0,     div q;   e - x - T*q <= -1, div q - 1
func (b *bset) narrowPiece(x, k int, lo int64, step bool) *bset {
	c := b.clone()
	d := c.divs[k]
	s, t := d.num[x], d.den
	e := copyRow(d.num)
	e[x] = 0
	shifted := copyRow(e)
	shifted[0] = add64(shifted[0], mul64(s, lo))
	q := c.floorExpr(shifted, t) // may add a column
	e = c.fit(e)
	// v = s*x + e - T*q, the remainder of the div's numerator over T*q
	v := c.newRow()
	v[x] = s
	addScaled(v, 1, e)
	addScaled(v, neg64(t), q)
	val := copyRow(q)
	if s > 0 {
		if step { // v >= T
			v[0] = sub64(v[0], t)
			c.addIneq(v)
			val[0] = add64(val[0], 1)
		} else { // T - 1 - v >= 0
			r := negRow(v)
			r[0] = add64(r[0], t-1)
			c.addIneq(r)
		}
	} else {
		if step { // -1 - v >= 0
			r := negRow(v)
			r[0] = sub64(r[0], 1)
			c.addIneq(r)
			val[0] = sub64(val[0], 1)
		} else { // v >= 0
			c.addIneq(v)
		}
	}
	col := c.divCol(k)
	c.substitute(col, val)
	c.deleteCol(col)
	return c
}
