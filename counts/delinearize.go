package counts

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// This file splits the flattened subscripts of a one-dimensional array
// (a[i*n + j] of an array [n*n]) into the dimensions their coefficients
// imply, so that its footprint can be counted: the sets of package
// polyhedra are affine, and i*n is not.

// delinearize returns the subscripts of each reference to array name
// over the dimensions its flattened index implies, outermost first, or
// the references' own subscripts where all are affine. The coefficients
// of the inames, products of parameters, must form a chain 1 | s_1 | s_2
// ..., each the one before times one parameter (a[(k*ny + j)*nx + i]:
// 1, nx, nx*ny, so the dimensions [k, j, i]); a term of parameters alone
// must be one of them (a[(i + 1)*n + j]: n joins i + 1) or one of them
// times a parameter (a[i*n + t*n + t]: [i + t, t]). The split is exact
// where every index but the outermost stays within 0 and its parameter
// less one over its reference's domain, so that distinct index tuples
// are distinct elements; the sets where one does not must count zero,
// or delinearize fails naming the reference. A dimension whose index is
// the same expression of parameters in every reference (the column t of
// a[(x + t + 1)*n + t] and a[t*n + t]) needs no check: it shifts every
// address alike, so distinct tuples stay distinct elements whatever its
// value. Where the split along the parameters fails, a pitch that the
// array's extent declares affine, a factor a*p + c of it (w + 14 of an
// array [(h + 14)*(w + 14)]), stands for its parameter p, and the split
// is tried again along it, each index then within 0 and its pitch less
// one (see delinearizepitch.go); where that fails too, the error is the
// first split's.
func (p *plan) delinearize(name string, refs []gref) ([][]Affine, error) {
	a := p.k.arrayIndex[name]
	out := make([][]Affine, len(refs))
	flat := false
	for i, r := range refs {
		out[i] = r.index
		for _, ix := range r.index {
			flat = flat || !ix.IsAffine()
		}
	}
	if !flat {
		return out, nil
	}
	for _, r := range refs {
		for _, ix := range r.index {
			if len(ix.Floors) > 0 {
				return nil, errorf(p.k.File, a.Pos, "array %s: a flattened subscript with a floor division or remainder (%s) does not split into dimensions, so its footprint is not counted%s", name, ix, splitHint)
			}
		}
	}
	if len(a.Shape) != 1 {
		return nil, errorf(p.k.File, a.Pos, "array %s: a subscript of an array of %d dimensions multiplies an iname by a parameter; index a multi-dimensional array by one iname expression per dimension, or declare it with one dimension (a[i*n + j] of an array [n*n])", name, len(a.Shape))
	}
	split, err := p.splitFlat(name, refs, nil)
	if err == nil {
		return split, nil
	}
	// A pitch that the extent declares affine (w + 14 of an array
	// [(h + 14)*(w + 14)]); where that does not split either, the error is
	// the split's along the parameters, which says what to write.
	if sh := extentPitches(a.Shape[0]); len(sh) > 0 {
		if shifted, serr := sh.rewrite(refs); serr == nil {
			if split, serr := p.splitFlat(name, shifted, sh); serr == nil {
				return split, nil
			}
		}
	}
	return nil, err
}

// splitFlat splits the references' flattened indices along the first of
// their stride chains under which every check holds, the indices'
// parameters those of sh where it names them.
func (p *plan) splitFlat(name string, refs []gref, sh pitches) ([][]Affine, error) {
	chains, err := p.strideChains(name, refs)
	if err != nil {
		return nil, err
	}
	var first error
	for _, chain := range chains {
		split, err := p.splitRefs(name, refs, chain, nil, sh)
		if err == nil {
			return split, nil
		}
		if first == nil {
			first = err
		}
		skip := p.paramDims(refs, chain)
		if !slices.Contains(skip, true) {
			continue
		}
		if split, err := p.splitRefs(name, refs, chain, skip, sh); err == nil && sameDims(split, skip) {
			return split, nil
		}
	}
	return nil, first
}

