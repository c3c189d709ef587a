package counts

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/uniperf/uniperf/polyhedra"
)

// newCountingPlan builds the counting plan of k and counts every set
// from the moment the plan registers it, and the maxima that launch
// sizes need from the moment the plan is complete.
func newCountingPlan(k *Kernel, opts Options, fixed map[string]int64) (*plan, error) {
	return buildPlanFixed(k, opts, true, fixed)
}

// buildPlan builds the counting plan of k; with eager false, it counts a
// set only when asked for (see counted).
func buildPlan(k *Kernel, opts Options, eager bool) (*plan, error) {
	return buildPlanFixed(k, opts, eager, nil)
}

// buildPlanFixed is buildPlan, with every set counted with the
// parameters fixed at fixed where it is not nil.
func buildPlanFixed(k *Kernel, opts Options, eager bool, fixed map[string]int64) (*plan, error) {
	p := &plan{eager: eager, k: k, opts: opts, index: map[string]int{}, proj: map[string]int{}, parts: map[string]piece{}, static: map[string][]term{}, fp: map[string]footprint{},
		names: map[string]bool{}, refs: map[string][]gref{}, indirect: map[string]*indirectUse{}, upper: map[string]bool{}, workers: newWorkers(), fixed: fixed}
	a := k.Assumptions()
	if a == "" {
		a = "0 = 0"
	}
	var err error
	if p.ctx, err = polyhedra.ParseSet(islSet(k.Params, nil, a)); err != nil {
		return nil, errorf(k.File, Pos{}, "kernel %s: assumptions: %v", k.Name, err)
	}
	for _, in := range k.Inames {
		p.names[in.Name] = true
	}
	for _, n := range k.Params {
		p.names[n] = true
	}
	for _, a := range k.Arrays {
		p.names[a.Name] = true
	}
	for _, s := range k.Statements {
		switch s := s.(type) {
		case *Instruction:
			err = p.instruction(s)
		case *Barrier:
			t := term{1, append([]factor{{p.projection(s.Inames)}}, p.axes(nil, true)...), source{stmt: s}}
			p.static["sync.barrier"] = append(p.static["sync.barrier"], t)
		}
		if err != nil {
			return nil, err
		}
	}
	var groups []factor
	for a := range 3 {
		if f, ok := p.axisSize(0, a); ok {
			groups = append(groups, f)
		}
	}
	p.static["launch.groups"] = []term{{1, groups, source{}}}
	p.static["launch.const"] = []term{{1, nil, source{}}}
	// Utilization matters only for arrays with accesses of stride 2 and
	// more; only those get footprints.
	for _, g := range p.global {
		if _, done := p.fp[g.array.Name]; done || g.stride == 0 || g.stride == 1 {
			continue
		}
		if err := p.footprints(g.array.Name); err != nil {
			return nil, err
		}
	}
	if p.eager {
		p.startMaxes()
	}
	return p, nil
}

