package polyhedra

import (
	"math/big"
	"slices"
)

// coalesce merges pieces with equal polynomials whose domains unite into
// one basic set. A piece with a few points whose values another piece's
// polynomial also gives takes that polynomial first (n = 1 with value 1
// next to n(n+1)(n+2)/6 for n >= 2).
func coalesce(ps []*bset) []*bset {
	keys := make([]string, len(ps))
	// points[i] is found when first needed (it takes an FM run per
	// parameter); nil: more than maxAdoptPoints.
	points := make([]*piecePoints, len(ps))
	found := make([]bool, len(ps))
	pointsOf := func(i int) *piecePoints {
		if !found[i] {
			points[i], found[i] = ps[i].pointValues(), true
		}
		return points[i]
	}
	for i, p := range ps {
		keys[i] = polyKey(p, p.poly)
	}
	for i := 0; i < len(ps); i++ {
		for j := 0; j < len(ps); j++ {
			if i == j {
				continue
			}
			a := ps[i]
			if keys[i] != keys[j] {
				pp := pointsOf(i)
				if pp == nil {
					continue
				}
				if a = adopt(ps[i], ps[j], pp); a == nil {
					continue
				}
			}
			u := unite(a, ps[j])
			if u == nil {
				u = unite(ps[j], a)
			}
			if u == nil {
				continue
			}
			// u has ps[j]'s polynomial; drop ps[i] and start over
			ps[j] = u
			found[j] = false
			ps = slices.Delete(ps, i, i+1)
			keys = slices.Delete(keys, i, i+1)
			points = slices.Delete(points, i, i+1)
			found = slices.Delete(found, i, i+1)
			i, j = -1, len(ps)
		}
	}
	return uniteGroups(ps)
}

// maxUniteRest bounds the parts of C minus a group that uniteGroups
// checks.
const maxUniteRest = 32

// maxAdoptProofs bounds the adoptions uniteGroups tries to prove: each
// costs as much as simplifying a piece, and a function of 16 pieces has
// 240 pairs (random1 of BenchmarkCardCorpus took 0.45 s to print with
// no bound, 0.2 s before uniteGroups).
const maxAdoptProofs = 16

// uniteGroups merges, for each polynomial, the pieces that have it or
// whose values it gives (see adopt, adoptSymbolic) into one piece when
// their union is a basic set: coalesce unites two pieces at a time, and
// the union of three can be basic where no two of them unite (a
// quasi-polynomial's domain split by n <= floor(n/2) + floor(m/2) and
// lines between the halves). ps are disjoint.
func uniteGroups(ps []*bset) []*bset {
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = polyKey(p, p.poly)
	}
	// Adopting costs a proof; the pieces a merge leaves are asked again.
	adopted := map[[2]*bset]*bset{}
	proofs := 0
	for i := 0; i < len(ps); i++ {
		group := []*bset{ps[i]}
		idx := []int{i}
		for j, q := range ps {
			if j == i {
				continue
			}
			if keys[j] == keys[i] {
				group, idx = append(group, q), append(idx, j)
				continue
			}
			a, ok := adopted[[2]*bset{q, ps[i]}]
			if !ok {
				if pp := q.pointValues(); pp != nil {
					a = adopt(q, ps[i], pp)
				} else if proofs < maxAdoptProofs {
					proofs++
					a = adoptSymbolic(q, ps[i])
				}
				adopted[[2]*bset{q, ps[i]}] = a
			}
			if a != nil {
				group, idx = append(group, a), append(idx, j)
			}
		}
		if len(group) < 2 {
			continue
		}
		var others []*bset
		for j, q := range ps {
			if !slices.Contains(idx, j) {
				others = append(others, q)
			}
		}
		c := uniteAll(group, others)
		if c == nil {
			continue
		}
		ps = append(others, c)
		keys = keys[:0]
		for _, p := range ps {
			keys = append(keys, polyKey(p, p.poly))
		}
		i = -1
	}
	return ps
}

