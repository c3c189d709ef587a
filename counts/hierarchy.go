package counts

import (
	"errors"
	"math/big"
	"strconv"

	"github.com/uniperf/uniperf/polyhedra"
)

// Hierarchy returns the memory-hierarchy counts: for each global array in
// declaration order FootprintLaunch and FootprintGroup, and for each array
// the kernel loads ReuseWorkItem and, where it stores the array too,
// ReuseWorkItemStored; then the sum of each over the arrays. They are
// counted on the first call.
//
// The counts identify a work-group or a work-item by the values of its
// tagged inames; where several inames share an axis, they hold where
// those inames start at the same value (HierarchyAt checks it).
//
// Where a count has no symbolic form (a flattened subscript that does
// not split into dimensions along its pitches, parameters or affine
// factors of the array's extent, a set past the counter's budget), the
// error says so; HierarchyAt counts it at given sizes. A kernel with an
// indirect access (a subscript that reads data) has none either:
// HierarchyAt bounds the counts of its arrays with indirect accesses
// (see the package docs) and counts the others exactly.
func (c *Counted) Hierarchy() ([]HierarchyCount, error) {
	hs, err := c.hierarchy()
	if err != nil && len(c.IndirectArrays()) > 0 {
		// The error of an array with indirect accesses says what sizes give.
		return nil, err
	}
	if err != nil {
		return nil, c.atSizesHint(err)
	}
	out := make([]HierarchyCount, len(hs))
	for i, h := range hs {
		out[i] = h.HierarchyCount
	}
	return out, nil
}

// HierarchyAt returns the memory-hierarchy counts, as Hierarchy does,
// with their values at the given parameters. The parameters are checked
// as Eval checks them; inames that share a hardware axis must start at the
// same value there, and a value beyond int64 is an error.
//
// Where Hierarchy fails (a flattened subscript that does not split into
// dimensions, a set too large to count symbolically), HierarchyAt
// counts the sets again with every parameter fixed, where any affine
// subscript is affine in the inames: the counts are exact there, marked
// AtSizes, and their Expression is the value. Those of an array with
// indirect accesses are bounds, marked Approximate too: its footprints
// at most the executions of those accesses plus the cells of its affine
// references, and at most its extent (the launch's) or the groups times
// its extent (FootprintGroup); its repeats those of its affine loads, a
// lower bound (a further load adds one load and at most one distinct
// cell of its work-item), but 0 at the cells no store touches where an
// indirect access stores (any cell may be stored).
func (c *Counted) HierarchyAt(params map[string]int64) ([]HierarchyCount, []int64, error) {
	if err := c.checkAt(params); err != nil {
		return nil, nil, err
	}
	hs, err := c.hierarchy()
	if err != nil {
		if hs, err = c.hierarchyAtParams(params); err != nil {
			return nil, nil, err
		}
	}
	return c.evalHierarchy(hs, params)
}

// evalHierarchy returns the counts hs with their values at params; a
// count made at sizes shows its value as its expression.
func (c *Counted) evalHierarchy(hs []countedHierarchy, params map[string]int64) ([]HierarchyCount, []int64, error) {
	out := make([]HierarchyCount, len(hs))
	vals := make([]int64, len(hs))
	for i, h := range hs {
		out[i] = h.HierarchyCount
		var err error
		if vals[i], err = evalInt64(h.n, params); err != nil {
			return nil, nil, errorf(c.k.File, Pos{}, "kernel %s: %s of %s: %v", c.k.Name, h.Name, arrayOrAll(h.Array), err)
		}
		if h.AtSizes {
			out[i].Expression = strconv.FormatInt(vals[i], 10)
		}
	}
	return out, vals, nil
}

func arrayOrAll(a string) string {
	if a == "" {
		return "all arrays"
	}
	return a
}