// instruction adds the operations and memory traffic of one instruction,
// and with Options.CountSubscripts the arithmetic of its subscripts. The
// store and the right-hand side count where the predicate holds, the
// predicate everywhere; inside conditions they count where the conditions
// let them be evaluated (see where).
func (p *plan) instruction(ins *Instruction) error {
	axes := p.axes(ins.Within, false)
	site := 0
	countAt := func(red []string, w where) (term, error) {
		set, err := p.projectionWhere(append(slices.Clone(ins.Within), red...), w.conds)
		if err != nil {
			return term{}, errorf(p.k.File, ins.Pos, "instruction %s: %v", ins.ID, err)
		}
		return term{1, append([]factor{{set}}, axes...), source{ins, ins.LHS.Array.Name}}, nil
	}
	static := func(name string, t term, w where) {
		p.static[name] = append(p.static[name], t)
		p.upper[name] = p.upper[name] || w.upper
	}
	var visit func(e Expr, red []string, w where) error
	mem := func(acc *Access, red []string, store bool, w where) error {
		a := acc.Array
		if acc.IsIndirect() {
			return p.indirectAccess(acc, store, store && ins.Atomic, func(x Expr) error { return visit(x, red, w) },
				func(name string) (term, error) {
					count, err := countAt(red, w)
					count.src.array = a.Name
					static(name, count, w)
					return count, err
				})
		}
		if len(acc.Index) > 0 && !w.upper {
			p.bounded = append(p.bounded, boundedAccess{acc, ins, append(slices.Clone(ins.Within), red...), w.conds, nil})
		}
		if a.Space == Argument || (a.Space == Private && !p.opts.CountSubscripts) {
			return nil
		}
		count, err := countAt(red, w)
		if err != nil {
			return err
		}
		count.src.array = a.Name
		if p.opts.CountSubscripts {
			for _, op := range p.subscripts(acc, count) {
				p.upper[op.Property()] = p.upper[op.Property()] || w.upper
			}
		}
		switch a.Space {
		case Local:
			if store && ins.Atomic {
				static(atomicProperty(Local, a.DType), count, w)
				return nil
			}
			static(memProperty(Local, MemAccess{DType: a.DType, Store: store}), count, w)
			if !store {
				p.locals = append(p.locals, localLoad{ins, acc, gref{acc.Index, append(slices.Clone(ins.Within), red...), false, w.conds, w.upper}})
			}
			return p.conflicts(acc, ins, red, w, count)
		case Global:
			inames := append(slices.Clone(ins.Within), red...)
			if store && ins.Atomic {
				// An atomic has no stride class: its cost is the
				// contention, which the measurement class sets.
				static(atomicProperty(Global, a.DType), count, w)
				p.refs[a.Name] = append(p.refs[a.Name], gref{acc.Index, inames, store, w.conds, w.upper})
				return nil
			}
			stride, coef, err := p.k.accessStride(acc, inames)
			if err != nil {
				return errorf(p.k.File, acc.At, "instruction %s: stride of %s: %v", ins.ID, acc, err)
			}
			p.global = append(p.global, globalAccess{ins: ins, site: site, array: a, store: store, stride: stride, coef: coef, count: count, upper: w.upper})
			p.refs[a.Name] = append(p.refs[a.Name], gref{acc.Index, inames, store, w.conds, w.upper})
			site++
		}
		return nil
	}
	visit = func(e Expr, red []string, w where) error {
		switch e := e.(type) {
		case *Access:
			return mem(e, red, false, w)
		case *Reduce:
			inner := append(slices.Clone(red), e.Inames...)
			t, err := countAt(inner, w)
			if err != nil {
				return err
			}
			static(reduceOp(e).Property(), t, w)
			return visit(e.Body, inner, w)
		case *Logic:
			// Each operand runs where the ones before it did not decide
			// the result: a chain of n is one pass, not n passes over
			// ever longer prefixes.
			ops := logicOperands(e)
			// cur's conditions are this loop's own, narrowed in place.
			cur, exact := where{conds: slices.Clone(w.conds), upper: w.upper}, true
			n := cur.disjuncts()
			for i, x := range ops {
				if err := visit(x, red, cur); err != nil {
					return err
				}
				if i == len(ops)-1 || !exact {
					continue
				}
				k := len(cur.conds)
				cur.narrow(x, e.Or)
				if n = cur.disjunctsFrom(n, k); n > maxDisjuncts {
					cur, exact = where{conds: w.conds, upper: true}, false
				}
			}
			return nil
		case *Conditional:
			then, els := w, w
			if !e.Eager {
				then, els = w.and(e.Cond, false), w.and(e.Cond, true)
			}
			for i, x := range []Expr{e.Cond, e.Then, e.Else} {
				if err := visit(x, red, []where{w, then, els}[i]); err != nil {
					return err
				}
			}
			return nil
		}
		if op, ok := nodeOp(e); ok {
			t, err := countAt(red, w)
			if err != nil {
				return err
			}
			static(op.Property(), t, w)
		}
		var kids []Expr
		switch e := e.(type) {
		case *Binary:
			kids = []Expr{e.X, e.Y}
		case *Compare:
			kids = []Expr{e.X, e.Y}
		case *Neg:
			kids = []Expr{e.X}
		case *BitNot:
			kids = []Expr{e.X}
		case *Not:
			kids = []Expr{e.X}
		case *Cast:
			kids = []Expr{e.X}
		case *Call:
			kids = e.Args
		}
		for _, k := range kids {
			if err := visit(k, red, w); err != nil {
				return err
			}
		}
		return nil
	}
	// Inside a data-bounded loop everything counts over its N trips, an
	// upper bound of the HI - LO it runs.
	always := where{upper: p.k.dataLoop(ins.Within)}
	body := always
	if ins.Pred != nil {
		body = body.and(ins.Pred, false)
	}
	if err := mem(ins.LHS, nil, true, body); err != nil {
		return err
	}
	if ins.Pred != nil {
		if err := visit(ins.Pred, nil, always); err != nil {
			return err
		}
	}
	return visit(ins.RHS, nil, body)
}

// maxFootprintImages bounds the references (times their domains'
// disjuncts) of an array whose footprint is counted: the extents
// intersect two unions of one set per reference, which takes a basic
// set per pair of them.
const maxFootprintImages = 8

