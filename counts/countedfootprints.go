package counts

import (
	"math/big"
	"strconv"
)

// Footprints returns the load and store footprints of every global
// array, arrays in declaration order, loads first; an array that is
// never loaded (stored) has no load (store) footprint. They are counted
// on the first call.
//
// Where a footprint has no symbolic form, the error says so;
// FootprintsAt counts it at given sizes.
func (c *Counted) Footprints() ([]Footprint, error) {
	fps, err := c.footprints()
	if err != nil {
		return nil, c.atSizesHint(err)
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
// an error. Where Footprints fails, FootprintsAt counts them at the
// parameters as HierarchyAt does, marked AtSizes.
func (c *Counted) FootprintsAt(params map[string]int64) (fps []Footprint, sizes []FootprintSize, err error) {
	if _, err := c.Eval(params); err != nil {
		return nil, nil, err
	}
	counted, err := c.footprints()
	if err != nil {
		if counted, err = c.footprintsAtParams(params); err != nil {
			return nil, nil, err
		}
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
		if err := c.knownCells(a, "footprint", false); err != nil {
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
			out = append(out, countedFootprint{Footprint{a.Name, a.DType, store, n.String(), b.String(), upper, false}, n})
		}
	}
	return out, nil
}

// footprintsAtParams counts the footprints at params, for a kernel whose
// symbolic footprints failed, marked AtSizes.
func (c *Counted) footprintsAtParams(params map[string]int64) ([]countedFootprint, error) {
	at, err := c.atParams(params)
	if err != nil {
		return nil, err
	}
	fps, err := at.countFootprints()
	if err != nil {
		return nil, err
	}
	for i := range fps {
		fps[i].AtSizes = true
		n, err := evalInt64(fps[i].elements, params)
		if err != nil {
			return nil, err
		}
		fps[i].Elements = strconv.FormatInt(n, 10)
		b, err := mulInt(n, int64(fps[i].DType.Size()))
		if err != nil {
			return nil, err
		}
		fps[i].Bytes = strconv.FormatInt(b, 10)
	}
	return fps, nil
}
