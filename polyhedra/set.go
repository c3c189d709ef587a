package polyhedra

import (
	"fmt"
	"slices"
)

// A Set is a finite union of basic sets over named parameters and named
// set dimensions. It is immutable: operations return new sets.
type Set struct {
	name   string // tuple name, possibly empty
	params []string
	dims   []string
	parts  []*bset
}

// Params returns the parameter names in column order.
func (s *Set) Params() []string { return slices.Clone(s.params) }

// Dims returns the set dimension names in tuple order.
func (s *Set) Dims() []string { return slices.Clone(s.dims) }

// Name returns the tuple name (S in { S[i] : ... }), or "".
func (s *Set) Name() string { return s.name }

// cleanParts normalises the parts and drops those provably empty.
func cleanParts(parts []*bset) []*bset {
	var out []*bset
	for _, p := range parts {
		if p.normalize() && !p.provablyEmpty() {
			out = append(out, p)
		}
	}
	return out
}

// maxCoverParts bounds the parts dropCovered compares, pairwise.
const maxCoverParts = 16

// dropCovered removes the parts that another part contains, keeping the
// last of equal ones. Testing containment costs a Fourier–Motzkin run
// per constraint where a simple point does not refute it, so longer
// lists are left alone.
func dropCovered(parts []*bset) []*bset {
	if len(parts) < 2 || len(parts) > maxCoverParts {
		return parts
	}
	drop := make([]bool, len(parts))
	for i, p := range parts {
		for j, q := range parts {
			if i != j && !drop[j] && contains(q, p) {
				drop[i] = true
				break
			}
		}
	}
	out := parts[:0]
	for i, p := range parts {
		if !drop[i] {
			out = append(out, p)
		}
	}
	return out
}

// contains reports whether every point of b is in a, as far as proofs
// by Fourier–Motzkin go (false when unsure).
func contains(a, b *bset) bool {
	c := b.clone()
	c.poly = nil
	m := c.importCols(a)
	for _, r := range a.eqs {
		if !c.impliesEq(c.translate(m, r)) {
			return false
		}
	}
	for _, r := range a.ineqs {
		if !c.implies(c.translate(m, r)) {
			return false
		}
	}
	return true
}

// importCols adds src's divs to dst (both over the same parameters and
// dimensions) and returns, for every column of src, a row of dst equal
// to it.
func (dst *bset) importCols(src *bset) [][]int64 {
	m := make([][]int64, src.width())
	for c := 0; c < src.firstDiv(); c++ {
		m[c] = dst.unit(c, 1)
	}
	for k, d := range src.divs {
		m[src.divCol(k)] = dst.floorExpr(dst.translate(m, d.num), d.den)
	}
	return m
}

// translate rewrites a row of src into dst through the column map m.
func (dst *bset) translate(m [][]int64, row []int64) []int64 {
	out := dst.newRow()
	for c, v := range row {
		if v != 0 {
			addScaled(out, v, m[c])
		}
	}
	return out
}

// translatePoly rewrites a poly of src into dst through the column map m.
func translatePoly(m [][]int64, p *poly) *poly {
	if p == nil {
		return nil
	}
	if to, ok := unitTargets(m, p); ok {
		return p.remap(to)
	}
	subst := make([]*poly, len(m))
	for c, r := range m {
		subst[c] = polyFromRow(r)
	}
	return p.substituteAll(subst)
}

// unitTargets returns, for every column, the column that m maps it to,
// when m maps each column p uses to another column alone (as importing
// a set's divs into a set that has them does); polynomials then need
// their exponents moved, not substitution.
func unitTargets(m [][]int64, p *poly) ([]int, bool) {
	to := make([]int, len(m))
	for c := range to {
		to[c] = -1
	}
	for _, t := range p.terms {
		for c, k := range t.exp {
			if k == 0 || to[c] >= 0 {
				continue
			}
			j := -1
			for i, v := range m[c] {
				switch {
				case v == 0:
				case v == 1 && i > 0 && j < 0:
					j = i
				default:
					return nil, false
				}
			}
			if j < 0 {
				return nil, false
			}
			to[c] = j
		}
	}
	return to, true
}

