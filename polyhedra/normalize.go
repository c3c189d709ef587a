package polyhedra

import "slices"

// canonicalFloor writes floor(num/den) as q + sign*floor(r/d) with q an
// integer affine row and r/d canonical: d > 1, the variable coefficients of
// r lie in [0, d) and have gcd 1 with d. Of the two such forms,
// floor(r/d) and sum_{r_j>0} x_j - floor(s/d) with s_j = d - r_j and
// s_0 = d - 1 - r_0 (from floor(x/d) = -floor((d - 1 - x)/d)), the one
// with the smaller coefficients is taken, so ceil(n/16) stays
// floor((15 + n)/16) rather than n - floor(15n/16); ties go to the smaller
// constant (floor(n/2), not floor((n+1)/2)), then to the smaller
// coefficients in column order. d = 0 means floor(num/den) is affine (q).
func canonicalFloor(num []int64, den int64) (q, r []int64, d, sign int64) {
	num = copyRow(num)
	g := gcd64(rowGCD(num), den)
	if g > 1 {
		for j := 1; j < len(num); j++ {
			num[j] /= g
		}
		num[0] = floorDiv(num[0], g)
		den /= g
	}
	q = make([]int64, len(num))
	for j, v := range num {
		q[j] = floorDiv(v, den)
		num[j] = sub64(v, mul64(q[j], den))
	}
	if den == 1 || isZeroRow(num[1:]) {
		return q, nil, 0, 0
	}
	alt := altFloor(make([]int64, len(num)), num, den)
	if divLess(alt, num) {
		for j := 1; j < len(num); j++ {
			if num[j] > 0 {
				q[j]++
			}
		}
		return q, alt, den, -1
	}
	return q, num, den, 1
}

// isCanonicalFloor reports whether canonicalFloor would return num/den
// as it is (q zero, sign 1), without its copies: most divs are canonical
// already when a set is normalized again, and normalizing is frequent.
func isCanonicalFloor(num []int64, den int64) bool {
	if den <= 1 || isZeroRow(num[1:]) || gcd64(rowGCD(num), den) != 1 {
		return false
	}
	for _, v := range num {
		if v < 0 || v >= den {
			return false
		}
	}
	var buf [32]int64
	alt := buf[:]
	if len(num) > len(buf) {
		alt = make([]int64, len(num))
	}
	return !divLess(altFloor(alt[:len(num)], num, den), num)
}

// altFloor writes into alt (of num's length) the numerator s of the
// other form of floor(num/den) (see canonicalFloor): s_j = den - num_j
// where num_j > 0, s_0 = den - 1 - num_0, for num's coefficients in
// [0, den).
func altFloor(alt, num []int64, den int64) []int64 {
	alt[0] = den - 1 - num[0]
	for j := 1; j < len(num); j++ {
		alt[j] = 0
		if num[j] > 0 {
			alt[j] = den - num[j]
		}
	}
	return alt
}

// divLess orders canonical div numerators: smaller coefficient sum, then
// smaller constant, then smaller coefficients in column order.
func divLess(a, b []int64) bool {
	var sa, sb int64
	for j := 1; j < len(a); j++ {
		sa, sb = sa+a[j], sb+b[j]
	}
	if sa != sb {
		return sa < sb
	}
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	for j := 1; j < len(a); j++ {
		if a[j] != b[j] {
			return a[j] < b[j]
		}
	}
	return false
}

// floorExpr returns a row equal to floor(num/den), den > 0, reusing an
// equal div or adding a new one at the end.
func (b *bset) floorExpr(num []int64, den int64) []int64 {
	q, r, d, sign := canonicalFloor(b.fit(copyRow(num)), den)
	if d == 0 {
		return q
	}
	col := b.findDiv(r, d, len(b.divs))
	if col < 0 {
		col = b.appendDivCol(r, d)
	}
	q = b.fit(q)
	q[col] += sign
	return q
}

// findDiv returns the column of a div among the first n equal to r/d, or -1.
func (b *bset) findDiv(r []int64, d int64, n int) int {
	for k := 0; k < n; k++ {
		if b.divs[k].den == d && equalRows(b.divs[k].num, b.fit(r)) {
			return b.divCol(k)
		}
	}
	return -1
}