// uniteAll returns a basic set C with the polynomial of group[0] (which
// every piece of group has) such that every piece of group lies in C,
// the polynomial vanishes on the points of C outside them, and C meets
// none of others; or nil. C's constraints are those of the pieces that
// every piece implies.
func uniteAll(group, others []*bset) *bset {
	base := group[0].clone()
	base.eqs, base.ineqs = nil, nil
	for _, p := range group[1:] {
		base.importCols(p)
	}
	over := make([]*bset, len(group))
	var cands [][]int64
	for i, p := range group {
		q := base.clone()
		q.meetInto(p)
		if q.width() != base.width() {
			return nil
		}
		over[i] = q
		for _, r := range q.eqs {
			cands = append(cands, r, negRow(r))
		}
		cands = append(cands, q.ineqs...)
	}
	c := base.clone()
	c.poly = translatePoly(c.importCols(group[0]), group[0].poly)
	seen := newRowIndex()
	defer seen.release()
	for _, r := range cands {
		if seen.find(r, 1) >= 0 {
			continue
		}
		seen.add(r)
		all := true
		for _, q := range over {
			if all = q.implies(r); !all {
				break
			}
		}
		if all {
			c.addIneq(copyRow(r))
		}
	}
	if !c.normalize() {
		return nil
	}
	for _, o := range others {
		if x, _ := meet(c, o); x.normalize() && !x.provablyEmpty() {
			return nil
		}
	}
	rest := []*bset{c.clone()}
	for _, q := range over {
		var next []*bset
		for _, r := range rest {
			next = append(next, subtractBset(r, q)...)
		}
		if rest = next; len(rest) > maxUniteRest {
			return nil
		}
	}
	for _, r := range rest {
		r.poly = translatePoly(r.importCols(c), c.poly)
		if r.simplifyPiece() {
			return nil // possibly a point outside the group with a value
		}
	}
	c.dropRedundant()
	return c
}

// maxAdoptPoints bounds the points of a piece that adopt checks.
const maxAdoptPoints = 8

// piecePoints are the parameter points of a piece with few of them and
// the piece's values there.
type piecePoints struct {
	pts  [][]int64
	vals []*big.Rat
}

// pointValues returns p's points and values, or nil when it has more
// than maxAdoptPoints points or a value overflows.
func (p *bset) pointValues() *piecePoints {
	pts, ok := p.paramPoints(maxAdoptPoints)
	if !ok {
		return nil
	}
	pp := &piecePoints{pts: pts}
	for _, pt := range pts {
		v, ok := evalPiece(p, pt)
		if !ok {
			return nil
		}
		pp.vals = append(pp.vals, v)
	}
	return pp
}

// adopt returns a with b's polynomial when b's polynomial gives a's
// values at each of a's points, else nil.
func adopt(a, b *bset, pp *piecePoints) *bset {
	for k, pt := range pp.pts {
		vb, _, ok := polyAt(b, pt)
		if !ok || pp.vals[k].Cmp(vb) != 0 {
			return nil
		}
	}
	c := a.clone()
	c.poly = translatePoly(c.importCols(b), b.poly)
	return c
}

// adoptGrid are the values of each parameter at which adoptSymbolic
// compares two polynomials before it tries to prove them equal.
// It stops after maxAdoptProbes points of the domain.
var adoptGrid = []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 23}

const maxAdoptProbes = 16

// adoptSymbolic returns a with b's polynomial when the difference of
// the two simplifies to zero on a's domain, else nil. On a line such as
// m = n - 1, floor((n + m)/2) is n - 1, and the polynomials of a thin
// piece and of its neighbour often agree there although they differ as
// written.
func adoptSymbolic(a, b *bset) *bset {
	// Proving the difference zero splits it into residue classes; most
	// polynomials that differ already differ at a point of a small grid.
	if a.np <= 3 {
		pt := make([]int64, a.np)
		inside := 0
		var differs func(k int) bool
		differs = func(k int) bool {
			if inside == maxAdoptProbes {
				return false
			}
			if k == len(pt) {
				var in bool
				if !tryNoOverflow(func() { _, in = a.contains(pt) }) || !in {
					return false
				}
				inside++
				va, _, ok := polyAt(a, pt)
				vb, _, okb := polyAt(b, pt)
				return ok && okb && va.Cmp(vb) != 0
			}
			for _, v := range adoptGrid {
				if pt[k] = v; differs(k + 1) {
					return true
				}
			}
			return false
		}
		if differs(0) {
			return nil
		}
	}
	c := a.clone()
	bp := translatePoly(c.importCols(b), b.poly)
	c.poly = bp.sub(c.poly)
	if !c.vanishes() {
		return nil
	}
	c = a.clone()
	c.poly = translatePoly(c.importCols(b), b.poly)
	return c
}

