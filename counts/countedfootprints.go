package counts

import "math/big"

// Footprints returns the load and store footprints of every global
// array, arrays in declaration order, loads first; an array that is
// never loaded (stored) has no load (store) footprint. They are counted
// on the first call.
func (c *Counted) Footprints() ([]Footprint, error) {
	fps, err := c.footprints()
	if err != nil {
		return nil, err
	}
	out := make([]Footprint, len(fps))
	for i, f := range fps {
		out[i] = f.Footprint
	}
	return out, nil
}

// FootprintsAt returns the footprints, as Footprints does, with their
// sizes at the given parameters: sizes[i] is that of fps[i]. The
// parameters are checked as Eval checks them, and a size beyond int64 is
// an error.
func (c *Counted) FootprintsAt(params map[string]int64) (fps []Footprint, sizes []FootprintSize, err error) {
	if _, err := c.Eval(params); err != nil {
		return nil, nil, err
	}
	counted, err := c.footprints()
	if err != nil {
		return nil, nil, err
	}
	for _, f := range counted {
		n, err := evalInt64(f.elements, params)
		var b int64
		if err == nil {
			b, err = mulInt(n, int64(f.DType.Size()))
		}
		if err != nil {
			return nil, nil, errorf(c.k.File, Pos{}, "kernel %s: footprint of %s (%s): %v", c.k.Name, f.Array, direction(f.Store), err)
		}
		fps = append(fps, f.Footprint)
		sizes = append(sizes, FootprintSize{n, b})
	}
	return fps, sizes, nil
}

// countFootprints counts the footprints of Footprints.
func (c *Counted) countFootprints() ([]countedFootprint, error) {
	p := c.plan
	var out []countedFootprint
	for _, a := range c.k.Arrays {
		if a.Space != Global {
			continue
		}
		if err := c.knownCells(a, "footprint"); err != nil {
			return nil, err
		}
		for _, store := range []bool{false, true} {
			upper := false
			images, err := p.images(a.Name, func(r gref) bool {
				upper = upper || r.store == store && r.upper
				return r.store == store
			})
			if err != nil {
				return nil, err
			}
			if len(images) == 0 {
				continue
			}
			r := p.counted(p.add(p.cells(a.Name, images)))
			n, err := r.n, r.err
			if err != nil {
				return nil, errorf(c.k.File, a.Pos, "kernel %s: footprint of %s (%s): %v", c.k.Name, a.Name, direction(store), err)
			}
			b := n.Scale(big.NewRat(int64(a.DType.Size()), 1))
			out = append(out, countedFootprint{Footprint{a.Name, a.DType, store, n.String(), b.String(), upper}, n})
		}
	}
	return out, nil
}