// footprints adds the footprint of a global array, the cells its
// references touch, and for each dimension the extent of the footprint
// along it (max - min + 1 of that index over the footprint); the
// filled-in footprint is the bounding box, the product of the extents.
//
// The cells are the union of the images of the references' execution
// domains under their subscripts; the extent along a dimension is the
// size of the interval from the smallest to the largest index of any
// reference, the values t with I' <= t <= I for indices I and I' of two
// (or the same) references.
func (p *plan) footprints(name string) error {
	a := p.k.arrayIndex[name]
	images, err := p.images(name, func(gref) bool { return true })
	if err != nil {
		return err
	}
	if len(images) > maxFootprintImages {
		return errorf(p.k.File, a.Pos, "array %s: %d references (with their domains' disjuncts) are too many to count its footprint (at most %d)", name, len(images), maxFootprintImages)
	}
	f := footprint{cells: p.add(p.cells(name, images))}
	for d := range images[0].idx {
		t := p.freshName(name + "_ext" + strconv.Itoa(d))
		hull := &uset{dims: []string{t}}
		for _, im := range images {
			// t <= I: some image's index is at least t.
			below, _ := im.idx[d].addScaled(qname(t), -1)
			hull.pieces = append(hull.pieces, piece{exists: im.pc.exists, c: slices.Concat(im.pc.c, conj{{below, false}})})
			// t >= I', over a copy of the image renamed apart.
			rename := map[string]string{}
			var ex []string
			for _, e := range im.pc.exists {
				rename[e] = p.freshName(e)
				ex = append(ex, rename[e])
			}
			above, _ := qname(t).addScaled(renameQaff(im.idx[d], rename), -1)
			hull.meet = append(hull.meet, piece{exists: ex, c: slices.Concat(renameConj(im.pc.c, rename), conj{{above, false}})})
		}
		f.extents = append(f.extents, p.add(hull))
	}
	p.fp[name] = f
	return nil
}

// image is the part of an array that one reference touches in one
// disjunct of its execution domain: the domain over the reference's own
// copy of the inames (all existential), and the subscripts over them.
type image struct {
	pc  piece
	idx []qaff
	// ref is the reference, names the copies of the inames of its
	// domains, for the hierarchy's sets (see placed).
	ref   gref
	names map[string]string
}

// images returns an image per reference to a global array that keep
// accepts and per disjunct of its domain.
func (p *plan) images(name string, keep func(gref) bool) ([]image, error) {
	per, err := p.imagesOf(name, widest(p.refs[name], keep))
	return slices.Concat(per...), err
}

// imagesOf returns, for each reference of refs (references to a global
// array, delinearized together), an image per disjunct of its domain.
func (p *plan) imagesOf(name string, refs []gref) ([][]image, error) {
	index, err := p.subscriptsOf(name, refs)
	if err != nil {
		return nil, err
	}
	per := make([][]image, len(refs))
	for i, r := range refs {
		if per[i], err = p.domainImages(name, r); err != nil {
			return nil, err
		}
		for j := range per[i] {
			for _, ix := range index[i] {
				per[i][j].idx = append(per[i][j].idx, renameQaff(ix, per[i][j].names))
			}
		}
	}
	return per, nil
}

// domainImages returns an image of reference r to array name per
// disjunct of its domain, without subscripts: the points at which it
// executes, over its own copy of the inames.
func (p *plan) domainImages(name string, r gref) ([]image, error) {
	rename := p.copyNames(r.inames)
	pieces, err := withConds(p.domainPieces(r.inames, rename, nil), r.conds, rename)
	if err != nil {
		return nil, errorf(p.k.File, p.k.arrayIndex[name].Pos, "array %s: %v", name, err)
	}
	out := make([]image, len(pieces))
	for i, pc := range pieces {
		out[i] = image{pc: pc, ref: r, names: rename}
	}
	return out, nil
}

// subscriptsOf returns the subscripts of each reference to array name as
// affine expressions of the inames: delinearized (see delinearize), or
// with the plan counting at parameter values (plan.at), for an array of
// one dimension or a subscript that multiplies an iname by a parameter,
// the references' row-major addresses there, split into dimensions
// where they split (see delinearizeAt).
func (p *plan) subscriptsOf(name string, refs []gref) ([][]qaff, error) {
	out := make([][]qaff, len(refs))
	flat := slices.ContainsFunc(refs, flattened)
	if p.at != nil && (flat || len(p.k.arrayIndex[name].Shape) == 1) {
		for i, r := range refs {
			a, err := p.addressAt(name, r)
			if err != nil {
				return nil, err
			}
			out[i] = []qaff{a}
		}
		split, ok, err := p.delinearizeAt(name, refs, slices.Concat(out...))
		switch {
		case err != nil:
			return nil, err
		case ok:
			return split, nil
		case flat:
			return out, nil
		}
	}
	index, err := p.delinearize(name, refs)
	if err != nil {
		return nil, err
	}
	for i, ix := range index {
		for _, x := range ix {
			out[i] = append(out[i], x.qaff())
		}
	}
	return out, nil
}

