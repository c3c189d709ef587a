package polyhedra

// chamberDomain returns a copy of b (without x's bounds) restricted to
// where lower bound i is the largest and upper bound j the smallest and
// U >= L - slack, with L = ceil(-l_i/a_i) and U = floor(u_j/c_j) as rows
// of the copy. Faulhaber's S(U) - S(L-1) is the sum for U >= L - 1 (0 for
// U = L - 1), but not 0 for U < L - 1, so slack is 0 or 1.
//
// The chambers compare the rational bounds -l/a and u/c, which needs no
// divs: ceil and floor are monotone, so the largest rational lower bound
// has the largest ceiling. Ties go to the first bound, so the chambers
// partition b.
func (b *bset) chamberDomain(x int, lows, ups [][]int64, i, j int, slack int64) (c *bset, L, U []int64) {
	c = b.clone()
	rest := func(r []int64) []int64 {
		r = copyRow(r)
		r[x] = 0
		return r
	}
	ai, cj := lows[i][x], neg64(ups[j][x])
	li, uj := rest(lows[i]), rest(ups[j])
	for k, l := range lows {
		if k == i {
			continue
		}
		// -l_i/a_i >= -l_k/a_k  <=>  a_i*l_k - a_k*l_i >= 0 (> for k < i)
		row := c.newRow()
		addScaled(row, ai, rest(l))
		addScaled(row, neg64(l[x]), li)
		if k < i {
			row[0] = sub64(row[0], 1)
		}
		c.addIneq(row)
	}
	for k, u := range ups {
		if k == j {
			continue
		}
		// u_j/c_j <= u_k/c_k  <=>  c_j*u_k - c_k*u_j >= 0 (> for k < j)
		row := c.newRow()
		addScaled(row, cj, rest(u))
		addScaled(row, u[x], uj)
		if k < j {
			row[0] = sub64(row[0], 1)
		}
		c.addIneq(row)
	}
	if ai == 1 {
		L = negRow(li)
	} else {
		L = negRow(c.floorExpr(li, ai))
	}
	if cj == 1 {
		U = uj
	} else {
		U = c.floorExpr(uj, cj)
	}
	L, U = c.fit(L), c.fit(U)
	nonEmpty := copyRow(U)
	addScaled(nonEmpty, -1, L)
	nonEmpty[0] = add64(nonEmpty[0], slack)
	c.addIneq(nonEmpty)
	return c, L, U
}