// normalizeDivs brings every div into canonical form (see canonicalFloor),
// merges equal divs and replaces divs that turned affine. Substitutions keep
// the value of every row; they only rewrite it.
func (b *bset) normalizeDivs() {
	for k := 0; k < len(b.divs); k++ {
		col := b.divCol(k)
		if d := b.divs[k]; isCanonicalFloor(d.num, d.den) && b.findDiv(d.num, d.den, k) < 0 {
			continue
		}
		q, r, d, sign := canonicalFloor(b.divs[k].num, b.divs[k].den)
		if d != 0 {
			if dup := b.findDiv(r, d, k); dup >= 0 {
				q[dup] += sign
				d = 0
			}
		}
		if d == 0 {
			b.substitute(col, q)
			b.deleteCol(col)
			k--
			continue
		}
		b.divs[k] = div{r, d}
		if sign != 1 || !isZeroRow(q) {
			q[col] = sign
			b.substitute(col, q)
		}
	}
}

// dropUnusedDivs removes divs that no constraint, div or poly refers to,
// with one remap: deleting them one at a time rewrote every row and the
// poly once per div.
func (b *bset) dropUnusedDivs() {
	if len(b.divs) == 0 {
		return
	}
	used := b.divsUsed(b.poly, b.eqs, b.ineqs)
	if !slices.Contains(used, false) {
		return
	}
	m := make([]int, b.width())
	next := 0
	kept := b.divs[:0]
	for c := range m {
		k := c - b.firstDiv()
		if k >= 0 && !used[k] {
			m[c] = -1
			continue
		}
		m[c] = next
		next++
		if k >= 0 {
			kept = append(kept, b.divs[k])
		}
	}
	b.divs = kept
	b.remap(b.np, b.nd, m)
}

// divsUsed reports for each div of b whether the rows of lists or the
// poly q (nil for none) use it, directly or through a div they use. A
// div refers to earlier columns, so one pass from the last div finds
// them all.
func (b *bset) divsUsed(q *poly, lists ...[][]int64) []bool {
	used := make([]bool, len(b.divs))
	mark := func(c int, v int64) {
		if k := c - b.firstDiv(); v != 0 && k >= 0 && k < len(used) {
			used[k] = true
		}
	}
	for _, rows := range lists {
		for _, r := range rows {
			for c := b.firstDiv(); c < len(r); c++ {
				mark(c, r[c])
			}
		}
	}
	if q != nil {
		for _, t := range q.terms {
			for c := b.firstDiv(); c < len(t.exp); c++ {
				mark(c, int64(t.exp[c]))
			}
		}
	}
	for k := len(b.divs) - 1; k >= 0; k-- {
		if used[k] {
			for c := b.firstDiv(); c < len(b.divs[k].num); c++ {
				mark(c, b.divs[k].num[c])
			}
		}
	}
	return used
}

// normalize brings b into a normal form: canonical divs, constraints
// divided by the gcd of their coefficients (inequalities tightened to the
// integers), duplicates and parallel pairs merged, single-div constraints
// rewritten without the div where that is exact. It returns false when b is
// trivially empty.
func (b *bset) normalize() bool {
	b.normalizeDivs()
	if !b.normalizeConstraints() {
		return false
	}
	for b.pinDivs() {
		b.normalizeDivs()
		if !b.normalizeConstraints() {
			return false
		}
	}
	b.dropUnusedDivs()
	return true
}

// pinDivs replaces each div whose value the variables' own bounds fix by
// that value: with 0 <= i <= 15, floor(i/16) is 0. The bounds are those
// of constraints on one variable; a div's numerator ranges over the box
// they span, and if the floor is the same at both ends it is the same at
// every point of b. Without this, i mod 16 in a tile would split i into
// 16 residue classes for nothing. It reports whether it pinned a div.
func (b *bset) pinDivs() (pinned bool) {
	if len(b.divs) == 0 {
		return false
	}
	tryNoOverflow(func() {
		lo, hi, hasLo, hasHi := b.box()
		for k, d := range b.divs {
			nlo, nhi, ok := rowRange(d.num, lo, hi, hasLo, hasHi)
			if !ok {
				continue
			}
			col := b.divCol(k)
			vlo, vhi := floorDiv(nlo, d.den), floorDiv(nhi, d.den)
			if vlo == vhi && b.usesCol(col) {
				b.substitute(col, b.unit(0, vlo))
				pinned = true
				return
			}
			// Later divs may use this one.
			if !hasLo[col] || vlo > lo[col] {
				lo[col], hasLo[col] = vlo, true
			}
			if !hasHi[col] || vhi < hi[col] {
				hi[col], hasHi[col] = vhi, true
			}
		}
	})
	return pinned
}

