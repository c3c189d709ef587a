package polyhedra

import (
	"math"
	"math/big"
	"slices"
	"strings"
)

// Simplification of piecewise quasi-polynomials. Counting leaves many
// pieces with overlapping domains (the chambers of different dimensions
// project onto overlapping parameter regions), periodic terms that cancel
// (floor(n/2) + floor((n+1)/2) = n) and domains split by residue classes.
// Every step below keeps the value of the function at every parameter
// point; steps that would need an exact emptiness or implication test use
// Fourier–Motzkin with integer tightening, which only ever claims what is
// true, and skip the step when it proves nothing.

// maxCollapsePeriod bounds the residue classes tried per parameter.
const maxCollapsePeriod = 64

// maxCells bounds the disjoint cells disjointSum may create. Beyond it a
// function stays a sum of overlapping pieces: exact, only less readable.
const maxCells = 96

// simplifyPieces simplifies pieces whose values add up. It returns
// disjoint pieces when it can make them disjoint within maxCells, and
// otherwise the simplified overlapping pieces with disjoint = false.
// Pieces known to be disjoint (known) are taken as they are. A sum of
// more than maxCells overlapping pieces is only normalised: simplifying
// each of thousands of pieces takes longer than counting them did, for a
// function that stays unreadable anyway.
func simplifyPieces(pieces []*bset, known bool, work *budget) (out []*bset, disjoint bool) {
	var ps []*bset
	defer func() {
		for _, p := range out {
			p.work = nil
		}
	}()
	work.charge(len(pieces))
	for _, p := range pieces {
		p = p.clone()
		p.work = work
		if p.live() {
			ps = append(ps, p)
		}
	}
	disjoint = known || len(ps) <= 1 || pairwiseApart(ps)
	simplify := (*bset).simplifyLive
	if !disjoint {
		simplify = (*bset).simplifyPiece
		// Fewer constraints make fewer splits. A lone piece is spared
		// this: simplifyPiece drops its redundant constraints anyway.
		for _, p := range ps {
			p.dropRedundant()
		}
		ps = mergeEqualDomains(ps)
		var cells []*bset
		if cells, disjoint = disjointSum(ps); disjoint {
			ps = cells
		}
	}
	if !disjoint && len(ps) > maxCells {
		return ps, false
	}
	for _, p := range ps {
		if simplify(p) {
			out = append(out, p)
		}
	}
	return out, disjoint
}

// presentPieces readies simplified pieces for printing: polynomials
// whose floors have a larger period than they do are shortened
// (reducePeriod), pieces with equal polynomials whose domains unite are
// merged, boundaries on which the polynomial vanishes move inward, and
// the pieces are put in a canonical order. The values stay the same, so this is left until a
// function is printed: most counted functions are only evaluated, and
// this is the larger part of simplifying.
func presentPieces(ps []*bset, disjoint bool) []*bset {
	if !disjoint && len(ps) > maxCells {
		return sortPieces(slices.Clone(ps))
	}
	out := make([]*bset, len(ps))
	for i, p := range ps {
		out[i] = p.clone()
	}
	if disjoint {
		out = coalesce(out)
	}
	kept := out[:0]
	memo := newFloorMemo()
	for _, p := range out {
		p.collapseByValues()
		p.reducePeriod()
		p.sparseFloors(memo)
		if p.settleEqualities() && p.settleBoundaries() {
			p.plainRows()
			p.lowerFloorDegrees()
			kept = append(kept, p)
		}
	}
	out = kept
	if disjoint {
		out = coalesce(out)
	}
	return sortPieces(out)
}

