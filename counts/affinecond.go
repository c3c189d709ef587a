package counts

// A condition whose comparisons compare integer expressions that are
// affine in inames and parameters (with floor divisions and remainders by
// positive constants) is a set: the symbolic counts intersect the domain
// with it. Any other condition (one that reads an array or a temporary,
// compares floating-point values or multiplies two inames) is not.

// affineCond returns the set where condition c holds, in disjunctive
// normal form, or false when c is not affine or its form would exceed
// maxDisjuncts.
func affineCond(c Expr) (dnf, bool) {
	switch c := c.(type) {
	case *Compare:
		if d, ok := ratCompare(c); ok {
			return compareSet(c.Op, d)
		}
		x, ok1 := affineValue(c.X)
		y, ok2 := affineValue(c.Y)
		if !ok1 || !ok2 {
			return nil, false
		}
		d, err := x.addScaled(y, -1) // x - y
		if err != nil {
			return nil, false
		}
		return compareSet(c.Op, d)
	case *Not:
		d, ok := affineCond(c.X)
		if !ok {
			return nil, false
		}
		return d.not()
	case *Logic:
		x, ok1 := affineCond(c.X)
		y, ok2 := affineCond(c.Y)
		if !ok1 || !ok2 {
			return nil, false
		}
		if c.Or {
			r := append(append(dnf{}, x...), y...)
			return r, len(r) <= maxDisjuncts
		}
		if len(x)*len(y) > maxDisjuncts {
			return nil, false
		}
		return x.and(y), true
	}
	return nil, false
}

// compareSet is the set where d (the difference of the compared values)
// relates to 0 by op.
func compareSet(op CmpOp, d qaff) (dnf, bool) {
	minus := func(e qaff, k int64) (qaff, bool) { // -e + k
		r, err := e.scale(-1)
		if err == nil {
			r, err = r.addScaled(qconst(k), 1)
		}
		return r, err == nil
	}
	plus := func(e qaff, k int64) (qaff, bool) {
		r, err := e.addScaled(qconst(k), 1)
		return r, err == nil
	}
	var a, b qaff
	ok1, ok2 := true, true
	switch op {
	case CmpLT: // -d - 1 >= 0
		a, ok1 = minus(d, -1)
		return dnf{conj{{a, false}}}, ok1
	case CmpLE:
		a, ok1 = minus(d, 0)
		return dnf{conj{{a, false}}}, ok1
	case CmpGT:
		a, ok1 = plus(d, -1)
		return dnf{conj{{a, false}}}, ok1
	case CmpGE:
		return dnf{conj{{d, false}}}, true
	case CmpEQ:
		return dnf{conj{{d, true}}}, true
	}
	a, ok1 = plus(d, -1)
	b, ok2 = minus(d, -1)
	return dnf{conj{{a, false}}, conj{{b, false}}}, ok1 && ok2
}

// not returns the complement of d, or false when its form would exceed
// maxDisjuncts.
func (d dnf) not() (dnf, bool) {
	r := dnf{conj{}}
	for _, c := range d {
		var alt dnf // the complement of the conjunction c
		for _, x := range c {
			op := CmpLT // not (e >= 0)
			if x.eq {
				op = CmpNE
			}
			n, ok := compareSet(op, x.e)
			if !ok {
				return nil, false
			}
			alt = append(alt, n...)
		}
		if len(r)*len(alt) > maxDisjuncts {
			return nil, false
		}
		r = r.and(alt)
	}
	return r, true
}
