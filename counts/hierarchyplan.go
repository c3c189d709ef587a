package counts

import (
	"fmt"
	"slices"
	"strconv"
)

// This file builds the sets of the memory-hierarchy counts (see
// Counted.Hierarchy): the images of an array's references placed on the
// hardware, each point of an execution domain paired with the work-group
// (or the work-item) that executes it.

// coord is a hardware axis that a hierarchy set keeps apart: work-group
// index g.a or local id l.a, with the inames tagged with it. A point of
// the domain executes at the value of its tagged iname; an instruction
// outside every iname of an axis executes at each of the axis's values,
// the values of any iname tagged with it (Kernel.IndexDomain). Launch runs iname value
// base + q at index q, so the values stand for the indices when the
// inames that share an axis have the same base (checkBases).
type coord struct {
	tag    Tag
	inames []string
}

// coords lists the group axes with tagged inames, and with local the
// local axes too.
func (k *Kernel) coords(local bool) []coord {
	var out []coord
	kinds := []TagKind{Group}
	if local {
		kinds = append(kinds, LocalID)
	}
	for _, kind := range kinds {
		for a := range 3 {
			c := coord{tag: Tag{Kind: kind, Axis: a}}
			for _, in := range k.Inames {
				if in.Tag == c.tag {
					c.inames = append(c.inames, in.Name)
				}
			}
			if len(c.inames) > 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// checkBases reports an error where inames that share a hardware axis
// start at different values at params: the hierarchy's sets identify a
// work-group or work-item by the iname values it runs.
func (k *Kernel) checkBases(params map[string]int64) error {
	bases, err := k.IndexBases(params)
	if err != nil {
		return err
	}
	for _, c := range k.coords(true) {
		for _, x := range c.inames[1:] {
			b0, ok0 := bases[c.inames[0]]
			b, ok := bases[x]
			if ok0 && ok && b != b0 {
				return fmt.Errorf("inames %s and %s share axis %s but start at %d and %d: the memory-hierarchy counts identify work-groups and work-items by iname values, so the inames of an axis must start at the same value (split them from 0, or shift one)", c.inames[0], x, c.tag, b0, b)
			}
		}
	}
	return nil
}

// coordDims returns a fresh dimension per coordinate.
func (p *plan) coordDims(cs []coord) []string {
	dims := make([]string, len(cs))
	for i, c := range cs {
		dims[i] = p.freshName(fmt.Sprintf("%s%d", map[TagKind]string{Group: "grp", LocalID: "lid"}[c.tag.Kind], c.tag.Axis))
	}
	return dims
}

// placed returns the pieces of an image with each coordinate fixed in
// dims: to the reference's iname tagged with it, or, for an axis the
// reference runs outside of, to each value of the axis.
func (p *plan) placed(im image, dims []string, cs []coord) ([]piece, error) {
	pieces := []piece{{exists: slices.Clone(im.pc.exists), c: slices.Clone(im.pc.c)}}
	for i, c := range cs {
		own := slices.IndexFunc(im.ref.inames, func(x string) bool { return p.k.inameIndex[x].Tag == c.tag })
		if own >= 0 {
			at, _ := qname(dims[i]).addScaled(qname(im.names[im.ref.inames[own]]), -1)
			for j := range pieces {
				pieces[j].c = append(slices.Clone(pieces[j].c), cons{at, true})
			}
			continue
		}
		var out []piece
		for _, y := range c.inames {
			rename := p.copyNames([]string{y})
			at, _ := qname(dims[i]).addScaled(qname(rename[y]), -1)
			for _, d := range p.indexPieces(y, rename, nil) {
				for _, pc := range pieces {
					out = append(out, piece{exists: slices.Concat(pc.exists, d.exists), c: slices.Concat(pc.c, d.c, conj{{at, true}})})
				}
			}
		}
		if len(out) > maxDisjuncts {
			return nil, fmt.Errorf("placing its references on axis %s takes more than %d disjuncts", c.tag, maxDisjuncts)
		}
		pieces = out
	}
	return pieces, nil
}

// indexPieces returns the values that tagged iname y takes on its axis
// (Kernel.IndexDomain) as pieces over the renamed inames (identity when
// rename is nil), quantifying those not in keep, as domainPieces does.
func (p *plan) indexPieces(y string, rename map[string]string, keep []string) []piece {
	own, ok := p.k.ownRange(y)
	if !ok {
		return p.domainPieces([]string{y}, rename, keep)
	}
	r := y
	if rename != nil {
		r = rename[y]
	}
	var exists []string
	if !slices.Contains(keep, r) {
		exists = []string{r}
	}
	out := make([]piece, len(own))
	for i, c := range own {
		out[i] = piece{exists: exists, c: renameConj(c, rename)}
	}
	return out
}

// at constrains the cells dims to the image's subscripts.
func (im image) at(dims []string) conj {
	var c conj
	for d, ix := range im.idx {
		e, _ := ix.addScaled(qname(dims[d]), -1)
		c = append(c, cons{e, true})
	}
	return c
}

// cellDims returns a fresh dimension per dimension of an array's cells.
func (p *plan) cellDims(name string, n int) []string {
	dims := make([]string, n)
	for d := range dims {
		dims[d] = p.freshName(name + "_idx" + strconv.Itoa(d))
	}
	return dims
}

// placedCells returns the set of pairs (coordinates, cell) such that some
// image touches the cell there; with stores set, only the cells that
// some image of stores touches as well.
func (p *plan) placedCells(name string, images, stores []image, cs []coord) (*uset, error) {
	if len(images) == 0 {
		return &uset{}, nil
	}
	dims := p.coordDims(cs)
	cells := p.cellDims(name, len(images[0].idx))
	u := &uset{dims: slices.Concat(cells, dims)}
	for _, im := range images {
		pcs, err := p.placed(im, dims, cs)
		if err != nil {
			return nil, err
		}
		for _, pc := range pcs {
			pc.c = slices.Concat(pc.c, im.at(cells))
			u.pieces = append(u.pieces, storedToo(pc, stores, cells)...)
		}
	}
	return u, p.checkPieces(name, u)
}

// storedToo returns pc, or with stores, pc once per store image and
// within it (the cells dims must be a cell that image touches).
func storedToo(pc piece, stores []image, cells []string) []piece {
	if stores == nil {
		return []piece{pc}
	}
	var out []piece
	for _, s := range stores {
		out = append(out, piece{exists: slices.Concat(pc.exists, s.pc.exists), c: slices.Concat(pc.c, s.pc.c, s.at(cells))})
	}
	return out
}

// instances returns the set of points (coordinates, the reference's own
// inames but those of drop) at which a reference executes, given its
// images; with stores, only those whose cell some image of stores
// touches. The inames of drop are projected out: a point stands for
// every value of them at which the reference executes there.
func (p *plan) instances(name string, ref []image, stores []image, cs []coord, drop []string) (*uset, error) {
	// The reference's own inames place it on the axes it runs along;
	// only the others need a coordinate.
	cs = slices.DeleteFunc(slices.Clone(cs), func(c coord) bool {
		return slices.ContainsFunc(ref[0].ref.inames, func(x string) bool { return p.k.inameIndex[x].Tag == c.tag })
	})
	dims := p.coordDims(cs)
	var own []string
	for _, x := range ref[0].ref.inames {
		if !slices.Contains(drop, x) {
			own = append(own, ref[0].names[x])
		}
	}
	cells := p.cellDims(name, len(ref[0].idx))
	u := &uset{dims: slices.Concat(dims, own)}
	for _, im := range ref {
		pcs, err := p.placed(im, dims, cs)
		if err != nil {
			return nil, err
		}
		for _, pc := range pcs {
			pc.exists = slices.DeleteFunc(pc.exists, func(e string) bool { return slices.Contains(own, e) })
			if stores != nil {
				pc.exists = slices.Concat(pc.exists, cells)
				pc.c = slices.Concat(pc.c, im.at(cells))
			}
			u.pieces = append(u.pieces, storedToo(pc, stores, cells)...)
		}
	}
	return u, p.checkPieces(name, u)
}

// checkPieces bounds the pieces of a hierarchy set.
func (p *plan) checkPieces(name string, u *uset) error {
	if len(u.pieces) > maxDisjuncts {
		return errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: its references placed on the work-groups take %d disjuncts, more than %d", name, len(u.pieces), maxDisjuncts)
	}
	return nil
}

// meeting returns the set of work-items (coordinates cs) at which images
// a and b touch the same cell; with self (b a copy of a's reference), from
// two points that differ in an iname no axis tags.
func (p *plan) meeting(name string, a, b image, cs []coord, self bool) (*uset, error) {
	dims := p.coordDims(cs)
	cells := p.cellDims(name, len(a.idx))
	pa, err := p.placed(a, dims, cs)
	if err != nil {
		return nil, err
	}
	pb, err := p.placed(b, dims, cs)
	if err != nil {
		return nil, err
	}
	apart := []conj{nil}
	if self {
		apart = nil
		for _, x := range a.ref.inames {
			if !p.k.inameIndex[x].Tag.Parallel() {
				later, _ := qname(b.names[x]).addScaled(qname(a.names[x]), -1)
				later.c--
				apart = append(apart, conj{{later, false}})
			}
		}
	}
	u := &uset{dims: dims}
	for _, x := range pa {
		for _, y := range pb {
			for _, d := range apart {
				u.pieces = append(u.pieces, piece{exists: slices.Concat(x.exists, y.exists, cells), c: slices.Concat(x.c, y.c, a.at(cells), b.at(cells), d)})
			}
		}
	}
	return u, p.checkPieces(name, u)
}