// vanishes reports whether the poly simplifies to zero on the domain,
// or the domain to nothing: simplifyPiece without its FM runs, which
// only drop constraints and prove emptiness.
func (p *bset) vanishes() bool {
	if !p.normalize() || p.poly.isZero() {
		return true
	}
	p.applyEqualities()
	p.fixDivs()
	for c := 1; c <= p.np; c++ {
		if !p.collapse(c) {
			return true
		}
	}
	return !p.normalize() || p.poly.isZero()
}

// paramPoints lists the parameter points of a dimensionless bset if there
// are at most limit.
func (p *bset) paramPoints(limit int) ([][]int64, bool) {
	size := int64(1)
	for c := 1; c <= p.np; c++ {
		lo, hi, hasLo, hasHi, empty := p.ratRange(c)
		if empty {
			return nil, true
		}
		if !hasLo || !hasHi || hi-lo >= int64(limit) {
			return nil, false
		}
		if size *= hi - lo + 1; size > 64*int64(limit) {
			return nil, false
		}
	}
	b := p.clone()
	b.poly = nil
	m := b.identityMap()
	b.remap(0, b.np, m) // parameters become dimensions
	var pts [][]int64
	e := &enumerator{b: b, point: make([]int64, b.nd), dims: paramNames(b.nd), visit: func(pt []int64) bool {
		pts = append(pts, slices.Clone(pt))
		return len(pts) <= limit
	}}
	if _, err := e.start(); err != nil || len(pts) > limit {
		return nil, false
	}
	return pts, true
}

// evalPiece evaluates a piece's polynomial at a parameter point inside
// its domain; ok is false outside it or on overflow.
func evalPiece(p *bset, params []int64) (v *big.Rat, ok bool) {
	v, in, ok := polyAt(p, params)
	return v, ok && in
}

// unite returns a basic set C with C = a ∪ b, or nil. It looks for a
// constraint c of a such that a = C ∧ c, b ⊆ C and C ∧ ¬c ⊆ b, where C is
// a without c; an equality of a counts as two inequalities. The result
// keeps a's poly.
func unite(a, b *bset) *bset {
	base := a.clone()
	m := base.importCols(b)
	var bEqs, bIneqs [][]int64
	for _, r := range b.eqs {
		bEqs = append(bEqs, base.translate(m, r))
	}
	for _, r := range b.ineqs {
		bIneqs = append(bIneqs, base.translate(m, r))
	}
	type cons struct {
		row []int64
		eq  int // index of the equality it halves, or -1
	}
	var cs []cons
	for i, r := range base.eqs {
		cs = append(cs, cons{r, i}, cons{negRow(r), i})
	}
	for _, r := range base.ineqs {
		cs = append(cs, cons{r, -1})
	}
	bSet := base.clone()
	bSet.eqs, bSet.ineqs = fitRows(bSet, bEqs), fitRows(bSet, bIneqs)
	for ci, c := range cs {
		C := base.clone()
		C.eqs, C.ineqs = nil, nil
		for _, r := range base.eqs {
			C.eqs = append(C.eqs, copyRow(r))
		}
		if c.eq >= 0 {
			C.eqs = slices.Delete(C.eqs, c.eq, c.eq+1)
			C.ineqs = append(C.ineqs, copyRow(cs[ci^1].row))
		}
		for _, r := range base.ineqs {
			if c.eq >= 0 || !equalRows(r, c.row) {
				C.ineqs = append(C.ineqs, copyRow(r))
			}
		}
		if !subsetOf(bSet, C) {
			continue
		}
		notC := C.clone()
		n := negRow(c.row)
		n[0] = sub64(n[0], 1)
		notC.addIneq(n)
		if !subsetOf(notC, bSet) {
			continue
		}
		if !C.normalize() {
			return nil
		}
		return C
	}
	return nil
}

func fitRows(b *bset, rows [][]int64) [][]int64 {
	out := make([][]int64, len(rows))
	for i, r := range rows {
		out[i] = b.fit(copyRow(r))
	}
	return out
}

// subsetOf reports whether FM proves x ⊆ y for bsets over the same columns.
func subsetOf(x, y *bset) bool {
	for _, r := range y.eqs {
		if !x.impliesEq(r) {
			return false
		}
	}
	for _, r := range y.ineqs {
		if !x.implies(r) {
			return false
		}
	}
	return true
}