// box returns the bounds of each column that constraints on that column
// alone give.
func (b *bset) box() (lo, hi []int64, hasLo, hasHi []bool) {
	w := b.width()
	lo, hi = make([]int64, w), make([]int64, w)
	hasLo, hasHi = make([]bool, w), make([]bool, w)
	bound := func(c int, l, h int64, isLo, isHi bool) {
		if isLo && (!hasLo[c] || l > lo[c]) {
			lo[c], hasLo[c] = l, true
		}
		if isHi && (!hasHi[c] || h < hi[c]) {
			hi[c], hasHi[c] = h, true
		}
	}
	single := func(r []int64) int {
		c := -1
		for j := 1; j < len(r); j++ {
			if r[j] != 0 {
				if c >= 0 {
					return -1
				}
				c = j
			}
		}
		return c
	}
	for _, r := range b.eqs {
		if c := single(r); c > 0 && r[0]%r[c] == 0 {
			v := neg64(r[0]) / r[c]
			bound(c, v, v, true, true)
		}
	}
	for _, r := range b.ineqs {
		c := single(r)
		switch {
		case c < 0:
		case r[c] > 0: // x >= ceil(-r0/a)
			bound(c, neg64(floorDiv(r[0], r[c])), 0, true, false)
		default: // x <= floor(r0/|a|)
			bound(c, 0, floorDiv(r[0], neg64(r[c])), false, true)
		}
	}
	return lo, hi, hasLo, hasHi
}

// rowRange returns the range of the affine row over the box, if bounded.
func rowRange(row, lo, hi []int64, hasLo, hasHi []bool) (rlo, rhi int64, ok bool) {
	rlo, rhi = row[0], row[0]
	for c := 1; c < len(row); c++ {
		k := row[c]
		if k == 0 {
			continue
		}
		if !hasLo[c] || !hasHi[c] {
			return 0, 0, false
		}
		a, z := mul64(k, lo[c]), mul64(k, hi[c])
		rlo, rhi = add64(rlo, min(a, z)), add64(rhi, max(a, z))
	}
	return rlo, rhi, true
}

// normalizeConstraints is normalize without touching the divs.
func (b *bset) normalizeConstraints() bool {
	for changed := true; changed; {
		changed = false
		b.rewriteSingleDiv()
		if !b.normalizeRows() {
			return false
		}
		b.tightenCongruences()
		if b.promoteOpposites() {
			changed = true
		}
	}
	return true
}

// normalizeRows divides each constraint by its gcd and removes constant
// and duplicate constraints; it returns false on a contradiction.
func (b *bset) normalizeRows() bool {
	eqs := b.eqs[:0]
	seenEq := newRowIndex()
	defer seenEq.release()
	var eqConst []int64
	for _, r := range b.eqs {
		vars, holds := tightenEq(r)
		if !holds {
			return false
		}
		if !vars {
			continue
		}
		if firstNonZero(r[1:]) < 0 {
			for j := range r {
				r[j] = -r[j]
			}
		}
		if i := seenEq.find(r[1:], 1); i >= 0 {
			if eqConst[i] != r[0] {
				return false
			}
			continue
		}
		seenEq.add(r[1:])
		eqConst = append(eqConst, r[0])
		eqs = append(eqs, r)
	}
	b.eqs = eqs

	best := newRowIndex()
	defer best.release()
	ineqs := b.ineqs[:0]
	for _, r := range b.ineqs {
		vars, holds := tightenIneq(r)
		if !holds {
			return false
		}
		if !vars || b.divImplies(r) {
			continue
		}
		if i := seenEq.find(r[1:], 1); i >= 0 {
			// a.x + c0 = 0 and a.x + r0 >= 0: need r0 - c0 >= 0.
			if sub64(r[0], eqConst[i]) < 0 {
				return false
			}
			continue
		}
		if i := seenEq.find(r[1:], -1); i >= 0 {
			// a.x + c0 = 0 and -a.x + r0 >= 0: need r0 + c0 >= 0.
			if add64(r[0], eqConst[i]) < 0 {
				return false
			}
			continue
		}
		h := hashRow(r[1:], 1)
		if i := best.findHash(h, r[1:], 1); i >= 0 {
			if r[0] < ineqs[i][0] {
				ineqs[i][0] = r[0]
			}
			continue
		}
		best.addHash(h, r[1:])
		ineqs = append(ineqs, r)
	}
	b.ineqs = ineqs
	return true
}

