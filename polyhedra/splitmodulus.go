package polyhedra

// splitModulus returns M such that x := M*x' + r makes every div that
// depends on x directly affine in x', or 1 when no div depends on x.
func (b *bset) splitModulus(x int) int64 {
	m := int64(1)
	for _, d := range b.divs {
		if c := d.num[x]; c != 0 {
			m = lcm64(m, d.den/gcd64(c, d.den))
		}
	}
	return m
}

// congruenceOf returns m and r when an equality says x = r (mod m).
func (b *bset) congruenceOf(x int) (m, r int64, ok bool) {
	for _, e := range b.eqs {
		if y, _, m, r, ok := b.congruence(e); ok && y == x {
			return m, r, true
		}
	}
	return 0, 0, false
}

// strideClass returns the one residue class of x modulo m (its
// splitModulus) that can hold points, where an equality says
// x = r (mod m): the other classes contradict it, and x = m*x' + r is a
// change of variable rather than a split.
func (b *bset) strideClass(x int, m int64) (r int64, ok bool) {
	if m <= 1 {
		return 0, false
	}
	if m0, r, ok := b.congruenceOf(x); ok && m0 == m {
		return floorMod(r, m), true
	}
	return 0, false
}
