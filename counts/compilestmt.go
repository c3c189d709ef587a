package counts

// This file compiles the schedule into closures: a loop, barrier or
// guarded instruction per node.

type xnode interface{ exec(in *interp) }

type xloop struct {
	q    *query
	body []xnode
	// data names a data-bounded loop's iname, whose number of trips
	// the statements inside compare with their bounds (dataGuard).
	data string
}

func (x *xloop) exec(in *interp) {
	if x.data != "" {
		var n int64
		x.q.each(in.st.v, func() { n++ })
		in.trips[x.data] = n
	}
	x.q.each(in.st.v, func() {
		for _, n := range x.body {
			n.exec(in)
		}
	})
}

type xbarrier struct{ ctr int }

func (x xbarrier) exec(in *interp) {
	in.st.counters[x.ctr] += int64(in.nWorkItems)
	in.st.epoch++
}

type xinstr struct {
	guard *query
	items *itemGuard // the guard per work-item, where it depends on local ids
	body  func(st *state)
}

func (x *xinstr) exec(in *interp) {
	if x.items == nil && !x.guard.member(in.st.v) {
		return
	}
	if x.items != nil && !x.items.start(in.st.v) {
		return
	}
	for wi := 0; wi < in.nWorkItems; wi++ {
		in.setWorkItem(wi)
		if x.items != nil && !x.items.member(in.st.v) {
			continue
		}
		x.body(&in.st)
	}
}

func (in *interp) compileNodes(nodes []Node, loops []string) ([]xnode, error) {
	var out []xnode
	for _, n := range nodes {
		switch n := n.(type) {
		case *Loop:
			inner := append(append([]string(nil), loops...), n.Iname)
			dom, err := in.e.domain(inner)
			if err != nil {
				return nil, err
			}
			body, err := in.compileNodes(n.Body, inner)
			if err != nil {
				return nil, err
			}
			q := in.e.newQuery(dom, loops, []string{n.Iname})
			q.down = in.k.inameIndex[n.Iname].Tag.Kind == Down
			x := &xloop{q: q, body: body}
			if in.k.inameIndex[n.Iname].Data != nil {
				x.data = n.Iname
			}
			out = append(out, x)
		case *Barrier:
			out = append(out, xbarrier{in.counter(counterKey{kind: 2, stmt: n.ID})})
		case *Instruction:
			x, err := in.compileInstr(n)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
	}
	return out, nil
}

func (in *interp) compileInstr(ins *Instruction) (*xinstr, error) {
	in.stmt = ins.ID
	dom, err := in.e.domain(ins.Within)
	if err != nil {
		return nil, err
	}
	x := &xinstr{guard: in.e.newQuery(dom, ins.Within, nil)}
	local := make([]bool, len(in.e.base))
	for _, n := range in.k.Inames {
		if n.Tag.Kind == LocalID {
			local[in.e.slot[n.Name]] = true
		}
	}
	for _, n := range ins.Within {
		if in.k.inameIndex[n].Tag.Kind == LocalID {
			x.items = newItemGuard(x.guard, local)
		}
	}
	cx := &cctx{ins: ins, fixed: ins.Within}
	compile := in.compileStore
	if ins.Atomic {
		compile = in.compileAtomic
	}
	subs, err := in.compileSubscripts(ins.LHS, cx)
	if err != nil {
		return nil, err
	}
	store, err := compile(ins.LHS, cx, subs)
	if err != nil {
		return nil, err
	}
	var pred cval
	if ins.Pred != nil {
		if pred, err = in.compileExpr(ins.Pred, cx); err != nil {
			return nil, err
		}
	}
	val, err := in.compileExpr(ins.RHS, cx)
	if err != nil {
		return nil, err
	}
	if ins.LHS.Type().IsFloat() {
		x.body = func(st *state) { store(st, val.f(st), 0) }
	} else {
		x.body = func(st *state) { store(st, 0, val.i(st)) }
	}
	if pred.i != nil {
		assign := x.body
		x.body = func(st *state) {
			if pred.i(st) != 0 {
				assign(st)
			}
		}
	}
	if x.body, err = in.dataGuard(ins, cx, x.body); err != nil {
		return nil, err
	}
	return x, nil
}
