package polyhedra

// Most sets that the emptiness and implication tests meet contain a
// simple integer point: parameters all equal to some value, dimensions
// all 0 or all 1 (loop domains start at 0 and run to a parameter).
// Finding one proves a set non-empty, or a constraint not implied, for
// the cost of evaluating its rows a few times, where Fourier–Motzkin
// elimination costs a system of rows per eliminated column. Counting the
// library kernels met such a point in nine of ten emptiness tests.

// witnessParams and witnessDims are the values tried.
var (
	witnessParams = [...]int64{1, 2, 17, 1000, 1 << 20}
	witnessDims   = [...]int64{0, 1}
)

// witness reports whether a simple integer point satisfies every
// constraint of b and every row of extra (rows >= 0). Given the
// constant bounds cb of b's columns and one extra row, it first tries
// the point they let push furthest along that row.
func (b *bset) witness(cb *colBounds, extra ...[]int64) bool {
	var buf [32]int64
	x := b.scratchRow(&buf)
	if cb != nil && len(extra) == 1 && b.fillExtreme(x, extra[0], cb) && b.satisfies(x, extra) {
		return true
	}
	for _, pv := range witnessParams {
		for _, dv := range witnessDims {
			if b.fillPoint(x, pv, dv) && b.satisfies(x, extra) {
				return true
			}
		}
	}
	return false
}

// scratchRow returns a row of b's width in buf where it fits: the point
// tests run in loops, and a row per test was much of their cost.
func (b *bset) scratchRow(buf *[32]int64) []int64 {
	if w := b.width(); w <= len(buf) {
		return buf[:w]
	}
	return b.newRow()
}

// fillExtreme sets x to a point that pushes dir·x up within the constant
// bounds of b's columns: an implication test looks for a point where the
// row is violated, which the points above miss when the row bounds a
// parameter (n >= 1 next to m >= 1). Columns without a bound in the
// direction wanted go far. It reports false on overflow.
func (b *bset) fillExtreme(x, dir []int64, cb *colBounds) bool {
	const far = 1 << 20
	lo, hi, hasLo, hasHi := cb.lo, cb.hi, cb.hasLo, cb.hasHi
	x[0] = 1
	for c := 1; c < b.firstDiv(); c++ {
		switch {
		case c < len(dir) && dir[c] > 0:
			x[c] = far
			if hasHi[c] {
				x[c] = hi[c]
			}
		case c < len(dir) && dir[c] < 0:
			x[c] = -far
			if hasLo[c] {
				x[c] = lo[c]
			}
		case hasLo[c]:
			x[c] = lo[c]
		case hasHi[c]:
			x[c] = hi[c]
		default:
			x[c] = 0
		}
	}
	return b.fillDivs(x)
}

// fillPoint sets x to the point with every parameter pv, every dimension
// dv and every div its value there; it reports false on overflow.
func (b *bset) fillPoint(x []int64, pv, dv int64) bool {
	x[0] = 1
	for c := 1; c < b.firstDim(); c++ {
		x[c] = pv
	}
	for c := b.firstDim(); c < b.firstDiv(); c++ {
		x[c] = dv
	}
	return b.fillDivs(x)
}

// fillDivs sets the div columns of x to their values at x's other
// columns; it reports false on overflow.
func (b *bset) fillDivs(x []int64) bool { return b.fillDivsOf(x, nil) }

// fillDivsOf is fillDivs for the divs k with need[k], every div where
// need is nil; the others keep their values in x.
func (b *bset) fillDivsOf(x []int64, need []bool) bool {
	for k, d := range b.divs {
		if need != nil && !need[k] {
			continue
		}
		if len(d.num) > b.divCol(k) && !isZeroRow(d.num[b.divCol(k):]) {
			return false // defined by a later column: not evaluated in order
		}
		v, ok := dotOK(d.num, x)
		if !ok {
			return false
		}
		x[b.divCol(k)] = floorDiv(v, d.den)
	}
	return true
}

// satisfies reports whether x satisfies b's constraints and extra.
func (b *bset) satisfies(x []int64, extra [][]int64) bool {
	for _, r := range b.eqs {
		if v, ok := dotOK(r, x); !ok || v != 0 {
			return false
		}
	}
	for _, rows := range [][][]int64{b.ineqs, extra} {
		for _, r := range rows {
			if v, ok := dotOK(r, x); !ok || v < 0 {
				return false
			}
		}
	}
	return true
}

// dotOK returns r·x over r's columns and whether it did not overflow.
func dotOK(r, x []int64) (int64, bool) {
	var s int64
	for c, a := range r {
		if a == 0 {
			continue
		}
		p, ok := mulOK(a, x[c])
		if !ok {
			return 0, false
		}
		if s, ok = addOK(s, p); !ok {
			return 0, false
		}
	}
	return s, true
}

// colBounds are the constant bounds that a set's one-variable
// constraints put on its columns (see box); an implication test uses
// them twice.
type colBounds struct {
	lo, hi       []int64
	hasLo, hasHi []bool
}

func (b *bset) colBounds() *colBounds {
	lo, hi, hasLo, hasHi := b.box()
	return &colBounds{lo, hi, hasLo, hasHi}
}

// imply reports whether row >= 0 follows from the bounds: where it does
// (a tile's 16*io + ii >= 0 next to io >= 0 and ii >= 0), no
// Fourier–Motzkin run is needed to prove it.
func (cb *colBounds) imply(row []int64) bool {
	lo, hi, hasLo, hasHi := cb.lo, cb.hi, cb.hasLo, cb.hasHi
	m := row[0]
	for c := 1; c < len(row); c++ {
		k := row[c]
		var v int64
		switch {
		case k == 0:
			continue
		case k > 0 && hasLo[c]:
			v = lo[c]
		case k < 0 && hasHi[c]:
			v = hi[c]
		default:
			return false
		}
		p, ok := mulOK(k, v)
		if !ok {
			return false
		}
		if m, ok = addOK(m, p); !ok {
			return false
		}
	}
	return m >= 0
}