// promoteOpposites finds pairs a.x + c >= 0, -a.x + d >= 0: with c + d < 0
// the set is empty (normalizeRows will report it once the pair becomes a
// contradictory equality); with c + d = 0 they form the equality a.x + c = 0.
// It reports whether it changed anything.
func (b *bset) promoteOpposites() bool {
	idx := newRowIndex()
	defer idx.release()
	for _, r := range b.ineqs {
		idx.add(r[1:])
	}
	drop := make([]bool, len(b.ineqs))
	changed := false
	for i, r := range b.ineqs {
		if drop[i] {
			continue
		}
		j := idx.find(r[1:], -1)
		if j < 0 || drop[j] {
			continue
		}
		s := add64(r[0], b.ineqs[j][0])
		switch {
		case s < 0:
			b.eqs = append(b.eqs, b.unit(0, 1)) // 1 = 0
		case s == 0:
			b.eqs = append(b.eqs, copyRow(r))
		default:
			continue
		}
		drop[i], drop[j] = true, true
		changed = true
	}
	if changed {
		out := b.ineqs[:0]
		for i, r := range b.ineqs {
			if !drop[i] {
				out = append(out, r)
			}
		}
		b.ineqs = out
	}
	return changed
}

// divImplies reports whether the inequality r holds wherever its one div
// d = floor(e/m) is defined: r is c*(e - m*d) + c0 with c0 >= 0, or
// c*(m*d - e) + c0 with c0 >= c*(m - 1), for an integer c > 0, since
// 0 <= e - m*d <= m - 1. Projecting a tile's variables out leaves such
// rows (a mod 256 >= 0), and the div they keep alive would otherwise be
// lifted or split into residue classes.
func (b *bset) divImplies(r []int64) bool {
	col := -1
	for c := b.firstDiv(); c < len(r); c++ {
		if r[c] != 0 {
			if col >= 0 {
				return false
			}
			col = c
		}
	}
	if col < 0 {
		return false
	}
	d := b.divs[col-b.firstDiv()]
	if r[col]%d.den != 0 {
		return false
	}
	// With k = r[col]/m, r = -k*(e - m*d) + c0 where c0 = r0 + k*e0.
	k := r[col] / d.den
	for j := 1; j < len(r); j++ {
		var e int64
		if j < len(d.num) {
			e = d.num[j]
		}
		if v, ok := mulOK(-k, e); j != col && (!ok || r[j] != v) {
			return false
		}
	}
	ke, ok := mulOK(k, d.num[0])
	c0, ok2 := addOK(r[0], ke)
	if !ok || !ok2 {
		return false
	}
	if k < 0 {
		return c0 >= 0
	}
	bound, ok := mulOK(k, d.den-1)
	return ok && c0 >= bound
}

// rewriteSingleDiv rewrites a constraint k*d + f >= 0 whose only div is
// d = floor(e/m) and whose other variable coefficients k divides: the
// constraint says d >= g (k > 0) or d <= g (k < 0) for an integer affine g,
// that is e >= m*g or e <= m*g + m - 1. An equality becomes both.
func (b *bset) rewriteSingleDiv() {
	out := b.ineqs[:0]
	var extra [][]int64
	for _, r := range b.ineqs {
		if e, ok := b.singleDivBound(r); ok {
			extra = append(extra, e)
			continue
		}
		out = append(out, r)
	}
	b.ineqs = append(out, extra...)
	eqs := b.eqs[:0]
	for _, r := range b.eqs {
		lo, ok1 := b.singleDivBound(r)
		hi, ok2 := b.singleDivBound(negRow(r))
		if ok1 && ok2 {
			b.ineqs = append(b.ineqs, lo, hi)
			continue
		}
		eqs = append(eqs, r)
	}
	b.eqs = eqs
}

