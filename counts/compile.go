package counts

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file compiles the schedule and the instructions' expressions into
// closures over the interpreter state.

type xnode interface{ exec(in *interp) }

type xloop struct {
	q    *query
	body []xnode
}

func (x *xloop) exec(in *interp) {
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
	guard   *query
	perItem bool // the guard depends on local ids
	body    func(st *state)
}

func (x *xinstr) exec(in *interp) {
	if !x.perItem && !x.guard.member(in.st.v) {
		return
	}
	for wi := 0; wi < in.nWorkItems; wi++ {
		in.setWorkItem(wi)
		if x.perItem && !x.guard.member(in.st.v) {
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
			out = append(out, &xloop{q: in.e.newQuery(dom, loops, []string{n.Iname}), body: body})
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

// cctx is the context of expression compilation: the instruction and the
// inames with values at the node (its Within plus enclosing reductions).
type cctx struct {
	ins   *Instruction
	fixed []string
	sites int
}

func (in *interp) compileInstr(ins *Instruction) (*xinstr, error) {
	in.stmt = ins.ID
	dom, err := in.e.domain(ins.Within)
	if err != nil {
		return nil, err
	}
	x := &xinstr{guard: in.e.newQuery(dom, ins.Within, nil)}
	for _, n := range ins.Within {
		if in.k.inameIndex[n].Tag.Kind == LocalID {
			x.perItem = true
		}
	}
	cx := &cctx{ins: ins, fixed: ins.Within}
	store, err := in.compileStore(ins.LHS, cx)
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
	return x, nil
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

func roundTo(t DType, v float64) float64 {
	if t == F32 {
		return float64(float32(v))
	}
	return v
}

func (in *interp) compileExpr(e Expr, cx *cctx) (cval, error) {
	switch e := e.(type) {
	case *Literal:
		if e.T.IsFloat() {
			v := e.Float
			return cval{f: func(*state) float64 { return v }}, nil
		}
		v := e.Int
		return cval{i: func(*state) int64 { return v }}, nil
	case *Index:
		aff := in.compileAffine(e.Value)
		return cval{i: func(st *state) int64 {
			v, ok := aff.eval(st.v)
			if !ok || v < math.MinInt32 || v > math.MaxInt32 {
				in.fail(cx.ins, "value %s overflows i32", e)
			}
			return v
		}}, nil
	case *Access:
		return in.compileLoad(e, cx)
	case *Binary:
		return in.compileBinary(e, cx)
	case *Neg:
		x, err := in.compileExpr(e.X, cx)
		if err != nil {
			return cval{}, err
		}
		if x.f != nil {
			return cval{f: func(st *state) float64 { return -x.f(st) }}, nil
		}
		t := e.Type()
		return cval{i: func(st *state) int64 {
			v := x.i(st)
			if v == math.MinInt64 || (t == I32 && v == math.MinInt32) {
				in.fail(cx.ins, "integer overflow in %s", e)
			}
			return -v
		}}, nil
	case *BitNot:
		x, err := in.compileExpr(e.X, cx)
		if err != nil {
			return cval{}, err
		}
		op, _ := nodeOp(e)
		ctr := in.opCounter(op)
		return cval{i: func(st *state) int64 {
			v := x.i(st)
			st.counters[ctr]++
			return ^v
		}}, nil
	case *Call:
		return in.compileCall(e, cx)
	case *Reduce:
		return in.compileReduce(e, cx)
	case *Cast:
		return in.compileCast(e, cx)
	case *Compare:
		return in.compileCompare(e, cx)
	case *Logic, *Not:
		return in.compileLogic(e, cx)
	case *Conditional:
		return in.compileConditional(e, cx)
	}
	return cval{}, errorf(in.k.File, e.Pos(), "cannot interpret %T", e)
}

func (in *interp) opCounter(op Op) int { return in.counter(counterKey{kind: 1, op: op, stmt: in.stmt}) }

// compileAll compiles expressions in order.
func (in *interp) compileAll(cx *cctx, es ...Expr) ([]cval, error) {
	out := make([]cval, len(es))
	for i, e := range es {
		var err error
		if out[i], err = in.compileExpr(e, cx); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (in *interp) compileBinary(e *Binary, cx *cctx) (cval, error) {
	xy, err := in.compileAll(cx, e.X, e.Y)
	if err != nil {
		return cval{}, err
	}
	x, y := xy[0], xy[1]
	op, _ := nodeOp(e)
	ctr := in.opCounter(op)
	t := e.T
	if t.IsFloat() {
		var f func(a, b float64) float64
		switch e.Op {
		case OpAdd:
			f = func(a, b float64) float64 { return a + b }
		case OpSub:
			f = func(a, b float64) float64 { return a - b }
		case OpMul:
			f = func(a, b float64) float64 { return a * b }
		case OpDiv:
			f = func(a, b float64) float64 { return a / b }
		case OpPow:
			f = math.Pow
		case OpMod:
			f = math.Mod // C's fmod: the sign of a
		}
		return cval{f: func(st *state) float64 {
			a, b := x.f(st), y.f(st)
			st.counters[ctr]++
			return roundTo(t, f(a, b))
		}}, nil
	}
	return cval{i: func(st *state) int64 {
		a, b := x.i(st), y.i(st)
		st.counters[ctr]++
		v, msg := intBinary(e.Op, a, b, t)
		if msg == "" && t == I32 && (v < math.MinInt32 || v > math.MaxInt32) {
			msg = "integer overflow"
		}
		if msg != "" {
			in.fail(cx.ins, "%s in %s (%d %s %d)", msg, e, a, e.Op, b)
		}
		return v
	}}, nil
}

// intBinary evaluates an integer operator of type t exactly; msg explains
// a failure.
func intBinary(op BinOp, a, b int64, t DType) (v int64, msg string) {
	var err error
	switch op {
	case OpBitAnd:
		return a & b, ""
	case OpBitOr:
		return a | b, ""
	case OpBitXor:
		return a ^ b, ""
	case OpShl, OpShr:
		if w := int64(8 * t.Size()); b < 0 || b >= w {
			return 0, fmt.Sprintf("shift count %d out of range for %s", b, t)
		}
		if op == OpShr {
			return a >> b, ""
		}
		if v = a << b; v>>b != a {
			return 0, "integer overflow"
		}
		return v, ""
	case OpAdd:
		v, err = addInt(a, b)
	case OpSub:
		if b == math.MinInt64 {
			return 0, "integer overflow"
		}
		v, err = addInt(a, -b)
	case OpMul:
		v, err = mulInt(a, b)
	case OpFloorDiv, OpMod:
		if b == 0 {
			return 0, "integer division by zero"
		}
		if a == math.MinInt64 && b == -1 {
			return 0, "integer overflow"
		}
		q := a / b
		if a%b != 0 && (a < 0) != (b < 0) {
			q--
		}
		if op == OpFloorDiv {
			return q, ""
		}
		return a - q*b, ""
	}
	if err != nil {
		return 0, "integer overflow"
	}
	return v, ""
}

var unaryFuncs = map[string]func(float64) float64{
	"exp": math.Exp, "log": math.Log, "sqrt": math.Sqrt, "sin": math.Sin, "cos": math.Cos, "fabs": math.Abs,
	"rsqrt": func(x float64) float64 { return 1 / math.Sqrt(x) },
}

var binaryFuncs = map[string]func(float64, float64) float64{
	"pow": math.Pow, "fmin": cMin, "fmax": cMax, "fmod": math.Mod,
}

// cMin and cMax follow C's fmin and fmax: a NaN argument is ignored.
func cMin(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Min(a, b)
}

func cMax(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Max(a, b)
}

func (in *interp) compileCall(e *Call, cx *cctx) (cval, error) {
	args, err := in.compileAll(cx, e.Args...)
	if err != nil {
		return cval{}, err
	}
	op, _ := nodeOp(e)
	ctr := in.opCounter(op)
	t := e.T
	if f, ok := unaryFuncs[e.Func]; ok {
		x := args[0].f
		return cval{f: func(st *state) float64 {
			a := x(st)
			st.counters[ctr]++
			return roundTo(t, f(a))
		}}, nil
	}
	f := binaryFuncs[e.Func]
	x, y := args[0].f, args[1].f
	return cval{f: func(st *state) float64 {
		a, b := x(st), y(st)
		st.counters[ctr]++
		return roundTo(t, f(a, b))
	}}, nil
}

func (in *interp) compileReduce(e *Reduce, cx *cctx) (cval, error) {
	inner := append(append([]string(nil), cx.fixed...), e.Inames...)
	dom, err := in.e.domain(inner)
	if err != nil {
		return cval{}, err
	}
	q := in.e.newQuery(dom, cx.fixed, e.Inames)
	outer := cx.fixed
	cx.fixed = inner
	body, err := in.compileExpr(e.Body, cx)
	cx.fixed = outer
	if err != nil {
		return cval{}, err
	}
	ctr := in.opCounter(reduceOp(e))
	t := e.T
	if t.IsFloat() {
		neutral, comb := floatReduction(e.Op)
		return cval{f: func(st *state) float64 {
			acc := neutral
			q.each(st.v, func() {
				acc = roundTo(t, comb(acc, body.f(st)))
				st.counters[ctr]++
			})
			return acc
		}}, nil
	}
	return cval{i: func(st *state) int64 {
		acc := intNeutral(e.Op, t)
		q.each(st.v, func() {
			b := body.i(st)
			var msg string
			switch e.Op {
			case RedSum:
				acc, msg = intBinary(OpAdd, acc, b, t)
			case RedProduct:
				acc, msg = intBinary(OpMul, acc, b, t)
			case RedMax:
				acc = max(acc, b)
			case RedMin:
				acc = min(acc, b)
			}
			if msg == "" && t == I32 && (acc < math.MinInt32 || acc > math.MaxInt32) {
				msg = "integer overflow"
			}
			if msg != "" {
				in.fail(cx.ins, "%s in %s", msg, e)
			}
			st.counters[ctr]++
		})
		return acc
	}}, nil
}

func floatReduction(op ReduceOp) (float64, func(a, b float64) float64) {
	switch op {
	case RedProduct:
		return 1, func(a, b float64) float64 { return a * b }
	case RedMax:
		return math.Inf(-1), cMax
	case RedMin:
		return math.Inf(1), cMin
	}
	return 0, func(a, b float64) float64 { return a + b }
}

func intNeutral(op ReduceOp, t DType) int64 {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if t == I32 {
		lo, hi = math.MinInt32, math.MaxInt32
	}
	switch op {
	case RedProduct:
		return 1
	case RedMax:
		return lo
	case RedMin:
		return hi
	}
	return 0
}

func (in *interp) compileCast(e *Cast, cx *cctx) (cval, error) {
	x, err := in.compileExpr(e.X, cx)
	if err != nil {
		return cval{}, err
	}
	from, to := e.X.Type(), e.T
	switch {
	case from.IsFloat() && to.IsFloat():
		return cval{f: func(st *state) float64 { return roundTo(to, x.f(st)) }}, nil
	case !from.IsFloat() && to.IsFloat():
		return cval{f: func(st *state) float64 { return roundTo(to, float64(x.i(st))) }}, nil
	case from.IsFloat():
		lo, hi := float64(math.MinInt64), float64(math.MaxInt64)
		if to == I32 {
			lo, hi = math.MinInt32, math.MaxInt32
		}
		return cval{i: func(st *state) int64 {
			v := math.Trunc(x.f(st))
			if math.IsNaN(v) || v < lo || v >= hi+1 {
				in.fail(cx.ins, "cannot convert %g to %s in %s", v, to, e)
			}
			return int64(v)
		}}, nil
	}
	return cval{i: func(st *state) int64 {
		v := x.i(st)
		if to == I32 && (v < math.MinInt32 || v > math.MaxInt32) {
			in.fail(cx.ins, "cannot convert %d to i32 in %s", v, e)
		}
		return v
	}}, nil
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
// failing with the subscript values when one is out of bounds.
func (in *interp) indexer(acc *Access, cx *cctx) func(st *state) int64 {
	a := acc.Array
	ext := in.sizes[a.Name]
	dims := make([]caff, len(acc.Index))
	for d, x := range acc.Index {
		dims[d] = in.compileAffine(x)
	}
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
			in.fail(cx.ins, "%s is out of bounds for shape %s", formatIndex(a.Name, vals), formatIndex("", ext))
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

func (in *interp) memCounter(a *Array, store bool) int {
	return in.counter(counterKey{kind: 0, space: a.Space, mem: MemAccess{Array: a.Name, DType: a.DType, Store: store}, stmt: in.stmt})
}

// traceSite returns the trace recorder of a global access, or nil.
func (in *interp) traceSite(acc *Access, cx *cctx, store bool) func(st *state, flat int64) {
	if in.trace == nil || acc.Array.Space != Global {
		return nil
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
	if in.trace == nil || acc.Array.Space != Local {
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

func (in *interp) compileLoad(acc *Access, cx *cctx) (cval, error) {
	a := acc.Array
	idx := in.indexer(acc, cx)
	trace := in.traceSite(acc, cx, false)
	switch a.Space {
	case Private:
		p := in.privMems[a.Name]
		if p.float {
			return cval{f: func(st *state) float64 { return p.f[st.wi*p.size+int(idx(st))] }}, nil
		}
		return cval{i: func(st *state) int64 { return p.i[st.wi*p.size+int(idx(st))] }}, nil
	case Local:
		m := in.localMems[a.Name]
		ctr := in.memCounter(a, false)
		rec := in.traceLocal(acc, cx, false)
		check := func(st *state, j int64) {
			st.counters[ctr]++
			if rec != nil {
				rec(st, j)
			}
			if w, race := m.readRace(int(j), int32(st.wi), st.epoch); race {
				in.fail(cx.ins, "reads %s, which work-item %s wrote with no barrier in between", in.cellName(a, j), in.describeItem(w))
			}
		}
		if m.float {
			return cval{f: func(st *state) float64 { j := idx(st); check(st, j); return m.f[j] }}, nil
		}
		return cval{i: func(st *state) int64 { j := idx(st); check(st, j); return m.i[j] }}, nil
	}
	load := countedIndex(idx, in.memCounter(a, false), trace)
	switch data := in.global[a.Name].(type) {
	case []float32:
		return cval{f: func(st *state) float64 { return float64(data[load(st)]) }}, nil
	case []float64:
		return cval{f: func(st *state) float64 { return data[load(st)] }}, nil
	case []int32:
		return cval{i: func(st *state) int64 { return int64(data[load(st)]) }}, nil
	case []int64:
		return cval{i: func(st *state) int64 { return data[load(st)] }}, nil
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
func (in *interp) compileStore(acc *Access, cx *cctx) (func(st *state, f float64, i int64), error) {
	a := acc.Array
	idx := in.indexer(acc, cx)
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
		ctr := in.memCounter(a, true)
		rec := in.traceLocal(acc, cx, true)
		return func(st *state, f float64, i int64) {
			j := idx(st)
			st.counters[ctr]++
			if rec != nil {
				rec(st, j)
			}
			same := (m.float && (m.f[j] == f)) || (!m.float && m.i[j] == i)
			if w, race := m.writeRace(int(j), int32(st.wi), st.epoch, same); race {
				in.fail(cx.ins, "writes %s, which work-item %s accessed with no barrier in between", in.cellName(a, j), in.describeItem(w))
			}
			if m.float {
				m.f[j] = f
			} else {
				m.i[j] = i
			}
		}, nil
	}
	at := countedIndex(idx, in.memCounter(a, true), trace)
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
		return func(st *state, _ float64, i int64) { j := at(st); race(st, j, data[j] == int32(i)); data[j] = int32(i) }, nil
	case []int64:
		return func(st *state, _ float64, i int64) { j := at(st); race(st, j, data[j] == i); data[j] = i }, nil
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
		if w, race := gw.race(j, in.itemID(), in.groupSize(), st.epoch, same); race {
			in.fail(cx.ins, "stores to %s, which %s stored a different value to with no barrier in between (a write-write race)", in.cellName(a, j), in.describeWriter(w))
		}
	}
}
