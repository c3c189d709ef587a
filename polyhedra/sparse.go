package polyhedra

import "slices"

// Writing a quasi-polynomial with few floors.
//
// Summing residue classes writes a count with the floors the sum
// happened to take, one for every class: the wedge of issue 26 printed
// its chamber m >= n with floor((n + c)/5) and floor((2n + m + c)/5)
// for c = 0..4, in 17 terms, where barvinok, which reads its floors off
// the vertices of the polygon, writes four floors, floor((3n + 2m)/5),
// floor((4n + m)/5), floor((4n + 2m)/5) and floor((2n + m + 4)/5), in
// 11 terms. sparseFloors looks for such a form.
//
// Its floors are floor((v.x + c)/q) for the prime powers q that divide
// the period (3 and 5 for 15: a function of period 15 is a sum of
// products of functions of periods 3 and 5), every v modulo q and every
// c below q. It takes them one at a time, greedily: the one whose terms
// (the floor times monomials, and times products of the floors taken
// before and itself, up to the poly's degree) bring the least-squares
// fit of the poly closest, until the fit is exact. Greedy choices are
// not always the best, so it starts from each of the six floors that
// fit best alone and then takes from the 48 that do; it searches again
// with each floor alone as its only term (the stencil of issue 26 is a
// cubic plus floor(n/2), floor(m/2) and floor((n + m)/2), which the
// terms of the first two make up for with their products, in more
// text); the terms of the floors taken are dependent, and which are
// kept changes the text, so each set of floors is fitted with its terms
// in three orders. The shortest printed proposal wins.
//
// The search is made in floating point on at most 192 of the points
// that prove two such polys equal (see agreesOnClasses), so it only
// proposes: a proposal stands only where its coefficients, read back as
// small fractions, give a poly that agreesOnClasses proves equal to the
// old one at every integer point, and that prints shorter. It is tried
// on polys of 200 characters or more with two floors or more, over one
// or two parameters, of degree 3 or less, and its work is bounded, so
// printing a function takes at most a few hundred milliseconds more.
// On the wedge it takes about 45 ms, and the answer prints in 755
// characters instead of 1341 (barvinok's: 795); the 217 sets of
// testdata/cardcorpus.tsv print in 72.5 kB instead of 98.5 kB, none
// longer (71.8 kB with floor(n/2) for floor((n)/2)).

// maxSparseCells bounds the floors times points of one search.
const maxSparseCells = 1 << 17

// sparseMinText is the length of the shortest poly sparseFloors tries
// to shorten: a search takes milliseconds, and short polys gain little.
const sparseMinText = 200

// maxPrintWork bounds the products of numbers the searches for all the
// pieces of a function make (see maxSparseWork).
const maxPrintWork = 1 << 26

// maxSearchPoints bounds the points a search fits on.
const maxSearchPoints = 192

// sparseFloors replaces p.poly, a poly of a dimensionless piece over one
// or two parameters, by an equal one that prints shorter with floors of
// other forms, where it finds one (see above).
func (p *bset) sparseFloors(memo *floorMemo) {
	period, ok := p.divPeriod()
	deg := p.poly.degree()
	if !ok || p.np < 1 || p.np > 2 || period == 1 || deg < 1 || deg > 3 {
		return
	}
	key := polyKey(p, p.poly)
	if len(key) < sparseMinText || len(slices.DeleteFunc(p.divsUsed(p.poly), func(u bool) bool { return !u })) < 2 || !fewCells(p.np, period, deg) {
		return
	}
	prs, ok := memo.found[key]
	if !ok {
		prs = p.searchFloors(period, deg, &memo.work)
		memo.found[key] = prs
	}
	shortest := len(key)
	for _, pr := range prs {
		g := p.proposed(pr)
		if g == nil {
			continue
		}
		if n := len(polyKey(g, g.poly)); n < shortest {
			if same := false; tryNoOverflow(func() { same = p.agreesOnClasses(g, period, deg) }) && same {
				*p, shortest = *g, n
			}
		}
	}
}

// A floorMemo holds the work left to the searches for the pieces of one
// function, and what each search proposed for a poly, so that pieces
// with one poly print one, whatever work is left.
type floorMemo struct {
	work  int
	found map[string][]proposal
}

func newFloorMemo() *floorMemo {
	return &floorMemo{work: maxPrintWork, found: map[string][]proposal{}}
}

// searchFloors proposes polys with few floors for p's, of the given
// period and degree, within the work left.
func (p *bset) searchFloors(period int64, deg int, work *int) []proposal {
	pts := provingPoints(p.np, period, deg)
	if step := (len(pts) + maxSearchPoints - 1) / maxSearchPoints; step > 1 {
		// A fit of a few dozen terms is found on fewer points just as
		// well, and proved on all of them.
		var fewer [][]int64
		for i := 0; i < len(pts); i += step {
			fewer = append(fewer, pts[i])
		}
		pts = fewer
	}
	var floors []floorTerm
	for _, q := range primePowers(period) {
		for i := int64(1); i < pow64(q, p.np); i++ {
			v := make([]int64, p.np)
			classPoint(v, i, q, make([]int64, p.np)) // the digits of i
			for c := range q {
				floors = append(floors, floorTerm{q, c, v})
			}
		}
	}
	target := make([]float64, len(pts))
	pv := newIntPoly(p.poly)
	for i, x := range pts {
		cols, _ := p.contains(x)
		target[i], _ = pv.at(cols).Float64()
	}
	return greedyFloors(floors, p.np, deg, pts, target, work)
}

// proposed returns a clone of p with the proposal as its poly, its
// coefficients read as small fractions, or nil where one is not.
func (p *bset) proposed(pr proposal) *bset {
	g := p.clone()
	sum := &poly{}
	for k, t := range pr.terms {
		c, ok := smallFraction(pr.coef[k])
		if !ok {
			return nil
		}
		sum = sum.add(g.candidatePoly(t).scale(c))
	}
	g.poly = sum
	g.dropUnusedDivs()
	return g
}

// fewCells reports whether the floors and the points of a search over
// np parameters for a poly of degree deg and the period are within
// maxSparseCells.
func fewCells(np int, period int64, deg int) bool {
	floors := int64(0)
	for _, q := range primePowers(period) {
		floors += (pow64(q, np) - 1) * q
	}
	pts := int64(len(simplexPoints(np, deg))) + (pow64(period, np)-1)*int64(len(simplexPoints(np, deg-1)))
	return floors <= maxSparseCells && pts <= maxSparseCells && floors*pts <= maxSparseCells
}

// primePowers returns the largest prime powers that divide n.
func primePowers(n int64) []int64 {
	var out []int64
	for f := int64(2); n > 1; f++ {
		if f*f > n {
			f = n
		}
		q := int64(1)
		for n%f == 0 {
			n /= f
			q *= f
		}
		if q > 1 {
			out = append(out, q)
		}
	}
	return out
}

// candidatePoly is the candidate as a poly over g's columns, with divs
// added to g for its floors.
func (g *bset) candidatePoly(c candidate) *poly {
	m := monomialPoly(c.mono)
	for _, f := range c.floors {
		m = m.mul(g.floorPoly(f.q, f.c, f.form))
	}
	return m
}