// widest returns the references that keep accepts, less those whose
// image another one's contains: a reference with the same inames and
// subscripts under fewer conditions (a predicated copy of an access
// touches no cell the access does not). The union of the images, and so
// the footprint, stays the same, with fewer sets to unite.
func widest(refs []gref, keep func(gref) bool) []gref {
	var out []gref
	for _, r := range refs {
		if !keep(r) || slices.ContainsFunc(out, func(o gref) bool { return contains(o, r) }) {
			continue
		}
		out = slices.DeleteFunc(out, func(o gref) bool { return contains(r, o) })
		out = append(out, r)
	}
	return out
}

// contains reports whether reference a's image contains b's because they
// access the same subscripts over the same inames and a's conditions are
// among b's.
func contains(a, b gref) bool {
	if !slices.Equal(a.inames, b.inames) || fmt.Sprint(a.index) != fmt.Sprint(b.index) {
		return false
	}
	for _, c := range a.conds {
		if !slices.ContainsFunc(b.conds, func(d dnf) bool { return fmt.Sprint(c) == fmt.Sprint(d) }) {
			return false
		}
	}
	return true
}

// cells returns the set of cells of an array that some image touches,
// over fresh index variables: the union of the images of the execution
// domains under the subscripts. An element that several points or
// references touch is one point of the set.
func (p *plan) cells(name string, images []image) *uset {
	dims := make([]string, len(images[0].idx))
	for d := range dims {
		dims[d] = p.freshName(name + "_idx" + strconv.Itoa(d))
	}
	cells := &uset{dims: dims}
	for _, im := range images {
		pc := piece{exists: im.pc.exists, c: slices.Clone(im.pc.c)}
		for d, ix := range im.idx {
			e, _ := ix.addScaled(qname(dims[d]), -1)
			pc.c = append(pc.c, cons{e, true})
		}
		cells.pieces = append(cells.pieces, pc)
	}
	return cells
}

// conflicts adds the bank-conflict classes of a local access (see
// bankClasses): all of count in one class where its warps agree; where
// they differ, each class's lanes times the executions of the rest of
// the instruction where that is exact, and otherwise all of count in the
// largest class, as an upper bound.
func (p *plan) conflicts(acc *Access, ins *Instruction, red []string, w where, count term) error {
	banks, bytes := p.opts.banks()
	inames := append(slices.Clone(ins.Within), red...)
	classes, factored, upper, err := p.k.bankClasses(acc, inames, w.conds, banks, bytes, p.opts.Shared)
	if err != nil {
		return errorf(p.k.File, acc.At, "instruction %s: bank conflicts of %s: %v", ins.ID, acc, err)
	}
	add := func(degree int64, t term, upper bool) {
		if degree > 1 {
			name := conflictProperty(acc.Array.DType, degree)
			p.static[name] = append(p.static[name], t)
			p.upper[name] = p.upper[name] || upper
		}
	}
	switch {
	case len(classes) == 1:
		add(classes[0].degree, count, w.upper || upper)
		return nil
	case len(classes) == 0:
		return nil
	case !factored:
		add(classes[len(classes)-1].degree, count, true)
		return nil
	}
	// The executions of everything but the lanes: the instruction's
	// other inames where its conditions on them hold, on every group.
	var rest []string
	for _, n := range inames {
		if p.k.inameIndex[n].Tag.Kind != LocalID {
			rest = append(rest, n)
		}
	}
	var restConds []dnf
	for _, d := range w.conds {
		if !slices.ContainsFunc(d.names(), func(n string) bool { return slices.Contains(inames, n) && !slices.Contains(rest, n) }) {
			restConds = append(restConds, d)
		}
	}
	set, err := p.projectionWhere(rest, restConds)
	if err != nil {
		return errorf(p.k.File, ins.Pos, "instruction %s: %v", ins.ID, err)
	}
	for _, c := range classes {
		add(c.degree, term{c.lanes, append([]factor{{set}}, p.axes(ins.Within, false)...), source{ins, acc.Array.Name}}, w.upper)
	}
	return nil
}
