package counts

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// The per-iteration footprints see the reuse between the work-items of a
// group over a sequential loop: in a gemm tile, the group's footprint
// over the whole k loop is its rows of a and columns of b, far more than
// an L1 holds, yet at each k the work-items touch one column of the
// tile's rows and one row of its columns, which they share. A reference's
// iteration is the values of its sequential inames (those no hardware
// axis tags); the references of one loop nest (the same sequential
// inames) share their iterations.
const (
	// FootprintGroupIter is the number of distinct bytes of global
	// memory each work-group touches in each iteration, summed over the
	// work-groups, the iterations and the loop nests: the traffic into
	// L1 when the cells of one iteration stay there until the group's
	// work-items have all touched them, and no longer.
	FootprintGroupIter = "global.footprint.group.iter.bytes"
	// LoadCellsGroupIter is the number of distinct cells each work-group
	// loads in each iteration, summed like FootprintGroupIter: the loads
	// left when the work-items of a group share what they load in one
	// iteration. Counted per array only where the array is loaded.
	LoadCellsGroupIter = "global.load.cells.group.iter"
	// GroupIterations is the number of distinct (work-group, iteration)
	// pairs at which a global access executes, summed over the loop
	// nests; only for all arrays together. FootprintGroupIter over it is
	// a group's average working set in one iteration.
	GroupIterations = "global.group.iterations"
)

// IterFootprints returns the per-iteration counts, as HierarchyCounts:
// for each global array in declaration order FootprintGroupIter and,
// where the kernel loads it, LoadCellsGroupIter; then the sums over the
// arrays and GroupIterations. They are counted on the first call; where
// they have no symbolic form the error says so, and IterFootprintsAt
// counts them at given sizes.
func (c *Counted) IterFootprints() ([]HierarchyCount, error) {
	ic, err := c.iterFootprints()
	if err != nil {
		return nil, c.atSizesHint(err)
	}
	out := make([]HierarchyCount, len(ic.counts))
	for i, h := range ic.counts {
		out[i] = h.HierarchyCount
	}
	return out, nil
}

// IterFootprintsAt returns the per-iteration counts with their values at
// params, as HierarchyAt returns the hierarchy counts: counted again at
// params, exact and marked AtSizes, where IterFootprints fails.
func (c *Counted) IterFootprintsAt(params map[string]int64) ([]HierarchyCount, []int64, error) {
	ic, err := c.iterCountsAt(params)
	if err != nil {
		return nil, nil, err
	}
	return c.evalHierarchy(ic.counts, params)
}

// SharedLoadsAt returns, by load property, the loads at params that
// repeat a cell their reference loaded in the same iteration of the same
// work-group (another work-item's load, as a row of gemm's b that every
// row of work-items loads at each k): what L1 serves when a group's
// working set fits it. Only the references of stride 0 and 1 are counted
// (the class of another stride depends on the sizes); the loads two
// references share are not. It counts as IterFootprintsAt does.
func (c *Counted) SharedLoadsAt(params map[string]int64) (map[string]int64, error) {
	ic, err := c.iterCountsAt(params)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, s := range ic.shared {
		v, err := evalInt64(s.n, params)
		if err != nil {
			return nil, errorf(c.k.File, Pos{}, "kernel %s: shared loads of %s: %v", c.k.Name, s.property, err)
		}
		if out[s.property], err = addInt(out[s.property], v); err != nil {
			return nil, errorf(c.k.File, Pos{}, "kernel %s: shared loads of %s: %v", c.k.Name, s.property, err)
		}
	}
	return out, nil
}

// iterCountsAt checks params as Eval does, and that the inames of an
// axis start together there, and returns the symbolic counts, or where
// they fail the counts at params, marked AtSizes.
func (c *Counted) iterCountsAt(params map[string]int64) (*iterCounts, error) {
	if err := c.checkAt(params); err != nil {
		return nil, err
	}
	ic, err := c.iterFootprints()
	if err == nil {
		return ic, nil
	}
	at, err := c.atParams(params)
	if err != nil {
		return nil, err
	}
	if ic, err = at.countIterFootprints(); err != nil {
		return nil, err
	}
	for i := range ic.counts {
		ic.counts[i].AtSizes = true
	}
	return ic, nil
}

// loopNest is the references of one array that share their sequential
// inames: their images, and those of the loads among them.
type loopNest struct {
	seq           []string
	images, loads []image
}

// sequential returns the inames of a reference that no hardware axis
// tags, in its order.
func (k *Kernel) sequential(r gref) []string {
	var out []string
	for _, x := range r.inames {
		if !k.inameIndex[x].Tag.Parallel() {
			out = append(out, x)
		}
	}
	return out
}

