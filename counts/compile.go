package counts

import (
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/counts/half"
)

// The interpreter compiles the schedule (compilestmt.go) and the
// instructions' expressions (compileexpr.go) into closures over the
// interpreter state. This file holds the compiled values and the
// compiling of memory accesses: subscripts, loads and stores with their
// bounds, race checks, counters and traces.

// cctx is the context of expression compilation: the instruction and the
// inames with values at the node (its Within plus enclosing reductions).
type cctx struct {
	ins   *Instruction
	fixed []string
	sites int
}

type (
	fexpr func(st *state) float64
	iexpr func(st *state) int64
)

// cval is a compiled expression: f for floating-point types, i for
// integer types.
type cval struct {
	f fexpr
	i iexpr
}

// caff is an Affine compiled to slots; eval reports overflow.
type caff struct {
	terms  []caffTerm
	c      int64
	floors []caffFloor
}

// caffFloor is coef times floor(num/den).
type caffFloor struct {
	coef int64
	num  caff
	den  int64
}

// caffTerm is coef times the product of the values in slots.
type caffTerm struct {
	slots []int
	coef  int64
}

func (in *interp) compileAffine(a Affine) caff {
	c := caff{c: a.Const}
	for _, t := range a.Terms {
		ct := caffTerm{coef: t.Coeff}
		for _, f := range t.Factors() {
			ct.slots = append(ct.slots, in.e.slot[f])
		}
		c.terms = append(c.terms, ct)
	}
	for _, f := range a.Floors {
		c.floors = append(c.floors, caffFloor{f.Coeff, in.compileAffine(f.Num), f.Den})
	}
	return c
}

func (a caff) eval(v []int64) (int64, bool) {
	s := a.c
	for _, t := range a.terms {
		p := t.coef
		for _, sl := range t.slots {
			var err error
			if p, err = mulInt(p, v[sl]); err != nil {
				return 0, false
			}
		}
		var err error
		if s, err = addInt(s, p); err != nil {
			return 0, false
		}
	}
	for _, f := range a.floors {
		n, ok := f.num.eval(v)
		if !ok {
			return 0, false
		}
		var err error
		if s, err = addScaled(s, floorDiv(n, f.den), f.coef); err != nil {
			return 0, false
		}
	}
	return s, true
}

// indexer compiles the subscripts of an access into its flattened index,
// failing with the subscript values when one is out of bounds. subs are
// the compiled subscripts of an indirect access (compileSubscripts).
func (in *interp) indexer(acc *Access, cx *cctx, subs []iexpr) func(st *state) int64 {
	a := acc.Array
	ext := in.sizes[a.Name]
	strides := make([]int64, len(ext))
	s := int64(1)
	for d := range ext {
		dd := len(ext) - 1 - d
		if a.ColMajor {
			dd = d
		}
		strides[dd] = s
		s *= ext[dd]
	}
	if acc.IsIndirect() {
		return in.indirectIndexer(acc, cx, ext, strides, subs)
	}
	dims := make([]caff, len(acc.Index))
	for d, x := range acc.Index {
		dims[d] = in.compileAffine(x)
	}
	vals := make([]int64, len(dims))
	var ops []int // with RunOptions.CountSubscripts, the subscripts' operations
	if in.countSubscripts {
		for _, x := range acc.Index {
			for _, op := range subscriptOps(x) {
				ops = append(ops, in.opCounter(op))
			}
		}
	}
	return func(st *state) int64 {
		for _, c := range ops {
			st.counters[c]++
		}
		flat := int64(0)
		bad := false
		for d, x := range dims {
			v, ok := x.eval(st.v)
			vals[d] = v
			if !ok || v < 0 || v >= ext[d] {
				bad = true
			}
			flat += v * strides[d]
		}
		if bad {
			in.fail(cx.ins, "%s is out of bounds for shape %s%s", formatIndex(a.Name, vals), formatIndex("", ext), pastEndRun(a, vals, ext))
		}
		return flat
	}
}

