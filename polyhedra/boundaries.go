package polyhedra

// settleBoundaries alternates dropZeroBoundaries and simplifyPiece: a
// moved boundary can pin a div (floor(n/256) = 0 once n >= 0 is known),
// and the simpler polynomial can vanish on a further slab. It reports
// whether the piece may still have points.
func (p *bset) settleBoundaries() bool {
	for range 3 {
		nonEmpty, moved := p.dropZeroBoundaries()
		if !nonEmpty {
			return false
		}
		if !moved {
			return true
		}
		if !p.simplifyPiece() {
			return false
		}
	}
	return true
}

// maxBoundaryShift bounds how far dropZeroBoundaries moves a constraint.
const maxBoundaryShift = 1 << 12

// dropZeroBoundaries moves a constraint e >= 0 of the domain to e >= w
// when the polynomial vanishes on the slab 0 <= e < w: those points add
// nothing, and the domain reads as a user expects (a triangle's count
// n(n+1)/2 for n >= 1 rather than n >= -1, which the summation's U >= L-1
// chambers produce; 256*floor((255 + n)/256) for n >= 1). The widest slab
// is found by doubling and bisection. It reports whether the domain may
// still have points and whether a boundary moved.
func (p *bset) dropZeroBoundaries() (nonEmpty, moved bool) {
	for i := range p.ineqs {
		if !p.zeroOnSlab(i, 1) {
			continue
		}
		lo, hi := int64(1), int64(2) // zero on width lo; hi untested
		for hi <= maxBoundaryShift && p.zeroOnSlab(i, hi) {
			lo, hi = hi, 2*hi
		}
		hi = min(hi, maxBoundaryShift+1)
		for hi-lo > 1 {
			if mid := lo + (hi-lo)/2; p.zeroOnSlab(i, mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		p.ineqs[i][0] = sub64(p.ineqs[i][0], lo)
		moved = true
	}
	return p.normalize() && !p.provablyEmpty(), moved
}

// zeroOnSlab reports whether the poly vanishes where the domain holds and
// 0 <= e_i < w: for narrow slabs one hyperplane e_i = k at a time, for
// wide ones at once, with the divs the slab fixes replaced by their
// values.
func (p *bset) zeroOnSlab(i int, w int64) bool {
	if w <= 8 {
		for k := int64(0); k < w; k++ {
			if !p.zeroOnLayer(i, k, 1) {
				return false
			}
		}
		return true
	}
	return p.zeroOnLayer(i, 0, w)
}

// zeroOnLayer is zeroOnSlab on k <= e_i < k + w.
func (p *bset) zeroOnLayer(i int, k, w int64) bool {
	if p.nonZeroOnLayer(i, k) {
		return false
	}
	return p.zeroOnLayerSymbolic(i, k, w)
}

// zeroOnLayerSymbolic is zeroOnLayer without nonZeroOnLayer's points.
func (p *bset) zeroOnLayerSymbolic(i int, k, w int64) bool {
	q := p.clone()
	q.ineqs[i][0] = sub64(q.ineqs[i][0], k)
	r := negRow(q.ineqs[i])
	r[0] = add64(r[0], w-1)
	q.addIneq(r)
	if !q.normalize() {
		return true
	}
	q.applyEqualities()
	q.fixDivs()
	return !q.normalize() || q.poly.isZero()
}

// maxLayerProbes bounds the points nonZeroOnLayer tries.
const maxLayerProbes = 64

// nonZeroOnLayer reports whether a point of p's domain with e_i = k has
// a value other than 0, which shows that zeroOnLayer's symbolic test
// would fail there: its steps keep the value at every point of the
// domain, and an empty domain has no point. The points take the other
// parameters from classGrid and solve e_i = k for a parameter with
// coefficient ±1, where e_i has no div. Finding none proves nothing.
func (p *bset) nonZeroOnLayer(i int, k int64) bool {
	row := p.ineqs[i]
	if p.nd != 0 || p.np > 3 || !isZeroRow(row[p.firstDiv():]) {
		return false
	}
	c := 0
	for j := 1; j <= p.np; j++ {
		if row[j] == 1 || row[j] == -1 {
			c = j
			break
		}
	}
	if c == 0 {
		return false
	}
	cols := p.newRow()
	for n := range maxLayerProbes {
		cols[0] = 1
		for j := 1; j <= p.np; j++ {
			cols[j] = classGrid[(n+n/len(classGrid)*j+j-1)%len(classGrid)]
		}
		cols[c] = 0
		var found, in bool
		if !tryNoOverflow(func() {
			// row·cols + row[c]*x = k, with row[c] = ±1.
			cols[c] = mul64(row[c], sub64(k, dot(row, cols)))
			in = p.holds(cols)
			if in {
				v, _, ok := p.poly.evalInt64(cols)
				found = ok && v != 0
			}
		}) {
			continue
		}
		if found {
			return true
		}
	}
	return false
}