// countHierarchy counts the counts of Hierarchy.
func (c *Counted) countHierarchy() ([]countedHierarchy, error) {
	// The plan is not safe for concurrent use: the footprints, which add
	// sets to it too, are counted first.
	if c.footprints != nil {
		_, _ = c.footprints()
	}
	// An array with indirect accesses refuses the symbolic counts before
	// any is counted.
	for _, a := range c.k.Arrays {
		if a.Space != Global {
			continue
		}
		if err := c.knownCells(a, "memory hierarchy", true); err != nil {
			return nil, err
		}
	}
	var per []countedHierarchy
	for _, a := range c.k.Arrays {
		u := c.plan.indirect[a.Name]
		if a.Space != Global || len(c.plan.refs[a.Name]) == 0 && u == nil {
			continue
		}
		hs, err := c.arrayHierarchy(a)
		if err == nil && u != nil {
			hs, err = c.boundHierarchy(a, u, hs)
		}
		var complex *polyhedra.ComplexityError
		if errors.As(err, &complex) {
			return nil, errorf(c.k.File, a.Pos, "kernel %s: memory hierarchy of %s: a %v%s", c.k.Name, a.Name, complex, hierarchySplitHint)
		}
		if err != nil {
			return nil, errorf(c.k.File, a.Pos, "kernel %s: memory hierarchy of %s: %v", c.k.Name, a.Name, err)
		}
		per = append(per, hs...)
	}
	var totals []countedHierarchy
	for _, name := range []string{FootprintLaunch, FootprintGroup, ReuseWorkItem, ReuseWorkItemStored} {
		var sum *polyhedra.PwQPolynomial
		total := countedHierarchy{HierarchyCount: HierarchyCount{Name: name}}
		for _, h := range per {
			if h.Name != name {
				continue
			}
			if sum == nil {
				sum = h.n
			} else if s, err := sum.Add(h.n); err != nil {
				return nil, errorf(c.k.File, Pos{}, "kernel %s: %s of all arrays: %v", c.k.Name, name, err)
			} else {
				sum = s
			}
			total.Approximate = total.Approximate || h.Approximate
		}
		if sum != nil {
			total.n, total.Expression = sum, sum.String()
			totals = append(totals, total)
		}
	}
	return append(per, totals...), nil
}

// hierarchySplitHint is what to write where an array's hierarchy sets are
// too complex to count: the set itself, kilobytes of constraints, is left
// out of the error. A flattened subscript that does not split into
// dimensions (rows of pitch w + 14 that overlap, or a pitch the extent
// does not declare) makes a floor division of every work-group's cells,
// where a dimension per pitch keeps them boxes.
const hierarchySplitHint = "; where its subscripts are flattened with a pitch that does not split them into dimensions (in[(y + k)*(w + 14) + x + k] where x + k reaches w + 14, or of an extent that is no multiple of w + 14), declare the array with a dimension per pitch and subscript each (in[y + k, x + k] of an array [h + 14, w + 14]), whose sets stay simple"

// arrayHierarchy counts the hierarchy counts of one global array.
func (c *Counted) arrayHierarchy(a *Array) ([]countedHierarchy, error) {
	p := c.plan
	refs := p.refs[a.Name]
	per, err := p.imagesOf(a.Name, refs)
	if err != nil {
		return nil, err
	}
	var all, loads, stores []image
	approx := false
	for i, r := range refs {
		all = append(all, per[i]...)
		if r.store {
			stores = append(stores, per[i]...)
		} else {
			loads = append(loads, per[i]...)
		}
		approx = approx || r.upper
	}
	var out []countedHierarchy
	add := func(name string, n *polyhedra.PwQPolynomial) {
		out = append(out, countedHierarchy{HierarchyCount{name, a.Name, n.String(), approx, false}, n})
	}
	size := big.NewRat(int64(a.DType.Size()), 1)
	for _, level := range []struct {
		name string
		cs   []coord
	}{{FootprintLaunch, nil}, {FootprintGroup, c.k.coords(false)}} {
		n, err := c.countPlaced(a.Name, all, nil, level.cs)
		if err != nil {
			return nil, err
		}
		add(level.name, n.Scale(size))
	}
	if len(loads) == 0 {
		return out, nil
	}
	// Repeats are load instances less distinct (work-item, cell) pairs;
	// at the cells some store touches, and at the others.
	items := c.k.coords(true)
	once, err := c.oncePerItem(a.Name, refs, per, items)
	if err != nil {
		return nil, err
	}
	if once {
		none, err := c.countSet(&uset{})
		if err != nil {
			return nil, err
		}
		add(ReuseWorkItem, none)
		if stores != nil {
			add(ReuseWorkItemStored, none)
		}
		return out, nil
	}
	repeats, err := c.repeats(a.Name, refs, per, loads, nil, items)
	if err != nil {
		return nil, err
	}
	if stores == nil {
		add(ReuseWorkItem, repeats)
		return out, nil
	}
	stored, err := c.repeats(a.Name, refs, per, loads, stores, items)
	if err != nil {
		return nil, err
	}
	readOnly, err := difference(repeats, stored)
	if err != nil {
		return nil, err
	}
	add(ReuseWorkItem, readOnly)
	add(ReuseWorkItemStored, stored)
	return out, nil
}

