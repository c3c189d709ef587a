package counts

import "slices"

// ownRange returns the values that the hardware index of local iname x
// runs over when the domain bounds x by itself: in each disjunct of the
// assumptions and x's domain, the constraints that mention x and
// parameters only, which must bound x from below and above. A CUDA or
// OpenCL host launches work-groups of the size its kernel was written
// for, "split i 256" groups of 256 at every n, with the domain as a
// guard; the constraints that tie x to other inames (256*i_out + i_in < n)
// are that guard, not the group's size. ok is false where some disjunct
// leaves x unbounded by itself (0 <= l and 16*g + l < n): the group is
// then as large as the domain projected onto x, at the sizes launched.
// Work-group inames always run over their projection, which launches no
// group without work.
func (k *Kernel) ownRange(x string) (own dnf, ok bool) {
	in := k.inameIndex[x]
	if in == nil || in.Tag.Kind != LocalID {
		return nil, false
	}
	set := k.assume.and(k.Domains[in.Domain].set)
	for _, c := range set {
		var kept conj
		lower, upper := false, false
		for _, con := range c {
			if slices.ContainsFunc(con.e.names(nil), func(n string) bool { return n != x && !slices.Contains(k.Params, n) }) {
				continue
			}
			kept = append(kept, con)
			switch a := con.e.coefOf(x); {
			case a != 0 && con.eq:
				lower, upper = true, true
			case a > 0:
				lower = true
			case a < 0:
				upper = true
			}
		}
		if !lower || !upper {
			return nil, false
		}
		own = append(own, kept)
	}
	return own, true
}

// IndexDomain returns, as an isl set over the parameters, the values
// that tagged iname x takes on the indices of its hardware axis (see
// Launch): for a local iname that the domain bounds by itself, its own
// range (0 <= i_in <= 255 for "split i 256"), otherwise the kernel domain
// projected onto x. Work-items whose value of x lies outside the domain
// are idle in the instructions that run in x.
func (k *Kernel) IndexDomain(x string) string {
	own, ok := k.ownRange(x)
	if !ok {
		return k.ProjectedDomain([]string{x})
	}
	return islSet(k.Params, []string{x}, own.String())
}