// splitRefs splits every reference's flattened index along chain, not
// checking the ranges of the dimensions skip marks.
func (p *plan) splitRefs(name string, refs []gref, chain []string, skip []bool, sh pitches) ([][]Affine, error) {
	out := make([][]Affine, len(refs))
	for i, r := range refs {
		var err error
		if out[i], err = p.splitIndex(name, r, chain, skip, sh); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// paramDims marks the dimensions but the outermost in which no
// reference has a term with an iname.
func (p *plan) paramDims(refs []gref, chain []string) []bool {
	skip := make([]bool, len(chain))
	for d := 1; d < len(chain); d++ {
		skip[d] = true
	}
	for _, r := range refs {
		for _, t := range r.index[0].Terms {
			if iname, params := p.splitTerm(t); iname != "" {
				skip[slices.Index(chain, params)] = false
			}
		}
	}
	return skip
}

// sameDims reports whether every split has the same index in each
// dimension skip marks.
func sameDims(splits [][]Affine, skip []bool) bool {
	for d, s := range skip {
		if !s {
			continue
		}
		for _, x := range splits[1:] {
			diff, err := x[d].addScaled(splits[0][d], -1)
			if err != nil || diff.Const != 0 || len(diff.Terms) > 0 || len(diff.Floors) > 0 {
				return false
			}
		}
	}
	return true
}

// splitHint says what to write where flattened subscripts do not split.
const splitHint = "; to count it symbolically, declare the array with a dimension per pitch and subscript each (a[(i*m + j)*4 + k] of an array [n*m*4] as a[i, j, k] of an array [n, m, 4])"

// maxMovable bounds the terms of parameters alone in one flattened index
// whose dimension delinearize chooses.
const maxMovable = 3

// splitIndex splits reference r's flattened index along chain. A term of
// parameters alone, c*s_d, may stand in dimension d as c or in the next
// inner one as c times the parameter between them (i*n + n - 1 - j is
// [i, n - 1 - j], not [i + 1, -1 - j]); splitIndex takes the first
// choice, in the order that keeps terms outermost, under which every
// index but the outermost, and but those skip marks, stays within its
// range. A term c*s_d*q, q a parameter, stands in dimension d as c*q.
// The indices returned, and checked, name the kernel's parameters, not
// sh's.
func (p *plan) splitIndex(name string, r gref, chain []string, skip []bool, sh pitches) ([]Affine, error) {
	base := make([]Affine, len(chain))
	base[len(chain)-1].Const = r.index[0].Const
	var movable []Term
	for _, t := range r.index[0].Terms {
		iname, params := p.splitTerm(t)
		d, q := place(params, chain)
		switch {
		case iname != "":
			base[d].Terms = append(base[d].Terms, Term{iname, t.Coeff})
		case q != "":
			base[d].Terms = append(base[d].Terms, Term{q, t.Coeff})
		case d == len(chain)-1:
			base[d].Const += t.Coeff
		default:
			movable = append(movable, t)
		}
	}
	if len(movable) > maxMovable {
		return nil, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: the flattened subscript %s has %d terms of parameters alone, more than the %d whose dimension delinearization chooses%s", name, r.index[0], len(movable), maxMovable, splitHint)
	}
	var first error
	for mask := range 1 << len(movable) {
		dims := slices.Clone(base)
		for b, t := range movable {
			_, params := p.splitTerm(t)
			d := slices.Index(chain, params)
			if mask&(1<<b) == 0 {
				dims[d].Const += t.Coeff
				continue
			}
			par, _ := ratio(chain[d], chain[d+1])
			var err error
			if dims[d+1], err = dims[d+1].addScaled(Affine{Terms: []Term{{par, 1}}}, t.Coeff); err != nil {
				return nil, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: %v", name, err)
			}
		}
		dims, err := sh.back(dims)
		if err != nil {
			return nil, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: %v", name, err)
		}
		err = p.checkSplit(name, r, dims, chain, skip, sh)
		if err == nil {
			return dims, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// checkSplit checks every index of a split but the outermost and those
// skip marks.
func (p *plan) checkSplit(name string, r gref, dims []Affine, chain []string, skip []bool, sh pitches) error {
	for d := 1; d < len(dims); d++ {
		if skip != nil && skip[d] {
			continue
		}
		if err := p.checkDelinearized(name, r, dims[d], chain[d-1], chain[d], sh); err != nil {
			return err
		}
	}
	return nil
}

// splitTerm returns a term's iname ("" for none) and the product of its
// parameters ("" for none).
func (p *plan) splitTerm(t Term) (iname, params string) {
	var ps []string
	for _, f := range t.Factors() {
		if p.k.inameIndex[f] != nil {
			iname = f
		} else {
			ps = append(ps, f)
		}
	}
	return iname, strings.Join(ps, "*")
}

// strideChains returns the chains along which the references'
// flattened indices may split, to be tried in order: products of
// parameters that weigh the dimensions, outermost first, each the next
// times one parameter. The first is that of the inames' coefficients,
// where every term of parameters alone is one of them or one of them
// times a parameter (see place); the other that of every term's.
func (p *plan) strideChains(name string, refs []gref) ([][]string, error) {
	ofInames, all := map[string]bool{"": true}, map[string]bool{"": true}
	var alone []string
	for _, r := range refs {
		for _, t := range r.index[0].Terms {
			iname, params := p.splitTerm(t)
			all[params] = true
			if iname != "" {
				ofInames[params] = true
			} else {
				alone = append(alone, params)
			}
		}
	}
	var chains [][]string
	chain, err := p.chainOf(name, ofInames)
	if err == nil && !slices.ContainsFunc(alone, func(m string) bool {
		d, _ := place(m, chain)
		return d < 0
	}) {
		chains = append(chains, chain)
	}
	if len(all) > len(ofInames) || len(chains) == 0 {
		full, err2 := p.chainOf(name, all)
		switch {
		case err2 == nil:
			chains = append(chains, full)
		case len(chains) == 0 && err != nil:
			return nil, err
		case len(chains) == 0:
			return nil, err2
		}
	}
	return chains, nil
}

// chainOf orders the products of parameters of seen by degree, the
// greatest first, and checks that each is the next times one parameter.
func (p *plan) chainOf(name string, seen map[string]bool) ([]string, error) {
	chain := slices.Sorted(maps.Keys(seen))
	degree := func(m string) int {
		if m == "" {
			return 0
		}
		return strings.Count(m, "*") + 1
	}
	slices.SortFunc(chain, func(x, y string) int { return degree(y) - degree(x) })
	for d := 0; d+1 < len(chain); d++ {
		if _, ok := ratio(chain[d], chain[d+1]); !ok {
			return nil, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: its flattened subscripts weigh inames by %s and %s, which are not a chain of products of parameters that each adds one (as 1, nx, nx*ny in (k*ny + j)*nx + i), so they do not split into dimensions and its footprint is not counted%s", name, orOne(chain[d+1]), orOne(chain[d]), splitHint)
		}
	}
	return chain, nil
}

// place returns the dimension d of chain in which a term of parameters
// alone, of product m, stands, and the parameter q ("" for none) that m
// is chain[d] times, or -1 where m is no element of chain times at most
// one parameter. The outermost such d is unique: the next inner one
// would leave q times its parameter.
func place(m string, chain []string) (int, string) {
	for d, s := range chain {
		if m == s {
			return d, ""
		}
		if q, ok := ratio(m, s); ok {
			return d, q
		}
	}
	return -1, ""
}

// ratio returns the one parameter that big is small times.
func ratio(big, small string) (string, bool) {
	b := strings.Split(big, "*")
	if small != "" {
		for _, f := range strings.Split(small, "*") {
			i := slices.Index(b, f)
			if i < 0 {
				return "", false
			}
			b = slices.Delete(b, i, i+1)
		}
	}
	if len(b) != 1 {
		return "", false
	}
	return b[0], true
}

func orOne(m string) string {
	if m == "" {
		return "1"
	}
	return m
}

// checkDelinearized fails unless index e, of the dimension weighed by
// small, stays within 0 and big/small - 1 wherever reference r executes
// (big/small a parameter, of sh's or the kernel's).
func (p *plan) checkDelinearized(name string, r gref, e Affine, big, small string, sh pitches) error {
	par, _ := ratio(big, small)
	pitch := sh.of(par)
	pos := p.k.arrayIndex[name].Pos
	inames := p.k.inameOrder(r.inames)
	pieces, err := withConds(p.domainPieces(inames, nil, inames), r.conds, nil)
	if err != nil {
		return errorf(p.k.File, pos, "array %s: %v", name, err)
	}
	// A bound that overflows int64 (a subscript's constant or
	// coefficient near ±2^63, a pitch's constant beside one) is left the
	// zero constraint 0 >= 0, which holds everywhere: the check then
	// passes only where the reference runs nowhere, and fails naming the
	// overflow, not a count of points out of range that the bound never
	// described.
	q := e.qaff()
	var overflow error
	below, err := qconst(-1).addScaled(q, -1) // e <= -1
	if err != nil {
		overflow = fmt.Errorf("%w in -1 - (%s), the bound below 0", err, e)
	}
	above, err := q.addScaled(pitch.qaff(), -1) // e >= pitch
	if err != nil && overflow == nil {
		overflow = fmt.Errorf("%w in %s - %s, the bound above %s-1", err, e, sh.text(par), sh.text(par))
	}
	n := p.counted(p.add(outOfRange(inames, pieces, below, above)))
	switch {
	case overflow != nil && (n.err != nil || !n.n.IsZero()):
		return errorf(p.k.File, pos, "array %s: checking that index %s stays within 0..%s-1: %v: its constants or coefficients are too large for 64-bit integers, so its footprint is not counted", name, e, sh.text(par), overflow)
	case n.err != nil:
		return errorf(p.k.File, pos, "array %s: checking that index %s stays within 0..%s-1: %v", name, e, sh.text(par), n.err)
	case !n.n.IsZero():
		return errorf(p.k.File, pos, "array %s: a flattened subscript does not split into dimensions: the index %s, weighed by %s, leaves 0..%s-1 at %s, so distinct indices may be one element and its footprint is not counted%s", name, e, orOne(small), sh.text(par), pointsWhere(n.n.String()), splitHint)
	}
	return nil
}

// pointsWhere says at how many points an index leaves its range: the
// count where it is short enough to read, "some points" where it is not
// (a pitch such as w + 14 under a reduction gives a quasi-polynomial of
// tens of kilobytes, which would bury the advice after it).
func pointsWhere(count string) string {
	if len(count) > 200 {
		return "some points"
	}
	return count + " points"
}

// outOfRange is the set of the points of pieces (over inames) where an
// index leaves its range: below is the index's constraint e <= -1, above
// its e >= the extent.
func outOfRange(inames []string, pieces []piece, below, above qaff) *uset {
	bad := &uset{dims: inames}
	for _, pc := range pieces {
		for _, c := range []qaff{below, above} {
			bad.pieces = append(bad.pieces, piece{exists: pc.exists, c: append(slices.Clone(pc.c), cons{c, false})})
		}
	}
	return bad
}
