package polyhedra

import "math"

// maxCells bounds the disjoint cells disjointSum may create. Beyond it a
// function stays a sum of overlapping pieces: exact, only less readable.
const maxCells = 96

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
