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
