package polyhedra

import "fmt"

// Gist returns a function equal to p wherever the parameters satisfy
// ctx, a set without dimensions (the assumptions of a kernel, say), with
// the inequalities that ctx and the rest of their domain imply dropped
// from p's domains and the pieces that cannot meet ctx dropped; outside
// ctx its values are unspecified. Compiled, it evaluates faster for
// parameters known to satisfy ctx. The implications are proved by
// Fourier–Motzkin elimination with integer tightening, which claims only
// what is true; a context of several basic sets is not used.
func (p *PwQPolynomial) Gist(ctx *Set) (g *PwQPolynomial, err error) {
	defer catch(&err, "gist")
	if len(ctx.dims) > 0 {
		return nil, fmt.Errorf("gist: the context %s has dimensions", ctx)
	}
	parts, err := ctx.alignedTo(p.params, nil)
	if err != nil {
		return nil, fmt.Errorf("gist: %w", err)
	}
	if len(parts) != 1 {
		return p, nil
	}
	g = &PwQPolynomial{params: p.params, disjoint: p.disjoint}
	for _, pc := range p.pieces {
		q, _ := meet(pc, parts[0])
		if q.provablyEmpty() {
			continue
		}
		// q's first inequalities are pc's. Most pieces repeat the
		// context's constraints, which a context row with the same
		// coefficients implies; the others take a test each, which
		// reads q through a shallow copy (implies changes no row).
		n := len(pc.ineqs)
		dropped := make([]bool, n)
		for i := range n {
			if weakerThanAny(q.ineqs[i], q.ineqs[n:]) {
				dropped[i] = true
				continue
			}
			t := *q
			t.poly = nil
			t.ineqs = nil
			for j, r := range q.ineqs {
				if j != i && (j >= n || !dropped[j]) {
					t.ineqs = append(t.ineqs, r)
				}
			}
			dropped[i] = t.implies(q.ineqs[i])
		}
		kept := pc.clone()
		rows := kept.ineqs
		kept.ineqs = nil
		for i, r := range rows {
			if !dropped[i] {
				kept.ineqs = append(kept.ineqs, r)
			}
		}
		kept.dropUnusedDivs()
		g.pieces = append(g.pieces, kept)
	}
	return g.present(), nil
}

// weakerThanAny reports whether one of rows has the coefficients of row
// and a constant no larger, so that it implies row >= 0.
func weakerThanAny(row []int64, rows [][]int64) bool {
	for _, r := range rows {
		if r[0] <= row[0] && equalRows(r[1:], row[1:]) {
			return true
		}
	}
	return false
}
