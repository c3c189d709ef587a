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
		return affineLogic(c)
	}
	return nil, false
}

// affineLogic is affineCond of a chain of ands or of ors, taken operand by
// operand; a conjunction of single comparisons grows in place, so that a
// chain of n is linear in n, not quadratic (nested if blocks make such
// chains).
func affineLogic(c *Logic) (dnf, bool) {
	var r dnf
	for i, x := range logicOperands(c) {
		d, ok := affineCond(x)
		switch {
		case !ok:
			return nil, false
		case i == 0:
			r = d
		case c.Or:
			if r = append(r, d...); len(r) > maxDisjuncts {
				return nil, false
			}
		case len(r) == 1 && len(d) == 1:
			r[0] = append(r[0], d[0]...) // r is this call's own
		case len(r)*len(d) > maxDisjuncts:
			return nil, false
		default:
			r = r.and(d)
		}
	}
	return r, true
}

// logicOperands lists the operands of a chain of the same operator, X op
// Y op Z in either association, from left to right, without recursion.
func logicOperands(l *Logic) []Expr {
	var out []Expr
	stack := []Expr{l}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if m, ok := e.(*Logic); ok && m.Or == l.Or {
			stack = append(stack, m.Y, m.X)
			continue
		}
		out = append(out, e)
	}
	return out
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
