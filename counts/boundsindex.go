package counts

import "slices"

// indexDim names the value of the subscript in the set indexSet builds.
const indexDim = "__index"

// indexSet returns the values of subscript ix over the execution domain
// of b at params, a set of the one dimension indexDim.
func (c *Counted) indexSet(b boundedAccess, ix Affine, params map[string]int64) (*uset, error) {
	q, err := ix.at(params)
	if err != nil {
		return nil, err
	}
	pieces, err := c.accessDomain(b)
	if err != nil {
		return nil, err
	}
	eq, _ := q.addScaled(qname(indexDim), -1)
	u := &uset{dims: []string{indexDim}}
	for _, pc := range pieces {
		u.pieces = append(u.pieces, piece{exists: pc.exists, c: append(slices.Clone(pc.c), cons{eq, true})})
	}
	return u, nil
}

// accessDomain returns the execution domain of b: its inames' domains
// and its conditions, a set of the inames. It is b.domain where
// CheckBounds has found it, once for all the subscripts of an access
// (finding it anew for each took a sixth of the check's time for the
// tiled convolution).
func (c *Counted) accessDomain(b boundedAccess) ([]piece, error) {
	if b.domain != nil {
		return b.domain, nil
	}
	return withConds(c.plan.domainPieces(c.k.inameOrder(b.inames), nil, nil), b.conds, nil)
}
