package counts

import "slices"

// ItemBounded reports whether the domain that declares iname bounds it
// by a constraint that names another, parallel iname too (a work-item's
// or a group's id): the code generated for each of its values then tests a
// condition that differs by work-item, as the convolution's
// BX*TX*gx + tx + BX*xi < w does for each xi of a work-item's tile.
// PoCL keeps such a test as a branch around each value's code, so that
// it neither vectorises the loop over the work-items nor packs the
// values' operations into one vector instruction (docs/model.md,
// guarded lanes). False for an iname the kernel does not have.
func (k *Kernel) ItemBounded(iname string) bool {
	in := k.inameIndex[iname]
	if in == nil {
		return false
	}
	for _, conj := range k.Domains[in.Domain].set {
		for _, x := range conj {
			if x.e.coefOf(iname) == 0 {
				continue
			}
			if slices.ContainsFunc(x.e.names(nil), func(n string) bool {
				o := k.inameIndex[n]
				return n != iname && o != nil && o.Tag.Parallel()
			}) {
				return true
			}
		}
	}
	return false
}
