package counts

import (
	"fmt"
	"slices"
)

// A data-bounded loop, "for j = LO .. HI max N ... end", is C's
// for (j = LO; j < HI; j++) whose bounds are data (CSR's row pointers):
// no domain can hold them, so the user states N, an affine bound on the
// number of trips in the parameters and outer inames. Where LO is data,
// the reader makes j an iname whose domain is 0 <= j < N (the trip: what
// counts run, an upper bound) and a private i32 temporary, also j, that
// holds its value (what the statements read: a subscript that names it is
// a gather). Where LO is an integer literal L (ELLPACK-R's for (i = 0; i <
// rowLength; i++)), j is an iname of domain L <= j < L + N and its own
// value, so that subscripts in it stay affine, with their strides.

// dataFor reads "j = LO .. HI max N" after a for: it declares the domain
// of j's trips and the temporary of its value, and returns j.
func (b *builder) dataFor(c *cursor, kw token) token {
	j := c.ident("an iname")
	c.expect("=")
	lo := c.parseExpr()
	c.expect("..")
	hi := c.parseExpr()
	if t := c.next(); !t.isWord("max") {
		c.failAt(t.pos, "expected 'max N' after the bounds of the loop over %s, found %s: N bounds the number of trips, HI - LO (for example the longest row's length, a size parameter)", j.text, t.describe())
	}
	if c.atEnd() {
		c.failAt(c.peek().pos, "expected the bound N after max")
	}
	at := c.peek().pos
	p := func(s string) token { return token{tPunct, s, at} }
	first := token{tInt, "0", at}
	lit, affine := lo.(*rNum)
	if affine = affine && lit.t.kind == tInt; affine {
		first = lit.t
	}
	toks := []token{p("{"), p("["), j, p("]"), p(":"), first, p("<="), j, p("<"), first, p("+")}
	var bound []token
	for !c.atEnd() {
		bound = append(bound, c.next())
	}
	toks = append(append(toks, bound...), p("}"), c.peek())
	nc := &cursor{file: c.file, toks: append(bound, c.peek()), products: true}
	n := nc.parseMax()
	nc.expectEnd()
	dc := &cursor{file: c.file, toks: toks}
	params, inames, set := dc.parseDomainSet()
	b.domains = append(b.domains, rawDomain{params, inames, set, kw.pos})
	if !affine {
		b.arrays = append(b.arrays, rawArray{name: j, dtype: I32, space: Private})
	}
	dl := rawDataLoop{kw: kw, iname: j, lo: lo, hi: hi, max: n}
	for _, bl := range b.blocks {
		dl.outer = append(dl.outer, bl.inames...)
	}
	b.dataLoops = append(b.dataLoops, dl)
	return j
}

// parseMax reads the bound N of a data-bounded loop, an integer affine
// expression: a quotient that divides exactly is kept, a floor of
// constants folds, and one that divides a parameter is refused with how
// to write it (the resolver refuses floor and ceil of a parameter).
func (c *cursor) parseMax() qaff {
	pos := c.peek().pos
	r := c.parseRSum()
	q, ok := r.integer()
	switch {
	case ok:
		return q
	case r.q.isConst():
		c.failAt(pos, "(%s)/%d is not an integer: write floor(e/d) or ceil(e/d)", r.q, r.den)
	}
	c.failAt(pos, "the max (%s)/%d divides a parameter or an iname, and a loop's max is affine in them: where it divides a parameter, %s", r.q, r.den, maxParameter)
	return qaff{}
}

// maxParameter says how to write a max that divides a parameter.
var maxParameter = dividedParameter("bound", "max nh")

// isDataLoop reports whether name is the iname of a data-bounded loop.
func (b *builder) isDataLoop(name string) bool {
	return slices.ContainsFunc(b.dataLoops, func(d rawDataLoop) bool { return d.iname.text == name })
}

// dataLoops resolves the bounds of the data-bounded loops and checks how
// the kernel uses them.
func (r *resolver) dataLoops() error {
	for _, dl := range r.b.dataLoops {
		name := dl.iname.text
		in := r.k.inameIndex[name]
		if in == nil {
			return r.errf(dl.iname.pos, "the loop over %s: %s was split; a data-bounded loop's index cannot be split", name, name)
		}
		if in.Tag.Parallel() {
			return r.errf(dl.iname.pos, "the loop over %s runs from data bounds and cannot be tagged %s: only a sequential loop can (drop the tag)", name, in.Tag)
		}
		if len(dl.max.floors) > 0 {
			return r.errf(dl.kw.pos, "the loop over %s: its max %s takes floor, ceil or mod of a parameter or an iname, and a loop's max is affine in them: where it divides a parameter, %s", name, dl.max, maxParameter)
		}
		d := &DataBounds{Max: affineOf(dl.max)}
		if _, ok := dl.lo.(*rNum); !ok {
			d.Value = r.k.arrayIndex[name]
		}
		var err error
		if d.Lo, err = r.dataBound(dl, dl.lo); err != nil {
			return err
		}
		if d.Hi, err = r.dataBound(dl, dl.hi); err != nil {
			return err
		}
		in.Data = d
		if err := r.checkDataLoop(dl, in); err != nil {
			return err
		}
	}
	return nil
}