// loopNests groups the references of an array by their sequential
// inames, in order of first reference.
func (c *Counted) loopNests(name string) ([]*loopNest, bool, error) {
	refs := c.plan.refs[name]
	per, err := c.plan.imagesOf(name, refs)
	if err != nil {
		return nil, false, err
	}
	var nests []*loopNest
	approx := false
	for i, r := range refs {
		seq := c.k.sequential(r)
		j := slices.IndexFunc(nests, func(n *loopNest) bool { return slices.Equal(n.seq, seq) })
		if j < 0 {
			nests = append(nests, &loopNest{seq: seq})
			j = len(nests) - 1
		}
		nests[j].images = append(nests[j].images, per[i]...)
		if !r.store {
			nests[j].loads = append(nests[j].loads, per[i]...)
		}
		approx = approx || r.upper
	}
	return nests, approx, nil
}

// countIterFootprints counts the counts of IterFootprints.
func (c *Counted) countIterFootprints() (*iterCounts, error) {
	// The plan is not safe for concurrent use: whatever else adds sets
	// to it is counted first.
	if c.hierarchy != nil {
		_, _ = c.hierarchy()
	}
	groups := c.k.coords(false)
	var per []countedHierarchy
	var shared []sharedLoads
	type nest struct {
		array  string
		seq    []string
		images []image
	}
	byNest := map[string]*nest{}
	var nestOrder []string
	anyApprox := false
	for _, a := range c.k.Arrays {
		if a.Space != Global || len(c.plan.refs[a.Name]) == 0 && c.plan.indirect[a.Name] == nil {
			continue
		}
		if err := c.knownCells(a, "per-iteration footprint", false); err != nil {
			return nil, err
		}
		nests, approx, err := c.loopNests(a.Name)
		if err != nil {
			return nil, errorf(c.k.File, a.Pos, "kernel %s: per-iteration footprint of %s: %v", c.k.Name, a.Name, err)
		}
		anyApprox = anyApprox || approx
		fp, loads, err := c.arrayIterCounts(a.Name, nests, groups)
		if err != nil {
			return nil, errorf(c.k.File, a.Pos, "kernel %s: per-iteration footprint of %s: %v", c.k.Name, a.Name, err)
		}
		sh, err := c.sharedLoads(a)
		if err != nil {
			return nil, errorf(c.k.File, a.Pos, "kernel %s: shared loads of %s: %v", c.k.Name, a.Name, err)
		}
		shared = append(shared, sh...)
		size := big.NewRat(int64(a.DType.Size()), 1)
		fp = fp.Scale(size)
		per = append(per, countedHierarchy{HierarchyCount{FootprintGroupIter, a.Name, fp.String(), approx, false}, fp})
		if loads != nil {
			per = append(per, countedHierarchy{HierarchyCount{LoadCellsGroupIter, a.Name, loads.String(), approx, false}, loads})
		}
		for _, n := range nests {
			key := strings.Join(n.seq, ",")
			if byNest[key] == nil {
				byNest[key] = &nest{array: a.Name, seq: n.seq}
				nestOrder = append(nestOrder, key)
			}
			byNest[key].images = append(byNest[key].images, n.images...)
		}
	}
	var totals []countedHierarchy
	for _, name := range []string{FootprintGroupIter, LoadCellsGroupIter} {
		sum, approx, err := sumOf(per, name)
		if err != nil {
			return nil, errorf(c.k.File, Pos{}, "kernel %s: %s of all arrays: %v", c.k.Name, name, err)
		}
		if sum != nil {
			totals = append(totals, countedHierarchy{HierarchyCount{name, "", sum.String(), approx, false}, sum})
		}
	}
	iters, err := c.countSet(&uset{})
	if err != nil {
		return nil, err
	}
	for _, key := range nestOrder {
		n := byNest[key]
		u, err := c.plan.iterPlaced(n.array, n.seq, n.images, groups, false)
		if err == nil {
			var k *polyhedra.PwQPolynomial
			if k, err = c.countSet(u); err == nil {
				iters, err = iters.Add(k)
			}
		}
		if err != nil {
			return nil, errorf(c.k.File, Pos{}, "kernel %s: %s: %v", c.k.Name, GroupIterations, err)
		}
	}
	totals = append(totals, countedHierarchy{HierarchyCount{GroupIterations, "", iters.String(), anyApprox, false}, iters})
	return &iterCounts{append(per, totals...), shared}, nil
}