// intersectBset returns a ∩ b (same space); its poly is a's.
func intersectBset(a, b *bset) *bset {
	c, _ := meet(a, b)
	return c
}

func intersectParts(a, b []*bset, w *budget) []*bset {
	w.charge(len(a) * len(b))
	var out []*bset
	for _, x := range a {
		for _, y := range b {
			out = append(out, intersectBset(x, y))
		}
	}
	return cleanParts(out)
}

// subtractBset returns b \ a as disjoint parts: for a's constraints
// c_1..c_n, the parts b ∧ c_1 ∧ ... ∧ c_{k-1} ∧ ¬c_k. Because a has only
// divs (functions of the other columns), ¬(e >= 0) is the single
// constraint -e - 1 >= 0 and ¬(e = 0) is e >= 1 or -e >= 1.
func subtractBset(b, a *bset) []*bset {
	cur := b.clone()
	m := cur.importCols(a)
	var cons [][]int64
	var isEq []bool
	for _, r := range a.eqs {
		cons, isEq = append(cons, cur.translate(m, r)), append(isEq, true)
	}
	for _, r := range a.ineqs {
		cons, isEq = append(cons, cur.translate(m, r)), append(isEq, false)
	}
	var out []*bset
	for k, r := range cons {
		r = cur.fit(r)
		negs := [][]int64{negRow(r)}
		if isEq[k] {
			negs = append(negs, copyRow(r))
		}
		for _, n := range negs {
			n[0] = sub64(n[0], 1)
			p := cur.clone()
			p.addIneq(n)
			out = append(out, p)
		}
		if isEq[k] {
			cur.addEq(r)
		} else {
			cur.addIneq(r)
		}
	}
	return cleanParts(out)
}

// subtractParts returns the parts of ps minus a.
func subtractParts(ps []*bset, a *bset, w *budget) []*bset {
	var out []*bset
	for _, p := range ps {
		out = append(out, subtractBset(p, a)...)
	}
	w.charge(len(out))
	return out
}

// disjointParts returns pairwise disjoint parts with the same union.
func disjointParts(parts []*bset, w *budget) []*bset {
	var out []*bset
	for i, p := range parts {
		rest := []*bset{p.clone()}
		for _, q := range parts[:i] {
			if x := intersectBset(p, q); x.normalize() && !x.provablyEmpty() {
				rest = subtractParts(rest, q, w)
			}
		}
		out = append(out, rest...)
	}
	return out
}

// complementParts returns the complement of the union of parts.
func complementParts(parts []*bset, np, nd int, w *budget) []*bset {
	out := []*bset{newBset(np, nd)}
	for _, p := range parts {
		out = subtractParts(out, p, w)
	}
	return out
}