func (b *bset) singleDivBound(r []int64) ([]int64, bool) {
	col := -1
	for c := b.firstDiv(); c < len(r); c++ {
		if r[c] != 0 {
			if col >= 0 {
				return nil, false
			}
			col = c
		}
	}
	if col < 0 {
		return nil, false
	}
	k := r[col]
	ak := abs64(k)
	for j := 1; j < col; j++ {
		if r[j]%ak != 0 {
			return nil, false
		}
	}
	d := b.divs[col-b.firstDiv()]
	g := make([]int64, len(r))
	if k > 0 {
		// d >= -(f_vars/k) - floor(c/k)
		for j := 1; j < col; j++ {
			g[j] = -r[j] / k
		}
		g[0] = neg64(floorDiv(r[0], k))
		// e - m*g >= 0
		out := copyRow(d.num)
		addScaled(out, neg64(d.den), g)
		return out, true
	}
	// d <= f_vars/|k| + floor(c/|k|); e <= m*g + m - 1
	for j := 1; j < col; j++ {
		g[j] = r[j] / ak
	}
	g[0] = floorDiv(r[0], ak)
	out := negRow(d.num)
	addScaled(out, d.den, g)
	out[0] = add64(out[0], d.den-1)
	return out, true
}

func firstNonZero(r []int64) int64 {
	for _, v := range r {
		if v != 0 {
			return v
		}
	}
	return 0
}

// tightenCongruences moves the bounds of a variable x with a congruence
// x - m*floor((x + c)/m) = t (x = t mod m) to the nearest values that
// satisfy it: with i = 3j, i >= -2 becomes i >= 0.
func (b *bset) tightenCongruences() {
	for _, e := range b.eqs {
		x, _, m, t, ok := b.congruence(e)
		if !ok {
			continue
		}
		for _, r := range b.ineqs {
			if r[x] == 0 || !onlyCol(r, x) {
				continue
			}
			if r[x] == 1 { // x >= -r0
				lo := neg64(r[0])
				r[0] = neg64(add64(lo, floorMod(sub64(t, lo), m)))
			} else if r[x] == -1 { // x <= r0
				hi := r[0]
				r[0] = sub64(hi, floorMod(sub64(hi, t), m))
			}
		}
	}
}

// congruence recognises x - m*d - t = 0 (or its negation) with
// d = floor((x + c)/m): x = t (mod m).
func (b *bset) congruence(e []int64) (x, col int, m, t int64, ok bool) {
	x, col = -1, -1
	for c := 1; c < len(e); c++ {
		switch {
		case e[c] == 0:
		case c < b.firstDiv() && x < 0:
			x = c
		case c >= b.firstDiv() && col < 0:
			col = c
		default:
			return 0, 0, 0, 0, false
		}
	}
	if x < 0 || col < 0 {
		return 0, 0, 0, 0, false
	}
	if e[x] == -1 {
		e = negRow(e)
	}
	d := b.divs[col-b.firstDiv()]
	if e[x] != 1 || e[col] != -d.den || d.num[x] != 1 || !onlyCol(d.num, x) {
		return 0, 0, 0, 0, false
	}
	return x, col, d.den, neg64(e[0]), true
}

// onlyCol reports whether column x is the only variable in r.
func onlyCol(r []int64, x int) bool {
	for c := 1; c < len(r); c++ {
		if c != x && r[c] != 0 {
			return false
		}
	}
	return true
}

func floorMod(a, m int64) int64 { return sub64(a, mul64(m, floorDiv(a, m))) }

// tightenIneq divides r >= 0 by the gcd of its variable coefficients,
// rounding the constant down, which is exact over the integers. It
// reports whether r has variables and, if it has none, whether it holds.
func tightenIneq(r []int64) (vars, holds bool) {
	g := rowGCD(r)
	if g == 0 {
		return false, r[0] >= 0
	}
	if g > 1 {
		for j := 1; j < len(r); j++ {
			r[j] /= g
		}
		r[0] = floorDiv(r[0], g)
	}
	return true, true
}

// tightenEq divides r = 0 by the gcd of its variable coefficients. It
// reports whether r has variables and whether it can hold: not when the
// gcd does not divide the constant.
func tightenEq(r []int64) (vars, holds bool) {
	g := rowGCD(r)
	if g == 0 {
		return false, r[0] == 0
	}
	if r[0]%g != 0 {
		return true, false
	}
	if g > 1 {
		for j := range r {
			r[j] /= g
		}
	}
	return true, true
}
