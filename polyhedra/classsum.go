package polyhedra

// Summing a variable's residue classes in shared chambers.
//
// A summand with divs of x (floor((2n + m - 3i)/5) after summing j over
// the wedge of issue 26) needs x split into residue classes x = M*x' + r.
// Split first, each class compares its own rounded bounds
// ceil((L - r)/M) and floor((U - r)/M), so the M classes cut the
// parameter space along M shifted copies of each chamber boundary
// (m <= n - 6 next to m >= n - 5), and the wedge counted in 22 pieces
// that could not be made disjoint. Chambers of x itself come first here:
// in each, x has one lower bound L and one upper bound U with
// U >= L - 1, and then every class has U' >= L' - 1 too
// (ceil((L - r)/M) - 1 <= floor((U - r)/M) for integers L <= U + 1), so
// Faulhaber's sum over each class is right on the whole chamber and the
// classes add up to one polynomial on one domain.

// classChamber is one chamber of sumClasses: the pieces of its sum, or,
// where normalising the chamber changed the shape the classes need, the
// chamber itself, unsummed, for eliminate to sum the usual way.
type classChamber struct {
	sum      []*bset
	unsummed *bset
}

// sumClasses sums b.poly over x, whose divs need the modulus m, chamber
// by chamber with the residue classes added up in each, and returns the
// chambers in order. It reports false, leaving b as it was, where x has
// no lower or no upper bound (eliminate tells empty from unbounded),
// where a constraint involves a div of x, an equality involves x or a
// div of x nests another: x's bounds must be plain for the chambers to
// be those of every class.
func (b *bset) sumClasses(x int, m int64) (out []classChamber, ok bool) {
	if !b.plainBounds(x) {
		return nil, false
	}
	lows, ups, rest := b.boundsOn(x)
	if len(lows) == 0 || len(ups) == 0 {
		return nil, false
	}
	b.ineqs = rest
	b.work.charge(len(lows) * len(ups) * int(m))
	for i := range lows {
		for j := range ups {
			// U = L - 1 stays in the chamber whatever the coefficients:
			// the wedge's count then prints in 3 pieces, in 4 without.
			// Copies: normalising c rewrites its rows in place, and the
			// bounds serve the other chambers too.
			c, _, _ := b.chamberDomain(x, lows, ups, i, j, 1)
			c.addIneq(copyRow(lows[i]))
			c.addIneq(copyRow(ups[j]))
			if !c.normalize() || c.provablyEmpty() {
				continue
			}
			if ps, ok := c.sumChamberClasses(x, m); ok {
				out = append(out, classChamber{sum: ps})
			} else {
				out = append(out, classChamber{unsummed: c})
			}
		}
	}
	return out, true
}

// plainBounds reports whether no constraint uses a div that depends on
// x, no equality uses x, and no div of x uses another div of x, so that
// substituting x = M*x' + r turns every div of x affine in x' and leaves
// the constraints without x as they are.
func (b *bset) plainBounds(x int) bool {
	ofX := make([]bool, b.width())
	ofX[x] = true
	for k, d := range b.divs {
		for c, v := range d.num {
			if v == 0 || !ofX[c] {
				continue
			}
			if c != x {
				return false
			}
			ofX[b.divCol(k)] = true
		}
	}
	for _, r := range b.eqs {
		if r[x] != 0 {
			return false
		}
	}
	for _, rows := range [][][]int64{b.eqs, b.ineqs} {
		for _, r := range rows {
			for c := b.firstDiv(); c < len(r); c++ {
				if r[c] != 0 && ofX[c] {
					return false
				}
			}
		}
	}
	return true
}

// sumChamberClasses sums c.poly over x, where c's only constraints on x
// are one lower and one upper bound that do not cross (the chamber's
// U >= L - 1 among the others), as one piece with the classes' sums
// added up. It reports false where normalising c changed that shape.
func (c *bset) sumChamberClasses(x int, m int64) ([]*bset, bool) {
	if !c.plainBounds(x) || !c.oneBoundEachWay(x) || m%c.splitModulus(x) != 0 {
		return nil, false
	}
	acc := c.clone()
	acc.ineqs = nil
	for _, r := range c.ineqs {
		if r[x] == 0 {
			acc.ineqs = append(acc.ineqs, r)
		}
	}
	acc.poly = &poly{}
	acc.dropUnusedDivs()
	acc.deleteCol(x)
	for r := int64(0); r < m; r++ {
		d := c.clone()
		e := d.unit(x, m)
		e[0] = r
		d.substitute(x, e)
		d.normalizeDivs()
		d.sumOneClass(x)
		cols := acc.importCols(d)
		acc.poly = acc.poly.add(translatePoly(cols, d.poly))
	}
	if !acc.normalize() || acc.poly.isZero() {
		return nil, true
	}
	return []*bset{acc}, true
}

// oneBoundEachWay reports whether x has exactly one lower and one upper
// bound.
func (b *bset) oneBoundEachWay(x int) bool {
	lower, upper := signCounts(b.ineqs, x)
	return lower == 1 && upper == 1
}

// sumOneClass replaces d.poly by its sum over x between x's two bounds,
// A*x + l >= 0 and -C*x + u >= 0, and drops the bounds and x. The divs
// of d must not depend on x.
func (d *bset) sumOneClass(x int) {
	var lo, hi []int64
	var rest [][]int64
	for _, r := range d.ineqs {
		switch {
		case r[x] > 0:
			lo = r
		case r[x] < 0:
			hi = r
		default:
			rest = append(rest, r)
		}
	}
	d.ineqs = rest
	a, c := lo[x], neg64(hi[x])
	lo, hi = copyRow(lo), copyRow(hi)
	lo[x], hi[x] = 0, 0
	L, U := negRow(lo), hi
	if a > 1 {
		L = negRow(d.floorExpr(lo, a))
	}
	if c > 1 {
		U = d.floorExpr(hi, c)
	}
	d.poly = d.poly.sumOver(x, polyFromRow(d.fit(L)), polyFromRow(d.fit(U)))
	d.deleteCol(x)
}