// projectOutTail eliminates the last n dimensions of every part exactly.
func projectOutTail(parts []*bset, n int, w *budget) ([]*bset, error) {
	var out []*bset
	for _, p := range parts {
		ps, err := projectPart(p, n, w)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return cleanParts(out), nil
}

// projectPart eliminates the last n dimensions of p. Variables that no
// constraint relates, directly or through others, are projected apart:
// ∃x ∃y (A(x) ∧ B(y) ∧ C) is (∃x A(x)) ∧ (∃y B(y)) ∧ C, and each
// smaller projection needs fewer residue classes and smaller
// Fourier–Motzkin systems than the whole (the existential variables of
// a loop domain projected onto one loop mostly fall apart this way).
func projectPart(p *bset, n int, w *budget) ([]*bset, error) {
	comps := p.tailComponents(n)
	labels := slices.Compact(slices.Sorted(slices.Values(comps)))
	if len(labels) < 2 {
		return eliminateTail(p, n, w)
	}
	first := p.firstDim() + p.nd - n
	inTail := func(r []int64) int { // the component of r, or -1
		for c := first; c < first+n; c++ {
			if r[c] != 0 {
				return comps[c-first]
			}
		}
		return -1
	}
	restrict := func(comp int) *bset {
		c := p.clone()
		c.eqs = slices.DeleteFunc(c.eqs, func(r []int64) bool { return inTail(r) != comp })
		c.ineqs = slices.DeleteFunc(c.ineqs, func(r []int64) bool { return inTail(r) != comp })
		for col := first + n - 1; col >= first; col-- {
			if comps[col-first] != comp {
				c.deleteCol(col)
			}
		}
		return c
	}
	out := []*bset{restrict(-1)}
	for _, k := range labels {
		c := restrict(k)
		ps, err := eliminateTail(c, c.nd-(p.nd-n), w)
		if err != nil {
			return nil, err
		}
		out = intersectParts(out, ps, w)
	}
	return out, nil
}

// tailComponents labels each of the last n dimensions of b with its
// connected component, two variables being connected when a constraint
// uses both. It returns nil when a div uses one of them, since a div
// ties its variables together wherever it is used.
func (b *bset) tailComponents(n int) []int {
	first := b.firstDim() + b.nd - n
	for _, d := range b.divs {
		for c := first; c < first+n; c++ {
			if d.num[c] != 0 {
				return nil
			}
		}
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = i
	}
	var find func(i int) int
	find = func(i int) int {
		if comp[i] != i {
			comp[i] = find(comp[i])
		}
		return comp[i]
	}
	for _, r := range slices.Concat(b.eqs, b.ineqs) {
		root := -1
		for c := first; c < first+n; c++ {
			if r[c] == 0 {
				continue
			}
			if root < 0 {
				root = find(c - first)
			} else {
				comp[find(c-first)] = root
			}
		}
	}
	for i := range comp {
		comp[i] = find(i)
	}
	return comp
}

// eliminateTail eliminates the last n dimensions of p one at a time.
func eliminateTail(p *bset, n int, w *budget) ([]*bset, error) {
	var out []*bset
	keep := p.nd - n
	start := p.clone()
	start.work = w
	stack := []*bset{start}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b.nd == keep {
			b.work = nil
			out = append(out, b)
			continue
		}
		// dimensions lifted from divs are appended, so the ones to
		// eliminate stay at the end
		x := b.pickVar(b.firstDim()+keep, b.firstDiv(), false)
		res, err := b.eliminate(x, false)
		if err != nil {
			return nil, err
		}
		w.charge(len(res))
		stack = append(stack, res...)
	}
	return out, nil
}

// lift copies b into a space with np parameters and nd dimensions,
// moving column c to colMap[c] (divs follow in order).
func lift(b *bset, np, nd int, colMap []int) *bset {
	c := b.clone()
	m := make([]int, b.width())
	copy(m, colMap)
	for k := range b.divs {
		m[b.divCol(k)] = 1 + np + nd + k
	}
	c.remap(np, nd, m)
	return c
}

// alignedTo returns s's parts in the space params × dims, which must
// contain all of s's names. It reports an error for a missing dimension.
func (s *Set) alignedTo(params, dims []string) ([]*bset, error) {
	m := make([]int, 1+len(s.params)+len(s.dims))
	for i, p := range s.params {
		j := slices.Index(params, p)
		if j < 0 {
			return nil, fmt.Errorf("parameter %s is missing from the target space", p)
		}
		m[1+i] = 1 + j
	}
	for i, d := range s.dims {
		j := slices.Index(dims, d)
		if j < 0 {
			return nil, fmt.Errorf("dimension %s is missing from the target space", d)
		}
		m[1+len(s.params)+i] = 1 + len(params) + j
	}
	out := make([]*bset, len(s.parts))
	for i, p := range s.parts {
		out[i] = lift(p, len(params), len(dims), m)
	}
	return out, nil
}

// mergeNames returns a followed by the names of b not in a.
func mergeNames(a, b []string) []string {
	out := slices.Clone(a)
	for _, n := range b {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// meet returns a ∩ b, carrying a's poly, and b's poly over its columns.
func meet(a, b *bset) (*bset, *poly) {
	c := a.clone()
	m := c.meetInto(b)
	return c, translatePoly(m, b.poly)
}

// meetInto adds b's constraints (and divs) to c and returns the map of
// b's columns into c's (see importCols).
func (c *bset) meetInto(b *bset) [][]int64 {
	m := c.importCols(b)
	for _, r := range b.eqs {
		c.addEq(c.translate(m, r))
	}
	for _, r := range b.ineqs {
		c.addIneq(c.translate(m, r))
	}
	return m
}
