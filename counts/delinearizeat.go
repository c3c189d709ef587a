package counts

import "slices"

// This file splits the addresses of an array's references at fixed
// parameter values into dimensions (see delinearizeAt), for the
// footprints and hierarchy counts at given sizes (countedat.go).

// flattened reports whether a reference multiplies an iname by a
// parameter in a subscript.
func flattened(r gref) bool {
	for _, ix := range r.index {
		if !ix.IsAffine() {
			return true
		}
	}
	return false
}

// addressAt returns the row-major element offset of reference r at the
// plan's parameter values, affine in the inames. Within the array's
// extents, which CheckBounds checks, distinct subscript tuples are
// distinct offsets, so the offset's image counts the cells.
func (p *plan) addressAt(name string, r gref) (qaff, error) {
	a := p.k.arrayIndex[name]
	addr := qconst(0)
	pitch := int64(1)
	for d := len(r.index) - 1; d >= 0; d-- {
		ix, err := r.index[d].at(p.at)
		if err == nil {
			addr, err = addr.addScaled(ix, pitch)
		}
		if err == nil && d > 0 {
			var ext int64
			if ext, err = a.Shape[d].Eval(p.at); err == nil {
				pitch, err = mulInt(pitch, ext)
			}
		}
		if err != nil {
			return qaff{}, errorf(p.k.File, a.Pos, "array %s: the address of %s at %s: %v", name, r.index, paramText(p.k.Params, p.at), err)
		}
	}
	return addr, nil
}

// maxSplitsAt bounds the dimensions whose constant part splitAt moves
// (2^maxSplitsAt tries a reference).
const maxSplitsAt = 4

// layout is an address at parameter values written along pitches: the
// part each pitch weighs (a multiple of the inames), and a constant.
type layout struct {
	parts map[int64]qaff
	c     int64
}

// add adds k*x to the part pitch weighs.
func (l layout) add(pitch int64, x string, k int64) error {
	e, err := l.parts[pitch].addScaled(qname(x), k)
	l.parts[pitch] = e
	return err
}

// byParams writes reference r's subscript at the plan's parameter
// values along the values of the products of parameters that weigh its
// inames, as the kernel wrote them: a[i*nj + 32*jj_out + jj_in] is
// i at pitch nj and 32*jj_out + jj_in at pitch 1. ok is false for a
// subscript with a floor.
func (p *plan) byParams(r gref) (l layout, ok bool, err error) {
	if len(r.index) != 1 || len(r.index[0].Floors) > 0 {
		return layout{}, false, nil
	}
	l = layout{parts: map[int64]qaff{}, c: r.index[0].Const}
	for _, t := range r.index[0].Terms {
		iname, params := p.splitTerm(t)
		v := int64(1)
		if params != "" {
			if v, err = (Affine{Terms: []Term{{params, 1}}}).Eval(p.at); err != nil {
				return layout{}, false, err
			}
		}
		if iname == "" {
			var tv int64
			if tv, err = mulInt(t.Coeff, v); err == nil {
				l.c, err = addInt(l.c, tv)
			}
		} else if v > 0 {
			err = l.add(v, iname, t.Coeff)
		} else {
			return layout{}, false, nil
		}
		if err != nil {
			return layout{}, false, err
		}
	}
	return l, true, nil
}

// byCoefficients writes address a along its own coefficients: each term
// at the largest of pitches (a chain) that divides its coefficient.
// w[(hid + 1)*(16*by + ty) + tx] at hid = 16 is by at 272, ty at 17
// and tx at 1.
func byCoefficients(a qaff, pitches []int64) layout {
	l := layout{parts: map[int64]qaff{}, c: a.c}
	for _, t := range a.terms {
		j := len(pitches) - 1
		for t.coef%pitches[j] != 0 {
			j--
		}
		_ = l.add(pitches[j], t.name, t.coef/pitches[j]) // a quotient of a coefficient
	}
	return l
}

// coefficients returns 1 and the absolute coefficients of the addresses'
// terms, ascending; ok is false where an address has a floor.
func coefficients(addrs []qaff) (pitches []int64, ok bool) {
	pitches = []int64{1}
	for _, a := range addrs {
		if len(a.floors) > 0 {
			return nil, false
		}
		for _, t := range a.terms {
			pitches = append(pitches, max(t.coef, -t.coef))
		}
	}
	slices.Sort(pitches)
	return slices.Compact(pitches), true
}

// isChain reports whether each of the ascending pitches divides the next.
func isChain(pitches []int64) bool {
	for j := 1; j < len(pitches); j++ {
		if pitches[j]%pitches[j-1] != 0 {
			return false
		}
	}
	return true
}

