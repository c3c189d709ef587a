package counts

import (
	"slices"
	"strings"
)

// add registers a set, simplified, and returns its index, sharing equal
// sets.
func (p *plan) add(u *uset) int {
	params := p.k.Params
	at := p.at
	if at == nil {
		at = p.fixed
	}
	bare := false
	if at != nil {
		// A set whose constants overflow when the parameters are fixed
		// is registered as it is; counting specialises it, and fails
		// there as the overflow deserves.
		if f, err := u.fixed(at); err == nil {
			u, params, bare = f, nil, true
		}
	}
	for i, pc := range u.pieces {
		u.pieces[i] = pc.simplifyParts(p.k.Params, p.parts)
	}
	for i, pc := range u.meet {
		u.meet[i] = pc.simplifyParts(p.k.Params, p.parts)
	}
	key := u.isl(params)
	if i, ok := p.index[key]; ok {
		return i
	}
	p.sets = append(p.sets, u)
	p.texts = append(p.texts, key)
	p.bare = append(p.bare, bare)
	p.counts = append(p.counts, nil)
	if p.eager {
		p.counts[len(p.counts)-1] = p.startCount(len(p.sets) - 1)
	}
	p.index[key] = len(p.sets) - 1
	return len(p.sets) - 1
}

// projection is the set of the domain projected onto inames.
func (p *plan) projection(inames []string) int {
	inames = p.k.inameOrder(inames)
	key := strings.Join(inames, " ")
	if i, ok := p.proj[key]; ok {
		return i
	}
	p.proj[key] = p.add(&uset{dims: inames, pieces: p.domainPieces(inames, nil, inames)})
	return p.proj[key]
}

// axisSize returns the launch size along a hardware axis (kind 0: groups
// along g.a, kind 1: work-items along l.a) as a factor: the largest
// number of values of an iname tagged with it on the axis (indexSet).
// Launch checks that the values of a tagged iname are contiguous, so
// that this is its extent. ok is false when no iname has the tag (the
// size is 1).
func (p *plan) axisSize(kind, a int) (factor, bool) {
	want := Tag{Kind: Group, Axis: a}
	if kind == 1 {
		want.Kind = LocalID
	}
	var f factor
	for _, in := range p.k.Inames {
		if in.Tag == want {
			f = append(f, p.indexSet(in.Name))
		}
	}
	return f, len(f) > 0
}

// indexSet is the set of the values that tagged iname x takes on its
// hardware axis (Kernel.IndexDomain): its own range, or the domain
// projected onto it.
func (p *plan) indexSet(x string) int {
	if _, ok := p.k.ownRange(x); !ok {
		return p.projection([]string{x})
	}
	return p.add(&uset{dims: []string{x}, pieces: p.indexPieces(x, nil, []string{x})})
}

// spanUnion registers the set whose size is the largest size of the
// given one-dimensional sets of contiguous values: the union of their
// spans { t : 0 <= t <= x - x' } (x and x' two points of one set).
func (p *plan) spanUnion(sets []int) int {
	t := p.freshName("size")
	span := &uset{dims: []string{t}}
	for _, i := range sets {
		lo, hi := p.renamedApart(p.sets[i]), p.renamedApart(p.sets[i])
		diff, _ := qname(hi.dims[0]).addScaled(qname(lo.dims[0]), -1)
		diff, _ = diff.addScaled(qname(t), -1) // t <= x - x'
		for _, l := range lo.dnf() {
			for _, h := range hi.dnf() {
				span.pieces = append(span.pieces, piece{exists: slices.Concat(lo.dims, hi.dims, l.exists, h.exists),
					c: slices.Concat(l.c, h.c, conj{{qname(t), false}, {diff, false}})})
			}
		}
	}
	return p.add(span)
}

// axes returns the launch sizes of the hardware axes that no iname of
// within is tagged with (all axes when all is set), as factors.
func (p *plan) axes(within []string, all bool) []factor {
	var out []factor
	for kind := range 2 {
		for a := range 3 {
			used := false
			for _, n := range within {
				t := p.k.inameIndex[n].Tag
				if t.Parallel() && t.Axis == a && (t.Kind == LocalID) == (kind == 1) {
					used = true
				}
			}
			if used && !all {
				continue
			}
			if f, ok := p.axisSize(kind, a); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

// projectionWhere is the set of the domain projected onto inames where
// the conditions hold; they mention only those inames and parameters.
func (p *plan) projectionWhere(inames []string, conds []dnf) (int, error) {
	if len(conds) == 0 {
		return p.projection(inames), nil
	}
	inames = p.k.inameOrder(inames)
	pieces, err := withConds(p.domainPieces(inames, nil, inames), conds, nil)
	if err != nil {
		return 0, err
	}
	return p.add(&uset{dims: inames, pieces: pieces}), nil
}