// sortPieces puts pieces in a canonical order, for a stable printed form.
func sortPieces(ps []*bset) []*bset {
	type keyed struct {
		key string
		p   *bset
	}
	ks := make([]keyed, len(ps))
	for i, p := range ps {
		ks[i] = keyed{pieceKey(p), p}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	for i, k := range ks {
		ps[i] = k.p
	}
	return ps
}

func pieceKey(p *bset) string {
	nm := names{params: make([]string, p.np)}
	for i := range nm.params {
		nm.params[i] = string(rune('a' + i%26))
	}
	return nm.conjunction(p) + "|" + nm.polyString(p, p.poly)
}

// domainKey identifies a domain by its printed constraints.
func domainKey(p *bset) string {
	nm := names{params: make([]string, p.np)}
	for i := range nm.params {
		nm.params[i] = "p" + string(rune('0'+i%10))
	}
	return nm.conjunction(p)
}

// pairwiseApart reports whether every two pieces are disjoint by a
// constraint of each on the parameters alone that contradict each other
// (n <= 16 against n >= 17): the chambers of a count mostly are, and
// proving it so is far cheaper than disjointSum's refinement.
func pairwiseApart(ps []*bset) bool {
	hs := make([][][]int64, len(ps))
	for i, p := range ps {
		hs[i] = paramHalfSpaces(p)
		for _, h := range hs[:i] {
			if !apart(hs[i], h) {
				return false
			}
		}
	}
	return true
}

// apart reports whether two pieces, given by their paramHalfSpaces,
// have constraints a.x + c >= 0 and -a.x + d >= 0 with c + d < 0.
func apart(hp, hq [][]int64) bool {
	for _, r := range hp {
		for _, s := range hq {
			if opposite(r, s) {
				return true
			}
		}
	}
	return false
}

// paramHalfSpaces returns the inequalities of p, and both directions of
// its equalities, that involve only constants and parameters, cut to
// those columns.
func paramHalfSpaces(p *bset) [][]int64 {
	var out [][]int64
	w := p.firstDim()
	for _, r := range p.eqs {
		if isZeroRow(r[w:]) {
			out = append(out, r[:w], negRow(r[:w]))
		}
	}
	for _, r := range p.ineqs {
		if isZeroRow(r[w:]) {
			out = append(out, r[:w])
		}
	}
	return out
}

// opposite reports whether r >= 0 and s >= 0 cannot both hold: r + s
// is a constant below 0.
func opposite(r, s []int64) bool {
	for j := 1; j < len(r); j++ {
		if r[j] != -s[j] || r[j] == math.MinInt64 {
			return false
		}
	}
	c, ok := addOK(r[0], s[0])
	return ok && c < 0
}

// mergeEqualDomains adds up the polys of pieces with identical domains.
func mergeEqualDomains(ps []*bset) []*bset {
	var out []*bset
	idx := map[string]int{}
	for _, p := range ps {
		k := domainKey(p)
		if i, ok := idx[k]; ok {
			q := out[i]
			m := q.importCols(p)
			q.poly = q.poly.add(translatePoly(m, p.poly))
			continue
		}
		idx[k] = len(out)
		out = append(out, p)
	}
	return out
}

// disjointSum refines pieces whose domains may overlap into disjoint
// cells, each carrying the sum of the polys of the pieces containing it.
// All pieces are first written over one common list of divs; every
// constraint of every piece then splits the cells it cuts, but only cells
// that some still possible piece cares about, and a cell is dropped as
// soon as no piece can contain it. At the end each cell has decided every
// constraint of every piece, so the pieces containing it are known
// exactly.
func disjointSum(pieces []*bset) ([]*bset, bool) {
	if len(pieces) <= 1 {
		return pieces, true
	}
	if len(pieces) > maxCells {
		// Every piece's domain needs a cell of its own unless another
		// piece has the same domain, and mergeEqualDomains merged those:
		// more pieces than maxCells cannot end in fewer cells. Giving up
		// before the common divs are gathered keeps a large sum cheap.
		return nil, false
	}
	base := newBset(pieces[0].np, 0)
	base.work = pieces[0].work
	type member struct {
		split int
		pos   bool
	}
	var splits [][]int64
	splitIdx := newRowIndex()
	defer splitIdx.release()
	addSplit := func(r []int64) member {
		if k := splitIdx.find(r, 1); k >= 0 {
			return member{k, true}
		}
		n := negRow(r)
		n[0] = sub64(n[0], 1)
		if k := splitIdx.find(n, 1); k >= 0 {
			return member{k, false}
		}
		splitIdx.add(r)
		splits = append(splits, r)
		return member{len(splits) - 1, true}
	}
	polys := make([]*poly, len(pieces))
	needs := make([][]member, len(pieces))
	for i, p := range pieces {
		m := base.importCols(p)
		polys[i] = translatePoly(m, p.poly)
		var rows [][]int64
		for _, r := range p.eqs {
			r = base.translate(m, r)
			rows = append(rows, r, negRow(r))
		}
		for _, r := range p.ineqs {
			rows = append(rows, base.translate(m, r))
		}
		for _, r := range rows {
			needs[i] = append(needs[i], addSplit(tightRow(r)))
		}
	}
	w := base.width()
	for i := range splits {
		splits[i] = fitTo(splits[i], w)
	}
	for i := range polys {
		polys[i] = polys[i].clone()
	}
	type cell struct {
		b      *bset
		active []int // pieces not yet excluded
		sign   map[int]bool
		pts    []int // the samples in the cell
	}
	all := make([]int, len(pieces))
	for i := range all {
		all[i] = i
	}
	grid := coarseSampleValues
	if len(splits) >= minSampleSplits {
		grid = sampleValues
	}
	samples := base.samplePoints(grid, splits)
	allPts := make([]int, len(samples))
	for i := range allPts {
		allPts[i] = i
	}
	cells := []cell{{base.clone(), all, map[int]bool{}, allPts}}
	for s, row := range splits {
		var next []cell
		for _, c := range cells {
			relevant := false
			for _, i := range c.active {
				for _, m := range needs[i] {
					relevant = relevant || m.split == s
				}
			}
			if !relevant {
				next = append(next, c)
				continue
			}
			neg := negRow(row)
			neg[0] = sub64(neg[0], 1)
			// A sample on a side proves it non-empty, sparing the FM run
			// that would try to prove it empty.
			var pts [2][]int
			for _, k := range c.pts {
				if v, ok := dotOK(row, samples[k]); ok && v >= 0 {
					pts[0] = append(pts[0], k)
				} else if ok {
					pts[1] = append(pts[1], k)
				}
			}
			var signs []bool
			switch {
			case len(pts[0]) > 0 && len(pts[1]) > 0:
				signs = []bool{true, false}
			case len(pts[1]) == 0 && (c.b.parallelImplies(row) || c.b.implies(row)):
				signs = []bool{true}
			case len(pts[0]) == 0 && (c.b.parallelImplies(neg) || c.b.implies(neg)):
				signs = []bool{false}
			default:
				signs = []bool{true, false}
			}
			for _, sg := range signs {
				side := 0
				if !sg {
					side = 1
				}
				nc := cell{c.b, nil, map[int]bool{}, c.pts}
				for k, v := range c.sign {
					nc.sign[k] = v
				}
				nc.sign[s] = sg
				if len(signs) == 2 {
					base.work.charge(1)
					nc.b = c.b.cloneSharingDivs()
					nc.pts = pts[side]
					if sg {
						nc.b.addIneq(copyRow(row))
					} else {
						nc.b.addIneq(neg)
					}
					if !nc.b.normalizeConstraints() || len(nc.pts) == 0 && nc.b.provablyEmpty() {
						continue
					}
				}
				for _, i := range c.active {
					ok := true
					for _, m := range needs[i] {
						if m.split == s && m.pos != sg {
							ok = false
						}
					}
					if ok {
						nc.active = append(nc.active, i)
					}
				}
				if len(nc.active) > 0 {
					next = append(next, nc)
				}
			}
		}
		cells = next
		if len(cells) > maxCells {
			return nil, false
		}
	}
	var out []*bset
	for _, c := range cells {
		p := c.b.clone()
		p.poly = &poly{}
		for _, i := range c.active {
			p.poly = p.poly.add(polys[i])
		}
		out = append(out, p)
	}
	return out, true
}

// parallelImplies reports whether a constraint of b differs from row
// only by a smaller constant, so that it implies row >= 0: the cells of
// a sum of residue classes are cut by bounds a shift apart
// (2m >= n - 1, 2m >= n - 2, ...), and FM proves each such implication
// at the cost of a system of rows.
func (b *bset) parallelImplies(row []int64) bool {
	w := b.width()
	if len(row) > w && !isZeroRow(row[w:]) {
		return false
	}
	same := func(q []int64, sign int64) bool {
		for c := 1; c < w; c++ {
			var rv, qv int64
			if c < len(row) {
				rv = row[c]
			}
			if c < len(q) {
				qv = sign * q[c]
			}
			if rv != qv {
				return false
			}
		}
		return true
	}
	for _, q := range b.ineqs {
		if q[0] <= row[0] && same(q, 1) {
			return true
		}
	}
	for _, q := range b.eqs {
		if q[0] <= row[0] && same(q, 1) || -q[0] <= row[0] && same(q, -1) {
			return true
		}
	}
	return false
}

// minSampleSplits is the number of splits from which disjointSum places
// the full grid of sample points in its cells, and below which it places
// the coarse one: evaluating the divs of the full grid costs more than
// the FM runs of a few splits (min(n, m) has four).
const minSampleSplits = 16

// sampleValues are the values of each parameter at which samplePoints
// places points, by the number of parameters: dense near 0, where
// domains start, and sparser up to where differences such as
// m <= n - 6 and 2m >= n + 2 both hold.
var sampleValues = [][]int64{
	1: {-64, -40, -30, -24, -20, -16, -14, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 24, 28, 32, 40, 48, 64, 100},
	2: {-64, -40, -30, -24, -20, -16, -14, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 27, 30, 36, 44, 64},
	3: {-9, -5, -3, -2, -1, 0, 1, 2, 3, 5, 8, 13, 21},
}

// coarseSampleValues are sampleValues thinned for disjointSum's few
// splits: a point on each side of a split spares the FM runs that find
// that no side is empty, and a smaller grid is cheap enough to place
// for a handful of splits.
var coarseSampleValues = [][]int64{
	1: {-16, -4, -1, 0, 1, 2, 3, 4, 5, 7, 10, 16, 33, 64, 100},
	2: {-16, -1, 0, 1, 2, 3, 5, 8, 13, 21, 34, 64, 100},
	3: {-1, 0, 1, 3, 8, 21},
}

// samplePoints returns, for a set of parameters and divs of them, the
// parameter points of grid (by the number of parameters, as
// sampleValues) with the values of the divs that rows use; none for more
// parameters than grid has, or for dimensions. The other divs are left
// 0: the common divs of disjointSum's pieces are mostly their polys',
// and filling them was most of the cost of a point. Points whose divs
// overflow are left out.
func (b *bset) samplePoints(grid [][]int64, rows [][]int64) [][]int64 {
	if b.nd != 0 || b.np >= len(grid) || b.np == 0 {
		return nil
	}
	need := b.divsUsed(nil, rows)
	vals := grid[b.np]
	total := 1
	for range b.np {
		total *= len(vals)
	}
	// The points share one allocation: a grid of them was the largest
	// source of allocations in counting the library's sets.
	flat := make([]int64, 0, total*b.width())
	var out [][]int64
	x := b.newRow()
	var rec func(c int)
	rec = func(c int) {
		if c > b.np {
			if !b.fillDivsOf(x, need) {
				return
			}
			start := len(flat)
			flat = append(flat, x...)
			out = append(out, flat[start:len(flat):len(flat)])
			return
		}
		for _, v := range vals {
			x[c] = v
			rec(c + 1)
		}
	}
	x[0] = 1
	rec(1)
	return out
}

// tightRow returns a copy of the inequality r tightened by tightenIneq.
func tightRow(r []int64) []int64 {
	r = copyRow(r)
	tightenIneq(r)
	return r
}

func fitTo(r []int64, w int) []int64 {
	if len(r) < w {
		r = append(r, make([]int64, w-len(r))...)
	}
	return r
}

// simplifyPiece simplifies one piece in place; it returns false when the
// piece turned out empty or zero.
func (p *bset) simplifyPiece() bool {
	return p.live() && p.simplifyLive()
}

// live normalizes p and reports whether it may have points with a
// nonzero value.
func (p *bset) live() bool {
	return p.normalize() && !p.provablyEmpty() && !p.poly.isZero()
}

// simplifyLive is simplifyPiece for a piece that live has just kept.
func (p *bset) simplifyLive() bool {
	changed := p.applyEqualities()
	changed = p.fixDivs() || changed
	fixed := p.poly
	for c := 1; c <= p.np; c++ {
		if !p.collapse(c) {
			return false
		}
	}
	if p.poly != fixed {
		// Only a collapse that replaced the poly can leave it divs
		// that the first pass did not see.
		p.fixDivs()
		changed = true
	}
	if !p.dropRedundant() && !changed {
		// p is the piece that live kept.
		return true
	}
	return p.normalize() && !p.provablyEmpty() && !p.poly.isZero()
}

// applyEqualities uses each equality x = e (unit coefficient, e without
// divs) to replace x in every other row, div and the poly; the equality
// itself stays, so the domain is unchanged, and divs of x whose value the
// equality fixes become constants. It reports whether it substituted
// one.
func (p *bset) applyEqualities() (changed bool) {
	for i := 0; i < len(p.eqs); i++ {
		r := p.eqs[i]
		x := -1
		for c := 1; c < p.firstDiv(); c++ {
			if r[c] == 1 || r[c] == -1 {
				x = c
			}
		}
		if x < 0 || !isZeroRow(r[p.firstDiv():]) {
			continue
		}
		expr := copyRow(r)
		if r[x] == 1 {
			expr = negRow(expr)
		}
		expr[x] = 0
		p.eqs = slices.Delete(p.eqs, i, i+1)
		p.substitute(x, expr)
		p.eqs = slices.Insert(p.eqs, i, r)
		changed = true
		if !p.normalize() {
			return true
		}
	}
	return changed
}

// findEqualities adds the equalities the domain implies: an inequality
// e >= 0 that the domain also forces to e <= 0 becomes e = 0, and a
// parameter that FM pins to one value gets that value. Over the integers
// a domain is often thinner than its rational relaxation (m >= -13n,
// m >= 3n and m <= -5n + 6 hold only at n = 0), and an equality lets
// applyEqualities put the value into the polynomial, so that pieces that
// differ only away from their domains become equal and coalesce. It
// reports whether it found one.
func (p *bset) findEqualities() bool {
	found := p.tightenToEqualities()
	for c := 1; c <= p.np; c++ {
		if p.pinned(c) {
			continue
		}
		if lo, hi, hasLo, hasHi, _ := p.ratRange(c); hasLo && hasHi && lo == hi {
			e := p.unit(c, 1)
			e[0] = neg64(lo)
			p.addEq(e)
			found = true
		}
	}
	return found
}

// tightenToEqualities turns each inequality e >= 0 that the domain
// also forces to e <= 0 into e = 0 and reports whether there was one.
func (p *bset) tightenToEqualities() bool {
	loose := p.looseAtSimplePoints()
	found := false
	for i := 0; i < len(p.ineqs); i++ {
		if r := p.ineqs[i]; !loose[i] && p.implies(negRow(r)) {
			p.ineqs = slices.Delete(p.ineqs, i, i+1)
			loose = slices.Delete(loose, i, i+1)
			p.addEq(r)
			found = true
			i--
		}
	}
	return found
}

// looseAtSimplePoints reports for each inequality whether a simple point
// of p (eachSimplePoint) satisfies it strictly, which shows that p does
// not force it to equality. implies' own witnesses, with all dimensions
// equal, miss such points: without them a triangle paid an FM run per
// constraint.
func (p *bset) looseAtSimplePoints() []bool {
	loose := make([]bool, len(p.ineqs))
	left := len(p.ineqs)
	if left == 0 {
		return loose
	}
	p.eachSimplePoint(func(x []int64) bool {
		for i, r := range p.ineqs {
			if v, ok := dotOK(r, x); ok && v > 0 && !loose[i] {
				loose[i] = true
				left--
			}
		}
		return left == 0
	})
	return loose
}

// eachSimplePoint calls visit with each point of p, divs filled, among a
// few simple ones: large parameters and distinct dimensions in
// increasing or decreasing order (0 <= j <= i < n holds strictly at
// i = 2, j = 1), until visit returns true. visit may not keep x, which
// the next point overwrites.
func (p *bset) eachSimplePoint(visit func(x []int64) bool) {
	var buf [32]int64
	x := p.scratchRow(&buf)
	for _, pv := range [...]int64{17, 1000} {
		for _, pattern := range [...]func(k int) int64{
			func(k int) int64 { return int64(k + 1) },
			func(k int) int64 { return int64(p.nd + p.np - k) },
			func(k int) int64 { return 2 * int64(k+1) },
			func(k int) int64 { return 2 * int64(p.nd+p.np-k) },
		} {
			x[0] = 1
			for c := 1; c < p.firstDim(); c++ {
				x[c] = pv * pattern(c-1)
			}
			for c := p.firstDim(); c < p.firstDiv(); c++ {
				x[c] = pattern(c - 1)
			}
			if p.fillDivs(x) && p.satisfies(x, nil) && visit(x) {
				return
			}
		}
	}
}

// pinned reports whether an equality of p fixes column c alone.
func (p *bset) pinned(c int) bool {
	for _, r := range p.eqs {
		if r[c] != 0 && isZeroRow(r[1:c]) && isZeroRow(r[c+1:]) {
			return true
		}
	}
	return false
}

// settleEqualities alternates findEqualities and simplifyPiece until no
// equality is new: each substituted equality can narrow the others'
// ranges to a point. It reports whether the piece may still have points.
func (p *bset) settleEqualities() bool {
	for range p.np + 1 {
		if !p.findEqualities() {
			return true
		}
		if !p.simplifyPiece() {
			return false
		}
	}
	return true
}

// fixDivs replaces divs of the poly whose value the domain pins to a
// constant and reports whether there was one.
func (p *bset) fixDivs() (fixed bool) {
	var pts [][]int64
	for k := len(p.divs) - 1; k >= 0; k-- {
		col := p.divCol(k)
		if !p.poly.usesCol(col) {
			continue
		}
		// Two points of the domain where the div differs show that it is
		// not pinned, for less than the FM run of ratRange.
		if pts == nil {
			p.eachSimplePoint(func(x []int64) bool {
				pts = append(pts, copyRow(x))
				return false
			})
		}
		if varies(pts, col) {
			continue
		}
		lo, hi, hasLo, hasHi, _ := p.ratRange(col)
		if hasLo && hasHi && lo == hi {
			// Keep floor(num/den) = lo as den*lo <= num <= den*lo + den - 1.
			d := p.divs[k]
			l := copyRow(d.num)
			l[0] = sub64(l[0], mul64(d.den, lo))
			h := negRow(d.num)
			h[0] = add64(h[0], add64(mul64(d.den, lo), d.den-1))
			p.addIneq(l)
			p.addIneq(h)
			p.substitute(col, p.unit(0, lo))
			p.normalize()
			k, pts = len(p.divs), nil
			fixed = true
		}
	}
	return fixed
}

// varies reports whether column col takes two values among pts.
func varies(pts [][]int64, col int) bool {
	for _, x := range pts[min(1, len(pts)):] {
		if x[col] != pts[0][col] {
			return true
		}
	}
	return false
}

// dropRedundant removes inequalities implied by the others and reports
// whether there was one. The test reads the others through a shallow
// copy of p: implies changes no row.
func (p *bset) dropRedundant() (dropped bool) {
	sole := p.soleBounds()
	for i := 0; i < len(p.ineqs); i++ {
		r := p.ineqs[i]
		if sole.holds(r) {
			continue
		}
		q := *p
		q.poly = nil
		q.ineqs = slices.Delete(slices.Clone(p.ineqs), i, i+1)
		if q.implies(r) {
			p.ineqs = slices.Delete(p.ineqs, i, i+1)
			sole.drop(r)
			i--
			dropped = true
		}
	}
	return dropped
}

// soleBounds counts, for each column that can move freely (a parameter
// or dimension that no equality and no div refers to), the inequalities
// that bound it from below and from above. An inequality that is the
// only lower (or upper) bound of such a column is not implied by the
// others: from a point of the others, moving that column down (up)
// keeps them all and breaks it. The parameters of a count (n >= 1 and
// m >= 1) are mostly such bounds, and each spared an implication test.
type soleBounds struct{ lower, upper []int }

func (p *bset) soleBounds() soleBounds {
	free := make([]bool, p.firstDiv())
	for c := 1; c < len(free); c++ {
		free[c] = true
	}
	for _, rows := range [][][]int64{p.eqs, p.divNums()} {
		for _, r := range rows {
			for c := 1; c < len(free); c++ {
				free[c] = free[c] && r[c] == 0
			}
		}
	}
	sb := soleBounds{make([]int, len(free)), make([]int, len(free))}
	for c := range free {
		if !free[c] {
			sb.lower[c], sb.upper[c] = -1, -1
		}
	}
	for _, r := range p.ineqs {
		sb.count(r, 1)
	}
	return sb
}

// count adds delta to the bounds that r places on the free columns.
func (sb soleBounds) count(r []int64, delta int) {
	for c := 1; c < len(sb.lower) && c < len(r); c++ {
		switch {
		case sb.lower[c] < 0:
		case r[c] > 0:
			sb.lower[c] += delta
		case r[c] < 0:
			sb.upper[c] += delta
		}
	}
}

// drop forgets the bounds of a dropped inequality.
func (sb soleBounds) drop(r []int64) { sb.count(r, -1) }

// holds reports whether r is the only lower or upper bound of a free
// column, and so not implied by the other inequalities.
func (sb soleBounds) holds(r []int64) bool {
	for c := 1; c < len(sb.lower) && c < len(r); c++ {
		if sb.lower[c] >= 0 && (r[c] > 0 && sb.lower[c] == 1 || r[c] < 0 && sb.upper[c] == 1) {
			return true
		}
	}
	return false
}

// collapse removes the periodicity of the poly in parameter column c when
// every residue class of c modulo the period gives the same polynomial.
// With n = M*k + r, each class's poly is a polynomial in k, which is
// rewritten in n through k = (n - r)/M; if all classes agree, that one
// polynomial is the value everywhere on the domain. It returns false when
// every residue class is empty (the piece is empty).
func (p *bset) collapse(c int) bool {
	usesDiv := false
	for k := range p.divs {
		usesDiv = usesDiv || p.poly.usesCol(p.divCol(k))
	}
	m := p.splitModulus(c)
	if !usesDiv || m == 1 || m > maxCollapsePeriod {
		return true
	}
	if p.classesDiffer(c, m) {
		return true
	}
	return p.collapseClasses(c, m)
}

// collapseClasses is collapse's symbolic comparison of the residue
// classes of column c modulo m.
func (p *bset) collapseClasses(c int, m int64) bool {
	var key string
	var found *bset
	var foundPoly *poly
	for r := int64(0); r < m; r++ {
		if p.classEmpty(c, m, r) {
			continue
		}
		q := p.clone()
		e := q.unit(c, m)
		e[0] = r
		q.substitute(c, e)
		if !q.normalize() || q.provablyEmpty() {
			continue
		}
		if q.splitModulus(c) != 1 {
			return true
		}
		back := polyVar(c).add(polyInt(-r)).scale(big.NewRat(1, m))
		qp := q.poly.substitute(c, back)
		k := polyKey(q, qp)
		switch {
		case found == nil:
			key, found, foundPoly = k, q, qp
		case k != key:
			return true
		}
	}
	if found == nil {
		return false
	}
	mp := p.importCols(found)
	p.poly = translatePoly(mp, foundPoly)
	p.normalize()
	return true
}

// classEmpty reports whether the residue class c = r (mod m) of p's
// domain is provably empty, decided on the domain alone: substituting
// c = m*k + r into a poly with many divs and terms, as collapseClasses
// does for every class, costs far more than the constraints (the wedge
// of issue 26 has 14 empty classes of 15 in a piece of 47 terms). The
// proof runs outside p's work limits, so that it spends none of them.
func (p *bset) classEmpty(c int, m, r int64) bool {
	q := p.clone()
	q.poly, q.work = nil, nil
	e := q.unit(c, m)
	e[0] = r
	q.substitute(c, e)
	return !q.normalize() || q.provablyEmpty()
}

// classGrid are the values of each parameter at which classesDiffer
// looks for points of a domain, maxClassProbes bounds the grid points
// it tries, maxClassBases the points of the domain from which it found
// D + 2 consecutive ones and maxClassTries all points of the domain it
// starts from. Counting only full runs as bases lets a thin domain's
// short runs pass (the wedge's chamber 2m <= n has 3 points in m at
// n = 5): the classes times terms that collapse substituted while
// counting the wedge fell from 768 to 63.
var classGrid = []int64{16, 23, 9, 5, 2, 0, 1, 3, 4, 6, 7, 8, 11, 13, -1, -4, -9}

const (
	maxClassProbes = 256
	maxClassBases  = 4
	maxClassTries  = 16
)

// classesDiffer reports whether points of p's domain show that the
// residue classes of column c modulo its period do not all have the same
// polynomial, so that collapse(c) would find so too, without its
// symbolic substitutions. On a class n = m*k + r the poly is, at fixed
// other parameters, a polynomial in n of degree at most the poly's
// degree D (each div of n is affine in k there): the one collapse
// compares. If all classes had the same polynomial, the values at D + 2
// consecutive n of the domain would lie on it, and their (D+1)-th
// difference would be 0; a point of each class is among them, so no
// class is empty. A difference other than 0 thus proves that collapse
// keeps the poly; 0 proves nothing, and collapse goes on symbolically.
// Only speed depends on it. The values are exact: evalInt64 gives them
// over one denominator, and an overflow ends the search.
func (p *bset) classesDiffer(c int, m int64) bool {
	if p.nd != 0 || p.np > 3 {
		return false
	}
	deg := p.poly.degree()
	cols := p.newRow()
	vals := make([]int64, deg+1+int(m))
	// inside evaluates the poly at cols with column c set to n, if that
	// is a point of the domain.
	inside := func(n int64) (v int64, in, ok bool) {
		cols[c] = n
		ok = tryNoOverflow(func() { in = p.holds(cols) })
		if !ok || !in {
			return 0, false, ok
		}
		v, _, ok = p.poly.evalInt64(cols)
		return v, true, ok
	}
	bases, tried := 0, 0
	for i := range maxClassProbes {
		cols[0] = 1
		for k := 1; k <= p.np; k++ {
			cols[k] = classGrid[(i+i/len(classGrid)*k+k-1)%len(classGrid)]
		}
		n0 := cols[c]
		if _, in, ok := inside(n0); !ok {
			return false
		} else if !in {
			continue
		}
		// The run of consecutive points of the domain from lo, at most
		// D + 1 below n0, up until there are D + 1 + m: every window of
		// D + 2 within one period. Each window is tested as the run
		// reaches it, so that a step near n0 ends the search early.
		lo := n0
		for lo > n0-int64(deg+1) {
			if _, in, ok := inside(lo - 1); !ok {
				return false
			} else if !in {
				break
			}
			lo--
		}
		run := 0
		for n := lo; run < len(vals); n++ {
			v, in, ok := inside(n)
			if !ok {
				return false
			}
			if !in {
				break
			}
			vals[run] = v
			run++
			if run >= deg+2 {
				d, ok := highestDifference(vals[run-deg-2 : run])
				if !ok {
					return false
				}
				if d != 0 {
					return true
				}
			}
		}
		if run == len(vals) {
			if bases++; bases == maxClassBases {
				break
			}
		}
		if tried++; tried == maxClassTries {
			break
		}
	}
	return false
}

// highestDifference is the last finite difference of vals (the
// len(vals)-1-th), and false on overflow. vals is left as it was.
func highestDifference(vals []int64) (int64, bool) {
	var buf [8]int64
	d := buf[:0]
	if len(vals) > len(buf) {
		d = make([]int64, 0, len(vals))
	}
	d = append(d, vals...)
	for k := 1; k < len(d); k++ {
		for j := len(d) - 1; j >= k; j-- {
			x := d[j] - d[j-1]
			if (x < d[j]) != (d[j-1] > 0) {
				return 0, false
			}
			d[j] = x
		}
	}
	return d[len(d)-1], true
}

// maxValuePeriod bounds the period collapseByValues tries, and
// maxValueSteps the parameter values it visits.
const (
	maxValuePeriod = 1 << 12
	maxValueSteps  = 1 << 14
)

// collapseByValues is collapse for a one-parameter piece whose period is
// too large to split into residue classes (the 256 of floor(n/256) in the
// footprints of work-groups). With M the period of its divs, every
// constraint of the domain and the poly itself are, on a class
// n = M*k + r, affine in k and a polynomial in k of degree at most D, the
// poly's: the class's points in the domain are consecutive values of k,
// and a polynomial P of degree at most D in n equals the poly on all of
// them iff it does on D + 1 of them (or on all, if fewer). P is the
// polynomial through the first D + 1 points of the domain; if it passes
// in every class, it replaces the poly. A poly that stays periodic
// usually fails in the first classes, so the check stops at the first
// point that differs.
func (p *bset) collapseByValues() {
	if p.np != 1 || p.nd != 0 || len(p.divs) == 0 {
		return
	}
	usesDiv := false
	for k, d := range p.divs {
		if !isZeroRow(d.num[2:]) {
			return // a div of a div: the period is not splitModulus's
		}
		usesDiv = usesDiv || p.poly.usesCol(p.divCol(k))
	}
	m := p.splitModulus(1)
	if !usesDiv || m == 1 || m > maxValuePeriod {
		return
	}
	lo, hi, hasLo, hasHi, empty := p.ratRange(1)
	if empty || !hasLo && !hasHi {
		return
	}
	deg := p.poly.degree()
	// Points are visited away from a finite bound of the domain.
	start, dir := lo, int64(1)
	if !hasLo {
		start, dir = hi, -1
	}
	inRange := func(n int64) bool { return (!hasLo || n >= lo) && (!hasHi || n <= hi) }
	steps := 0
	// walk visits the points of the domain from n on, stride apart,
	// until visit returns false or, on a class (whose points are
	// consecutive), once a point was in the domain, one is not; it
	// returns false on overflow or past maxValueSteps.
	walk := func(n, stride int64, visit func(n int64, v *big.Rat) bool) bool {
		class := stride != dir
		inside := false
		for ; inRange(n); n += stride {
			if steps++; steps > maxValueSteps {
				return false
			}
			v, in, ok := polyAt(p, []int64{n})
			switch {
			case !ok:
				return false
			case in:
				inside = true
				if !visit(n, v) {
					return true
				}
			case inside && class:
				return true
			}
		}
		return true
	}
	var xs []int64
	var ys []*big.Rat
	if !walk(start, dir, func(n int64, v *big.Rat) bool {
		xs, ys = append(xs, n), append(ys, v)
		return len(xs) <= deg
	}) || len(xs) == 0 {
		return
	}
	interp := interpolate(xs, ys)
	agrees := true
	for r := range m {
		found := 0
		if !walk(start+dir*r, dir*m, func(n int64, v *big.Rat) bool {
			agrees = interp.evalAt([]int64{1, n}).Cmp(v) == 0
			found++
			return agrees && found <= deg
		}) || !agrees {
			return
		}
	}
	p.poly = interp
	p.normalize()
}

// interpolate returns the polynomial in the one parameter (column 1) of
// degree below len(xs) through the values vals[i] at xs[i] (Lagrange).
func interpolate(xs []int64, vals []*big.Rat) *poly {
	out := &poly{}
	for j, xj := range xs {
		term := polyConst(vals[j])
		for i, xi := range xs {
			if i != j {
				x := polyVar(1).add(polyInt(neg64(xi)))
				term = term.mul(x).scale(big.NewRat(1, sub64(xj, xi)))
			}
		}
		out = out.add(term)
	}
	return out
}

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

// polyAt evaluates a piece's polynomial at a parameter point, inside its
// domain or not (in says which); ok is false on overflow.
func polyAt(p *bset, params []int64) (v *big.Rat, in, ok bool) {
	ok = tryNoOverflow(func() {
		var cols []int64
		cols, in = p.contains(params)
		v = p.poly.evalAt(cols)
	})
	return v, in, ok
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