// sharedLoads counts, for each load reference of the array of stride 0
// or 1, its instances less its distinct (group, iteration, cell)
// triples. The array's load references and its entries of plan.global
// that are loads come in the same order (atomics are stores).
func (c *Counted) sharedLoads(a *Array) ([]sharedLoads, error) {
	p := c.plan
	var strides []int64
	for _, g := range p.global {
		if g.array.Name == a.Name && !g.store {
			strides = append(strides, g.stride)
		}
	}
	var loads []gref
	for _, r := range p.refs[a.Name] {
		if !r.store {
			loads = append(loads, r)
		}
	}
	if len(loads) != len(strides) {
		return nil, fmt.Errorf("%d load references but %d load accesses", len(loads), len(strides))
	}
	per, err := p.imagesOf(a.Name, loads)
	if err != nil {
		return nil, err
	}
	groups, items := c.k.coords(false), c.k.coords(true)
	var out []sharedLoads
	for i, r := range loads {
		if strides[i] != 0 && strides[i] != 1 || len(per[i]) == 0 {
			continue
		}
		inst, err := c.countInstances(a.Name, loads[i:i+1], per[i:i+1], nil, items)
		if err != nil {
			return nil, err
		}
		u, err := p.iterPlaced(a.Name, c.k.sequential(r), per[i], groups, true)
		if err != nil {
			return nil, err
		}
		distinct, err := c.countSet(u)
		if err != nil {
			return nil, err
		}
		n, err := difference(inst, distinct)
		if err != nil {
			return nil, err
		}
		out = append(out, sharedLoads{globalProperty(false, a.ReadOnly, a.DType, strides[i], 0), n})
	}
	return out, nil
}

// arrayIterCounts counts an array's distinct (group, iteration, cell)
// triples over its loop nests, for all its references and for its loads
// (nil where it has none).
func (c *Counted) arrayIterCounts(name string, nests []*loopNest, groups []coord) (fp, loads *polyhedra.PwQPolynomial, err error) {
	count := func(seq []string, images []image) (*polyhedra.PwQPolynomial, error) {
		u, err := c.plan.iterPlaced(name, seq, images, groups, true)
		if err != nil {
			return nil, err
		}
		return c.countSet(u)
	}
	add := func(sum, n *polyhedra.PwQPolynomial) (*polyhedra.PwQPolynomial, error) {
		if sum == nil {
			return n, nil
		}
		return sum.Add(n)
	}
	for _, n := range nests {
		k, err := count(n.seq, n.images)
		if err == nil {
			fp, err = add(fp, k)
		}
		if err == nil && len(n.loads) > 0 {
			if k, err = count(n.seq, n.loads); err == nil {
				loads, err = add(loads, k)
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return fp, loads, nil
}

// sumOf sums the per-array counts of one name; nil where none has it.
func sumOf(per []countedHierarchy, name string) (*polyhedra.PwQPolynomial, bool, error) {
	var sum *polyhedra.PwQPolynomial
	approx := false
	for _, h := range per {
		if h.Name != name {
			continue
		}
		approx = approx || h.Approximate
		if sum == nil {
			sum = h.n
			continue
		}
		s, err := sum.Add(h.n)
		if err != nil {
			return nil, false, err
		}
		sum = s
	}
	return sum, approx, nil
}

// iterPlaced returns the set of (group coordinates, iteration) pairs at
// which some image executes, with cells the cell it touches there too.
// The iteration is the values of the sequential inames seq, which every
// image has. name is the array (the first one, for images of several
// arrays placed without cells).
func (p *plan) iterPlaced(name string, seq []string, images []image, cs []coord, cells bool) (*uset, error) {
	dims := p.coordDims(cs)
	its := make([]string, len(seq))
	for i, x := range seq {
		its[i] = p.freshName("it_" + x)
	}
	var cellDims []string
	if cells {
		cellDims = p.cellDims(name, len(images[0].idx))
	}
	u := &uset{dims: slices.Concat(cellDims, dims, its)}
	for _, im := range images {
		pcs, err := p.placed(im, dims, cs)
		if err != nil {
			return nil, err
		}
		for _, pc := range pcs {
			var at conj
			for i, x := range seq {
				e, _ := qname(its[i]).addScaled(qname(im.names[x]), -1)
				at = append(at, cons{e, true})
			}
			if cells {
				at = append(at, im.at(cellDims)...)
			}
			u.pieces = append(u.pieces, piece{exists: pc.exists, c: slices.Concat(pc.c, at)})
		}
	}
	return u, p.checkPieces(name, u)
}
