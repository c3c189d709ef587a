package counts

import (
	"fmt"
	"math/big"

	"github.com/uniperf/uniperf/polyhedra"
)

// The bounds of an array with indirect accesses (x of y[i] = x[idx[i]]),
// for the memory-hierarchy counts and the cache lines at given sizes:
// which cells its indirect accesses touch is data, but each execution
// touches one cell, and every cell lies in the array. So the distinct
// cells of a place (the launch, a work-group, a work-item) are at most
// the exact cells of the array's affine references there plus the
// executions of its indirect accesses there, and at most the array's
// extent. The counts sum over the places, so the bound of a sum is
//
//	min(affine cells summed + executions, places × extent)
//
// which is the sum of the places' own bounds where every place executes
// the indirect accesses as often (the groups of a regular grid), and
// above it elsewhere: an upper bound either way. Lines alike, in lines:
// an element lies in one line (elements are a power of two bytes, the
// array starts on a line), and the array spans ceil(extent × size /
// line) of them.
//
// The repeats that a work-item's loads make are bounded from below: a
// further load adds one instance and at most one (work-item, cell) pair,
// so the repeats of the affine loads alone are at most those of all the
// loads. The split by stores is kept where no indirect access stores
// (which cells the stores touch is then known); an indirect store can
// make any cell stored, so ReuseWorkItem is then 0, its lower bound, and
// ReuseWorkItemStored that of the affine references.
//
// Every such count is marked Approximate: a footprint or a line count an
// upper bound, a repeat count a lower bound.

// reach is what bounds an array's cells at the plan's parameters: the
// executions of its indirect accesses, its extent in cells, and the
// launch's work-groups and work-items.
type reach struct {
	executions, extent, groups, items int64
}

// reachOf returns the reach of array a with indirect accesses u at the
// plan's parameters (plan.at).
func (p *plan) reachOf(a *Array, u *indirectUse) (reach, error) {
	var r reach
	card := func(set int) (int64, error) {
		c := p.counted(set)
		if c.err != nil {
			return 0, c.err
		}
		return evalInt64(c.n, p.at)
	}
	for _, t := range u.counts {
		v, err := t.valueWith(card)
		if err == nil {
			r.executions, err = addInt(r.executions, v)
		}
		if err != nil {
			return r, errorf(p.k.File, u.first.At, "the executions of its indirect accesses at %s: %v", paramText(p.k.Params, p.at), err)
		}
	}
	r.extent = 1
	for d, s := range a.Shape {
		ext, err := s.Eval(p.at)
		if err == nil {
			r.extent, err = mulInt(r.extent, ext)
		}
		if err != nil {
			return r, fmt.Errorf("extent %s at %s: %w", s, paramText(p.k.Params, p.at), err)
		}
		if ext < 0 {
			// A negative extent would cap the cells below zero.
			return r, fmt.Errorf("extent %s along dimension %d is %d at %s, so its cells cannot bound those of its indirect accesses", s, d, ext, paramText(p.k.Params, p.at))
		}
	}
	global, local, err := p.k.Launch(p.at)
	if err != nil {
		return r, err
	}
	r.groups, r.items = 1, 1
	for ax := range 3 {
		// A grid beyond int64 caps nothing: the sums stay. An axis whose
		// inames are empty at these sizes has global size 0 (and local
		// size 0 where its local iname takes the domain's projection):
		// no work-item runs, so no group counts.
		r.groups = satMul(r.groups, global[ax]/max(local[ax], 1))
		r.items = satMul(r.items, global[ax])
	}
	return r, nil
}

// capped returns min(counted + executions, places × per): the bound on
// the distinct cells (or lines) summed over places, where counted are
// those of the affine references and per is what one place can touch.
func capped(counted, executions, places, per int64) (int64, error) {
	v, err := addInt(counted, executions)
	if err != nil {
		return 0, err
	}
	return min(v, satMul(places, per)), nil
}

// boundHierarchy returns the hierarchy counts of array a, with indirect
// accesses u, from hs, those of its affine references alone (in
// arrayHierarchy's order): each bounded as the top of this file says.
func (c *Counted) boundHierarchy(a *Array, u *indirectUse, hs []countedHierarchy) ([]countedHierarchy, error) {
	p := c.plan
	r, err := p.reachOf(a, u)
	if err != nil {
		return nil, err
	}
	val := map[string]int64{}
	for _, h := range hs {
		if val[h.Name], err = evalInt64(h.n, p.at); err != nil {
			return nil, err
		}
	}
	loaded, stored := u.loads, u.stores
	for _, ref := range p.refs[a.Name] {
		loaded, stored = loaded || !ref.store, stored || ref.store
	}
	var out []countedHierarchy
	add := func(name string, v int64) error {
		n, err := c.constant(v)
		if err == nil {
			out = append(out, countedHierarchy{HierarchyCount{name, a.Name, n.String(), true, false}, n})
		}
		return err
	}
	size := int64(a.DType.Size())
	for _, level := range []struct {
		name   string
		places int64
	}{{FootprintLaunch, 1}, {FootprintGroup, r.groups}} {
		cells, err := capped(val[level.name]/size, r.executions, level.places, r.extent)
		if err == nil {
			cells, err = mulInt(cells, size)
		}
		if err == nil {
			err = add(level.name, cells)
		}
		if err != nil {
			return nil, err
		}
	}
	if !loaded {
		return out, nil
	}
	reused := val[ReuseWorkItem]
	if u.stores {
		reused = 0
	}
	if err := add(ReuseWorkItem, reused); err != nil {
		return nil, err
	}
	if stored {
		if err := add(ReuseWorkItemStored, val[ReuseWorkItemStored]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// boundLines returns the line counts ns of array a (lineCounts' order),
// counted over its affine references alone, bounded for its indirect
// accesses u as the top of this file says.
func (c *Counted) boundLines(a *Array, u *indirectUse, ns []int64, lineBytes int64) ([]int64, error) {
	r, err := c.plan.reachOf(a, u)
	if err != nil {
		return nil, err
	}
	bytes, err := mulInt(r.extent, int64(a.DType.Size()))
	if err != nil {
		return nil, err
	}
	// ceilDiv, since bytes + lineBytes - 1 may overflow.
	lines := ceilDiv(bytes, lineBytes)
	out := make([]int64, len(ns))
	for i, places := range []int64{1, r.groups, r.items} {
		if out[i], err = capped(ns[i], r.executions, places, lines); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// constant returns the function of value v everywhere, for a count made
// at sizes.
func (c *Counted) constant(v int64) (*polyhedra.PwQPolynomial, error) {
	one := c.plan.counted(c.plan.add(&uset{pieces: []piece{{}}}))
	if one.err != nil {
		return nil, one.err
	}
	return one.n.Scale(big.NewRat(v, 1)), nil
}
