package polyhedra

import (
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