// repeats counts the loads among refs (per holds their images, loads
// those of the loads) that repeat a cell the same work-item loaded: the
// instances less the distinct (work-item, cell) pairs; with stores, at
// the cells those touch only.
func (c *Counted) repeats(name string, refs []gref, per [][]image, loads, stores []image, items []coord) (*polyhedra.PwQPolynomial, error) {
	inst, err := c.countInstances(name, refs, per, stores, items)
	if err != nil {
		return nil, err
	}
	pairs, err := c.countPlaced(name, loads, stores, items)
	if err != nil {
		return nil, err
	}
	return difference(inst, pairs)
}

// oncePerItem reports whether no work-item loads a cell of the array twice:
// for every pair of loads, and every load with itself, the set of
// work-items at which they touch one cell from two different points
// counts zero. Stencils then need no union of their (work-item, cell)
// pairs, which can take the counter past its budget (five translates of
// a tile).
func (c *Counted) oncePerItem(name string, refs []gref, per [][]image, items []coord) (bool, error) {
	p := c.plan
	var loads []int
	for i, r := range refs {
		if !r.store {
			loads = append(loads, i)
		}
	}
	meets := func(as, bs []image, self bool) (bool, error) {
		for _, a := range as {
			for _, b := range bs {
				meet, err := p.meeting(name, a, b, items, self)
				if err != nil {
					return false, err
				}
				n, err := c.countSet(meet)
				if err != nil || !n.IsZero() {
					return true, err
				}
			}
		}
		return false, nil
	}
	for x, i := range loads {
		twice, err := p.imagesOf(name, []gref{refs[i], refs[i]})
		if err != nil {
			return false, err
		}
		if m, err := meets(twice[0], twice[1], true); m || err != nil {
			return false, err
		}
		for _, j := range loads[x+1:] {
			if m, err := meets(per[i], per[j], false); m || err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// difference returns a - b.
func difference(a, b *polyhedra.PwQPolynomial) (*polyhedra.PwQPolynomial, error) {
	return a.Add(b.Scale(big.NewRat(-1, 1)))
}

// countPlaced counts placedCells.
func (c *Counted) countPlaced(name string, images, stores []image, cs []coord) (*polyhedra.PwQPolynomial, error) {
	u, err := c.plan.placedCells(name, images, stores, cs)
	if err != nil {
		return nil, err
	}
	return c.countSet(u)
}

// countInstances sums the instances of the loads among refs (per holds
// their images), at the cells stores touch when stores is not nil.
func (c *Counted) countInstances(name string, refs []gref, per [][]image, stores []image, cs []coord) (*polyhedra.PwQPolynomial, error) {
	sum, err := c.countSet(&uset{})
	if err != nil {
		return nil, err
	}
	for i, r := range refs {
		if r.store || len(per[i]) == 0 {
			continue
		}
		u, err := c.plan.instances(name, per[i], stores, cs, nil)
		if err != nil {
			return nil, err
		}
		n, err := c.countSet(u)
		if err != nil {
			return nil, err
		}
		if sum, err = sum.Add(n); err != nil {
			return nil, err
		}
	}
	return sum, nil
}

// countSet registers a set with the plan and counts it.
func (c *Counted) countSet(u *uset) (*polyhedra.PwQPolynomial, error) {
	r := c.plan.counted(c.plan.add(u))
	return r.n, r.err
}

// hierarchyAtParams counts the hierarchy counts at params, for a kernel
// whose symbolic counts failed: each is then the constant count there,
// marked AtSizes.
func (c *Counted) hierarchyAtParams(params map[string]int64) ([]countedHierarchy, error) {
	at, err := c.atParams(params)
	if err != nil {
		return nil, err
	}
	hs, err := at.countHierarchy()
	if err != nil {
		return nil, err
	}
	for i := range hs {
		hs[i].AtSizes = true
	}
	return hs, nil
}