// dataBound resolves LO or HI: an integer temporary or scalar argument
// declared before the loop, an iname, a parameter or an integer literal.
func (r *resolver) dataBound(dl rawDataLoop, e rexpr) (Expr, error) {
	hint := fmt.Sprintf("compute it into a temporary before the loop, as C's int end = rowptr[i + 1]; does, and write for %s = start .. end max N", dl.iname.text)
	switch e := e.(type) {
	case *rNum:
		if v, ok := parseInt(e.t.text, false); ok && e.t.kind == tInt {
			return &Literal{Int: v, T: I32, At: e.t.pos}, nil
		}
	case *rName:
		n := e.t.text
		if a := r.k.arrayIndex[n]; a != nil {
			switch {
			case len(a.Shape) > 0 || (a.Space != Private && a.Space != Argument):
				return nil, r.errf(e.t.pos, "the loop over %s: its bound %s is an array: %s", dl.iname.text, n, hint)
			case a.DType.IsFloat():
				return nil, r.errf(e.t.pos, "the loop over %s: its bound %s is %s, not an integer: convert it, <i32> b = (int)%s, before the loop", dl.iname.text, n, a.DType, n)
			case a.Space == Private && !before(a.Pos, dl.kw.pos):
				return nil, r.errf(e.t.pos, "the loop over %s: its bound %s is declared at %s, after the loop: declare it before", dl.iname.text, n, a.Pos)
			}
			return &Access{Array: a, At: e.t.pos}, nil
		}
		if r.k.inameIndex[n] != nil || r.isParam[n] {
			return &Index{Value: Affine{Terms: []Term{{n, 1}}}, At: e.t.pos}, nil
		}
		if a, ok := r.expand[n]; ok {
			return &Index{Value: a, At: e.t.pos}, nil
		}
		return nil, r.errf(e.t.pos, "the loop over %s: its bound %s is not declared", dl.iname.text, n)
	}
	return nil, r.errf(e.rpos(), "the loop over %s: a bound is a temporary, an iname, a parameter or an integer literal: %s", dl.iname.text, hint)
}

func before(a, b Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

// checkDataLoop refuses what C's loop would not do: assign its index or
// its bounds inside it, read the index outside it, a barrier inside it
// (work-items run it different numbers of times), a domain that names it,
// and a loop nested inside it whose domain comes first (loops nest in the
// order of their domains).
func (r *resolver) checkDataLoop(dl rawDataLoop, in *Iname) error {
	name, d := in.Name, in.Data
	bounds := map[*Array]bool{}
	var order []*Array // Lo's, then Hi's
	for _, x := range []Expr{d.Lo, d.Hi} {
		if a, ok := x.(*Access); ok {
			bounds[a.Array] = true
			order = append(order, a.Array)
		}
	}
	// The work-items on which a bound has a value: those of the last
	// instruction that assigns it.
	assigned := map[*Array][]string{}
	for _, s := range r.k.Statements {
		if ins, ok := s.(*Instruction); ok && bounds[ins.LHS.Array] {
			assigned[ins.LHS.Array] = slices.DeleteFunc(slices.Clone(ins.Within), func(n string) bool { return !r.k.inameIndex[n].Tag.Parallel() })
		}
	}
	for _, dom := range r.k.Domains {
		if slices.Contains(dom.Outer, name) {
			return r.errf(dom.pos, "this domain names %s, the index of the data-bounded loop at %s, whose values are data: bound it by parameters and other inames", name, dl.kw.pos)
		}
	}
	for _, s := range r.k.Statements {
		switch s := s.(type) {
		case *Barrier:
			if slices.Contains(s.Inames, name) {
				return r.errf(s.Pos, "a barrier inside the data-bounded loop over %s (%s), which work-items run different numbers of times: close the loop before the barrier", name, dl.kw.pos)
			}
		case *Instruction:
			inside := slices.Contains(s.Within, name)
			switch {
			case d.Value != nil && s.LHS.Array == d.Value:
				return r.errf(s.LHS.At, "%s is the index of the loop at %s, which C's loop advances: assign another temporary", name, dl.kw.pos)
			case inside && bounds[s.LHS.Array]:
				return r.errf(s.LHS.At, "%s is a bound of the loop over %s at %s and cannot change inside it: assign another temporary", s.LHS.Array.Name, name, dl.kw.pos)
			case d.Value != nil && !inside && readsArray(s, d.Value):
				return r.errf(s.Pos, "instruction %s reads %s outside the loop at %s, where it has no value: read it inside the loop", s.ID, name, dl.kw.pos)
			}
			if inside {
				for _, b := range order {
					for _, n := range assigned[b] {
						if !slices.Contains(s.Within, n) {
							return r.errf(s.Pos, "instruction %s runs in the loop over %s on work-items where its bound %s has no value (it does not run in %s, as %s's assignment does): put the loop in a for block over the inames that assignment runs in", s.ID, name, b.Name, n, b.Name)
						}
					}
				}
				for _, n := range r.k.Loops(s) {
					if n == name {
						break
					}
					if !slices.ContainsFunc(dl.outer, func(t token) bool {
						parts := r.splitInto[t.text]
						return t.text == n || parts[0] == n || parts[1] == n
					}) {
						return r.errf(s.Pos, "instruction %s: the loop over %s would enclose the data-bounded loop over %s at %s, as %s's domain comes first (loops nest in the order of their domains): declare %s's domain after that for line", s.ID, n, name, dl.kw.pos, n, n)
					}
				}
			}
		}
	}
	return nil
}

// readsArray reports whether s reads or writes a.
func readsArray(s *Instruction, a *Array) bool {
	found := s.LHS.Array == a
	for _, x := range append([]Expr{s.RHS, s.Pred}, s.LHS.Indirect...) {
		if x == nil {
			continue
		}
		Walk(x, func(e Expr) bool {
			if acc, ok := e.(*Access); ok && acc.Array == a {
				found = true
			}
			return !found
		})
	}
	return found
}

// dataLoop reports whether one of inames is a data-bounded loop's.
func (k *Kernel) dataLoop(inames []string) bool {
	return slices.ContainsFunc(inames, func(n string) bool { return k.inameIndex[n].Data != nil })
}
