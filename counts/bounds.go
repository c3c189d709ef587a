package counts

import "slices"

// ConstantRange returns the least and the greatest value of an iname over
// the kernel domain that the constraints imply whatever the values of the
// parameters, by interval propagation (hi < lo when it takes no values).
// ok is false when a bound depends on the parameters. Loopy asks the same
// of the inames of an "<> a[i]" declaration and of an l.auto tag; the
// hierarchy model, of the loops local-memory walks step along.
func (k *Kernel) ConstantRange(iname string) (lo, hi int64, ok bool) {
	r, ok := k.inameRange(iname)
	if !ok || r.loInf || r.hiInf {
		return 0, 0, false
	}
	return r.lo, r.hi, true
}

// inameRange is ConstantRange's interval, a side that depends on the
// parameters infinite; ok is false where it is not computed.
func (k *Kernel) inameRange(iname string) (ival, bool) {
	set := k.assume
	for _, di := range k.relevantDomains([]string{iname}) {
		if len(set)*len(k.Domains[di].set) > maxDisjuncts {
			return ival{}, false
		}
		set = set.and(k.Domains[di].set)
	}
	names := set.names()
	if !slices.Contains(names, iname) {
		return ival{}, false
	}
	e := newSetEngine(k.File, names, nil, nil)
	slot := e.slot[iname]
	r := ival{lo: 1, hi: 0}
	for _, c := range set {
		cc := &cconj{box: make([]ival, len(names))}
		for _, x := range c {
			ce := e.compile(x.e)
			cc.cons = append(cc.cons, ccons{e: ce, eq: x.eq, slots: ce.slots(nil)})
		}
		for i := range cc.box {
			cc.box[i] = unbounded
		}
		if propagate(cc, e.base, make([]bool, len(names)), 4*(len(names)+2)) {
			continue
		}
		b := cc.box[slot]
		if r.empty() {
			r = b
			continue
		}
		r = ival{lo: min(r.lo, b.lo), hi: max(r.hi, b.hi), loInf: r.loInf || b.loInf, hiInf: r.hiInf || b.hiInf}
	}
	return r, true
}

// parametricExtent returns the extent 0..U of an iname whose domain
// bounds it below by a constant lo >= 0 and above by one affine
// expression U of the parameters alone (i < n: n - 1), as U + 1, the
// shape of a global temporary that "<> a[i] = ..." declares; ok is false
// for any other form.
func (k *Kernel) parametricExtent(iname string) (ext Affine, lo int64, ok bool) {
	d := k.Domains[k.inameIndex[iname].Domain]
	if len(d.set) != 1 {
		return Affine{}, 0, false
	}
	var upper []qaff
	lo = -1
	for _, x := range d.set[0] {
		c := x.e.coefOf(iname)
		if c == 0 {
			continue
		}
		rest, _ := x.e.addScaled(qname(iname), -c)
		if len(rest.floors) > 0 || x.eq || c != 1 && c != -1 {
			return Affine{}, 0, false
		}
		for _, n := range rest.names(nil) {
			if !slices.Contains(k.Params, n) {
				return Affine{}, 0, false
			}
		}
		if c == 1 { // i + rest >= 0
			if !rest.isConst() {
				return Affine{}, 0, false
			}
			lo = max(lo, -rest.c)
			continue
		}
		upper = append(upper, rest) // rest - i >= 0
	}
	if len(upper) != 1 || lo < 0 {
		return Affine{}, 0, false
	}
	ext, err := affineOf(upper[0]).addScaled(Affine{Const: 1}, 1)
	return ext, lo, err == nil
}

// FirstValue returns the first value a sequential loop over iname takes
// as an affine expression of the parameters and the enclosing inames:
// its domain's one lower bound on it, iname >= L with L free of floors,
// or the greatest of several where one is a constant c that every
// other reaches at most, its inames' ranges (ConstantRange) bounding it
// (a split's inner iname, i_in >= 0 and 8*i_out + i_in >= 0 with i_out
// >= 0: 0). ok is false for any other form: an equality, a coefficient
// other than 1, a parameter in one of several bounds.
func (k *Kernel) FirstValue(iname string) (first Affine, ok bool) {
	in := k.inameIndex[iname]
	if in == nil {
		return Affine{}, false
	}
	d := k.Domains[in.Domain]
	if len(d.set) != 1 {
		return Affine{}, false
	}
	var lower []qaff
	for _, x := range d.set[0] {
		c := x.e.coefOf(iname)
		if c == 0 || c < 0 && !x.eq {
			continue
		}
		rest, _ := x.e.addScaled(qname(iname), -c)
		if x.eq || c != 1 || len(rest.floors) > 0 {
			return Affine{}, false
		}
		low, err := rest.scale(-1) // iname + rest >= 0
		if err != nil {
			return Affine{}, false
		}
		lower = append(lower, low)
	}
	if len(lower) == 1 {
		return affineOf(lower[0]), true
	}
	var c *int64
	for _, l := range lower {
		if l.isConst() && (c == nil || l.c > *c) {
			c = &l.c
		}
	}
	if c == nil {
		return Affine{}, false
	}
	for _, l := range lower {
		if top, ok := k.greatest(l); !ok || top > *c {
			return Affine{}, false
		}
	}
	return Affine{Const: *c}, true
}

// greatest returns the greatest value of a over the ranges of its
// inames (inameRange); ok is false where a names a parameter or an
// iname whose range is unbounded on the side that counts, or the sum
// overflows.
func (k *Kernel) greatest(a qaff) (int64, bool) {
	top := a.c
	for _, t := range a.terms {
		if k.inameIndex[t.name] == nil {
			return 0, false
		}
		r, ok := k.inameRange(t.name)
		if !ok || r.empty() || t.coef > 0 && r.hiInf || t.coef < 0 && r.loInf {
			return 0, false
		}
		v := r.hi
		if t.coef < 0 {
			v = r.lo
		}
		var err error
		if top, err = addScaled(top, v, t.coef); err != nil {
			return 0, false
		}
	}
	return top, true
}