func formatIndex(name string, vals []int64) string {
	if len(vals) == 0 && name != "" {
		return name
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return name + "[" + strings.Join(parts, ", ") + "]"
}

func (in *interp) memCounter(acc *Access, store bool) int {
	a := acc.Array
	m := MemAccess{Array: a.Name, DType: a.DType, Store: store, ReadOnly: a.ReadOnly && !store, Indirect: acc.IsIndirect()}
	return in.counter(counterKey{kind: 0, space: a.Space, mem: m, stmt: in.stmt})
}

// traceSite returns the trace recorder of a global access, or nil.
func (in *interp) traceSite(acc *Access, cx *cctx, store bool) func(st *state, flat int64) {
	if in.trace == nil || acc.Array.Space != Global {
		return nil
	}
	if acc.IsIndirect() {
		return in.trace.cellsOnly(acc.Array, store)
	}
	site := in.trace.newSite(cx.ins, cx.sites, acc.Array, store)
	cx.sites++
	var ctx []int
	for _, n := range cx.fixed {
		if !in.k.inameIndex[n].Tag.Parallel() {
			ctx = append(ctx, in.e.slot[n])
		}
	}
	return func(st *state, flat int64) { in.trace.record(site, st, st.gid, ctx, flat) }
}

// traceLocal returns the trace recorder of a local access, or nil.
func (in *interp) traceLocal(acc *Access, cx *cctx, store bool) func(st *state, flat int64) {
	if in.trace == nil || acc.Array.Space != Local || acc.IsIndirect() {
		return nil
	}
	site := in.trace.newLocalSite(cx.ins, acc.Array, store)
	var ctx []int
	for _, n := range cx.fixed {
		if !in.k.inameIndex[n].Tag.Parallel() {
			ctx = append(ctx, in.e.slot[n])
		}
	}
	return func(st *state, flat int64) { recordLocal(site, st, ctx, flat) }
}

func (in *interp) compileLoad(acc *Access, cx *cctx, subs []iexpr) (cval, error) {
	a := acc.Array
	idx := in.indexer(acc, cx, subs)
	trace := in.traceSite(acc, cx, false)
	switch a.Space {
	case Argument:
		v := in.scalars[a.Name]
		if a.DType.IsFloat() {
			return cval{f: func(*state) float64 { return v.Float }}, nil
		}
		return cval{i: func(*state) int64 { return v.Int }}, nil
	case Private:
		p := in.privMems[a.Name]
		if p.float {
			return cval{f: func(st *state) float64 { return p.f[st.wi*p.size+int(idx(st))] }}, nil
		}
		return cval{i: func(st *state) int64 { return p.i[st.wi*p.size+int(idx(st))] }}, nil
	case Local:
		m := in.localMems[a.Name]
		ctr := in.memCounter(acc, false)
		rec := in.traceLocal(acc, cx, false)
		check := func(st *state, j int64) {
			st.counters[ctr]++
			if rec != nil {
				rec(st, j)
			}
			if w, race := m.readRace(int(j), int32(st.wi), st.epoch); race {
				in.fail(cx.ins, "reads %s, which work-item %s wrote with no barrier in between: add a barrier between the write and this read", in.cellName(a, j), in.describeItem(w))
			}
		}
		if m.float {
			return cval{f: func(st *state) float64 { j := idx(st); check(st, j); return m.f[j] }}, nil
		}
		return cval{i: func(st *state) int64 { j := idx(st); check(st, j); return m.i[j] }}, nil
	}
	load := countedIndex(idx, in.memCounter(acc, false), trace)
	switch data := in.global[a.Name].(type) {
	case []float32:
		return cval{f: func(st *state) float64 { return float64(data[load(st)]) }}, nil
	case []float64:
		return cval{f: func(st *state) float64 { return data[load(st)] }}, nil
	case []int32:
		return intLoad(data, load), nil
	case []int64:
		return intLoad(data, load), nil
	case []uint32:
		return intLoad(data, load), nil
	case []int8:
		return intLoad(data, load), nil
	case []uint8:
		return intLoad(data, load), nil
	case []int16:
		return intLoad(data, load), nil
	case []uint16:
		return intLoad(data, load), nil
	case []half.Float:
		return cval{f: func(st *state) float64 { return data[load(st)].Float64() }}, nil
	}
	return cval{}, errorf(in.k.File, acc.At, "array %s has no data", a.Name)
}

// countedIndex wraps a global access's indexer: each use counts the
// access and records it in the trace.
func countedIndex(idx func(*state) int64, ctr int, trace func(*state, int64)) func(*state) int64 {
	return func(st *state) int64 {
		j := idx(st)
		st.counters[ctr]++
		if trace != nil {
			trace(st, j)
		}
		return j
	}
}

// compileStore returns the store of an instruction's left-hand side; it
// takes the value in f or i according to the element type.
func (in *interp) compileStore(acc *Access, cx *cctx, subs []iexpr) (func(st *state, f float64, i int64), error) {
	a := acc.Array
	idx := in.indexer(acc, cx, subs)
	trace := in.traceSite(acc, cx, true)
	switch a.Space {
	case Private:
		p := in.privMems[a.Name]
		return func(st *state, f float64, i int64) {
			j := st.wi*p.size + int(idx(st))
			if p.float {
				p.f[j] = f
			} else {
				p.i[j] = i
			}
		}, nil
	case Local:
		m := in.localMems[a.Name]
		ctr := in.memCounter(acc, true)
		rec := in.traceLocal(acc, cx, true)
		round := a.DType == F16
		return func(st *state, f float64, i int64) {
			if round {
				f = half.FromFloat64(f).Float64()
			}
			j := idx(st)
			st.counters[ctr]++
			if rec != nil {
				rec(st, j)
			}
			same := (m.float && (m.f[j] == f)) || (!m.float && m.i[j] == i)
			if w, race := m.writeRace(int(j), int32(st.wi), st.epoch, same); race {
				in.fail(cx.ins, "writes %s, which work-item %s accessed with no barrier in between: add a barrier between that access and this write", in.cellName(a, j), in.describeItem(w))
			}
			if m.float {
				m.f[j] = f
			} else {
				m.i[j] = i
			}
		}, nil
	}
	at := countedIndex(idx, in.memCounter(acc, true), trace)
	race := in.storeRace(a, cx)
	switch data := in.global[a.Name].(type) {
	case []float32:
		return func(st *state, f float64, _ int64) {
			j := at(st)
			race(st, j, data[j] == float32(f))
			data[j] = float32(f)
		}, nil
	case []float64:
		return func(st *state, f float64, _ int64) { j := at(st); race(st, j, data[j] == f); data[j] = f }, nil
	case []int32:
		return intStore(data, at, race), nil
	case []int64:
		return intStore(data, at, race), nil
	case []uint32:
		return intStore(data, at, race), nil
	case []int8:
		return intStore(data, at, race), nil
	case []uint8:
		return intStore(data, at, race), nil
	case []int16:
		return intStore(data, at, race), nil
	case []uint16:
		return intStore(data, at, race), nil
	case []half.Float:
		return func(st *state, f float64, _ int64) {
			j := at(st)
			h := half.FromFloat64(f)
			race(st, j, data[j] == h)
			data[j] = h
		}, nil
	}
	return nil, errorf(in.k.File, acc.At, "array %s has no data", a.Name)
}

// cellName renders the element of a at flattened index flat.
func (in *interp) cellName(a *Array, flat int64) string {
	ext := in.sizes[a.Name]
	idx := make([]int64, len(ext))
	for d := range ext {
		dd := len(ext) - 1 - d
		if a.ColMajor {
			dd = d
		}
		idx[dd] = flat % ext[dd]
		flat /= ext[dd]
	}
	return formatIndex(a.Name, idx)
}

// describeItem names a work-item of the current group by its local ids.
func (in *interp) describeItem(wi int32) string {
	if wi < 0 {
		return "(several)"
	}
	l := in.g.local
	w := int64(wi)
	return "(" + strconv.FormatInt(w%l[0], 10) + ", " + strconv.FormatInt(w/l[0]%l[1], 10) + ", " + strconv.FormatInt(w/(l[0]*l[1]), 10) + ")"
}

// itemID is the current work-item's writer number for globalWrites.
func (in *interp) itemID() int64 {
	g, gid := in.g.groups, in.st.gid
	group := gid[0] + g[0]*(gid[1]+g[1]*gid[2])
	return group*in.groupSize() + int64(in.st.wi) + 1
}

func (in *interp) groupSize() int64 { return in.g.local[0] * in.g.local[1] * in.g.local[2] }

// describeWriter names the work-item and group of a writer number.
func (in *interp) describeWriter(w int64) string {
	n := in.groupSize()
	group, wi := (w-1)/n, (w-1)%n
	g := in.g.groups
	return "work-item " + in.describeItem(int32(wi)) + " of group (" + strconv.FormatInt(group%g[0], 10) + ", " +
		strconv.FormatInt(group/g[0]%g[1], 10) + ", " + strconv.FormatInt(group/(g[0]*g[1]), 10) + ")"
}

// storeRace returns the check of a store to a global array: it fails the
// instruction when the store races with an earlier one.
func (in *interp) storeRace(a *Array, cx *cctx) func(st *state, j int64, same bool) {
	gw := in.writes[a.Name]
	if gw == nil {
		n := int64(1)
		for _, e := range in.sizes[a.Name] {
			n *= e
		}
		gw = newGlobalWrites(int(n))
		in.writes[a.Name] = gw
	}
	return func(st *state, j int64, same bool) {
		me := in.itemID()
		if w, race := gw.race(j, me, in.groupSize(), st.epoch, same); race {
			in.fail(cx.ins, "stores to %s, which %s stored a different value to with no barrier in between (a write-write race): %s%s", in.cellName(a, j), in.describeWriter(w), in.raceRemedy(w, me), atomicHint(cx.ins))
		}
	}
}

// raceRemedy says what removes a write-write race between writers w and
// me: a barrier within a work-group; across work-groups, which no barrier
// orders, one writer per element.
func (in *interp) raceRemedy(w, me int64) string {
	if n := in.groupSize(); (w-1)/n == (me-1)/n {
		return "add a barrier between the two stores"
	}
	return "work-groups do not wait for one another, so no barrier orders them: give each work-item an element of its own, or store from one work-item alone (guard the store with a condition on the inames)"
}

// intLoad loads an integer array's element, widened.
func intLoad[T integer](data []T, load func(*state) int64) cval {
	return cval{i: func(st *state) int64 { return int64(data[load(st)]) }}
}

// intStore stores i, which the conversion to the array's type has checked
// to be in range.
func intStore[T integer](data []T, at func(*state) int64, race func(*state, int64, bool)) func(*state, float64, int64) {
	return func(st *state, _ float64, i int64) { j := at(st); race(st, j, data[j] == T(i)); data[j] = T(i) }
}

// indirectIndexer flattens the compiled subscripts of an indirect access,
// values evaluated (and counted) at each use, failing with their values
// when one is out of bounds.
func (in *interp) indirectIndexer(acc *Access, cx *cctx, ext, strides []int64, dims []iexpr) func(st *state) int64 {
	vals := make([]int64, len(dims))
	return func(st *state) int64 {
		flat := int64(0)
		bad := false
		for d, x := range dims {
			v := x(st)
			vals[d] = v
			if v < 0 || v >= ext[d] {
				bad = true
			}
			flat += v * strides[d]
		}
		if bad {
			in.fail(cx.ins, "%s is out of bounds for shape %s: its subscripts read data (%s)", formatIndex(acc.Array.Name, vals), formatIndex("", ext), acc)
		}
		return flat
	}
}

// atomicHint says, for a race of an instruction that adds to its
// left-hand side (hist[b] = hist[b] + 1, hist[b] += 1), how to add
// without one.
func atomicHint(ins *Instruction) string {
	if b, ok := ins.RHS.(*Binary); ok && b.Op == OpAdd && b.X.String() == ins.LHS.String() {
		return "; to add to one element from several work-items, write atomic_add(" + ins.LHS.String() + ", " + b.Y.String() + ")"
	}
	return ""
}