// delinearizeAt splits the addresses of an array's references at the
// plan's parameter values into dimensions, as delinearize does
// symbolically, so that their sets are boxes where the addresses alone
// would be residue classes, which the counter takes far fewer pieces to
// count. It writes the addresses along the products of parameters of
// the kernel's subscripts (byParams), or else along their own
// coefficients (byCoefficients); the pitches must form a chain
// 1 | s_1 | s_2 ..., and every index but the outermost must stay within
// 0 and s_{j+1}/s_j - 1 wherever its reference runs, so that distinct
// index tuples are distinct addresses. A pitch whose inner index leaves
// that range is merged into the one below it (in[(y + j)*(w + 16) + 16*x_out
// + x_in + i] is not split at 16, since x_in + i reaches 31). ok is false
// where no pitch but 1 is left; the addresses are then counted as they are.
func (p *plan) delinearizeAt(name string, refs []gref, addrs []qaff) (out [][]qaff, ok bool, err error) {
	layouts := make([]layout, len(refs))
	pitches := []int64{1}
	byP := true
	for i, r := range refs {
		if layouts[i], byP, err = p.byParams(r); !byP || err != nil {
			break
		}
		for v := range layouts[i].parts {
			pitches = append(pitches, v)
		}
	}
	if err != nil {
		return nil, false, err
	}
	slices.Sort(pitches)
	pitches = slices.Compact(pitches)
	if byP && isChain(pitches) {
		if out, ok, err = p.splitAll(name, refs, layouts, pitches); ok || err != nil {
			return out, ok, err
		}
	}
	pitches, ok = coefficients(addrs)
	if !ok || !isChain(pitches) {
		return nil, false, nil
	}
	for i, a := range addrs {
		layouts[i] = byCoefficients(a, pitches)
	}
	return p.splitAll(name, refs, layouts, pitches)
}

// splitAll splits every reference's layout along pitches, merging a
// pitch into the one below it where an index leaves its range, until
// the split holds or pitch 1 alone is left (ok false).
func (p *plan) splitAll(name string, refs []gref, layouts []layout, pitches []int64) (out [][]qaff, ok bool, err error) {
	layouts = slices.Clone(layouts)
	for len(pitches) > 1 {
		out = make([][]qaff, len(refs))
		bad := -1
		for i, l := range layouts {
			if out[i], bad, err = p.splitAt(name, refs[i], l, pitches); bad >= 0 || err != nil {
				break
			}
		}
		if err != nil {
			return nil, false, err
		}
		if bad < 0 {
			return out, true, nil
		}
		for i := range layouts {
			if layouts[i], err = layouts[i].merge(pitches[bad+1], pitches[bad]); err != nil {
				return nil, false, err
			}
		}
		pitches = slices.Delete(slices.Clone(pitches), bad+1, bad+2)
	}
	return nil, false, nil
}

// merge returns l with the part of pitch from moved into that of pitch
// to, which divides it.
func (l layout) merge(from, to int64) (layout, error) {
	m := layout{parts: map[int64]qaff{}, c: l.c}
	for v, e := range l.parts {
		m.parts[v] = e
	}
	e, err := m.parts[to].addScaled(m.parts[from], from/to)
	m.parts[to] = e
	delete(m.parts, from)
	return m, err
}

// splitAt returns the indices of reference r's layout l along pitches,
// outermost first, with the constant in mixed-radix digits: each inner
// digit in 0..s_{j+1}/s_j - 1 or, for a reference whose index starts
// above 0 (a[i*n + j - 1] for j >= 1), one radix lower; the first choice
// under which the split holds. Where none holds, bad is the first index
// (innermost 0) that leaves its range under the first choice.
func (p *plan) splitAt(name string, r gref, l layout, pitches []int64) (dims []qaff, bad int, err error) {
	m := len(pitches)
	digits := make([]int64, m)
	rest := l.c
	for j := m - 1; j > 0; j-- {
		digits[j] = floorDiv(rest, pitches[j])
		rest -= digits[j] * pitches[j]
	}
	digits[0] = rest
	moves := min(m-1, maxSplitsAt)
	first := -1
	for mask := range 1 << moves {
		dims = make([]qaff, m)
		d := slices.Clone(digits)
		for b := range moves {
			if mask&(1<<b) != 0 {
				d[b+1]++
				d[b] -= pitches[b+1] / pitches[b]
			}
		}
		for j := range dims {
			dims[j] = l.parts[pitches[j]].clone()
			dims[j].c = d[j]
		}
		bad, err := p.splitLeaves(name, r, dims, pitches)
		if err != nil {
			return nil, 0, err
		}
		if bad < 0 {
			slices.Reverse(dims)
			return dims, -1, nil
		}
		if first < 0 {
			first = bad
		}
	}
	return nil, first, nil
}

// splitLeaves returns the first index of dims (innermost first) but the
// outermost that leaves 0 and the ratio of its pitches less one where
// reference r runs, at the plan's parameter values; -1 for none.
func (p *plan) splitLeaves(name string, r gref, dims []qaff, pitches []int64) (int, error) {
	inames := p.k.inameOrder(r.inames)
	pieces, err := withConds(p.domainPieces(inames, nil, inames), r.conds, nil)
	if err != nil {
		return 0, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: %v", name, err)
	}
	for j := 0; j+1 < len(dims); j++ {
		below, _ := qconst(-1).addScaled(dims[j], -1) // e <= -1
		above, err := dims[j].addScaled(qconst(pitches[j+1]/pitches[j]), -1)
		if err != nil {
			return 0, err
		}
		n := p.counted(p.add(outOfRange(inames, pieces, below, above)))
		if n.err != nil {
			return 0, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: checking the split of its addresses at %s: %v", name, paramText(p.k.Params, p.at), n.err)
		}
		if !n.n.IsZero() {
			return j, nil
		}
	}
	return -1, nil
}
