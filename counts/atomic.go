package counts

import "math"

// Atomic updates: "atomic_add(hist[b], 1)" adds a value to an element of
// a global or local array in one indivisible step, as CUDA's atomicAdd
// and OpenCL's atomic_add do. The parser reads the statement, the
// resolver checks its target, the plan counts it as a property of its
// own (atomicProperty), and the interpreter performs the additions one
// after another (and says to write atomic_add where a sum races:
// atomicHint).

// atomicAdd is the statement's name, OpenCL's and close to CUDA's.
const atomicAdd = "atomic_add"

// atomicStmt reads "atomic_add(TARGET, VALUE) [{ANNOTATIONS}]" after its
// name; s is the statement begun by instructionStmt.
func (b *builder) atomicStmt(c *cursor, s rawStatement) {
	open := c.expect("(")
	args := c.parseExprs(")")
	if len(args) != 2 {
		c.failAt(open.pos, "atomic_add takes 2 arguments, the element and the value to add, not %d: write atomic_add(hist[b], 1)", len(args))
	}
	switch args[0].(type) {
	case *rName, *rSub:
	default:
		c.failAt(args[0].rpos(), "the first argument of atomic_add is the element to add to, an array reference such as hist[b]; C's &hist[b] is written without the &")
	}
	s.atomic = true
	s.lhs, s.rhs = args[0], args[1]
	s.ann = c.parseAnnotation()
	s.preds = append(s.preds, s.ann.conds...)
	c.expectEnd()
	b.statements = append(b.statements, s)
}

// checkAtomic checks the target of atomic_add: an element of a global or
// local array of type f32, i32 or u32, the types every GPU adds to
// atomically.
func (r *resolver) checkAtomic(lhs *Access) {
	a := lhs.Array
	switch {
	case a.Space != Global && a.Space != Local:
		r.fail(lhs.At, "atomic_add adds to global or local memory, and %s is %s: other work-items cannot see a private value, so write %s = %s + VALUE", a.Name, spaceWord(a.Space), lhs, lhs)
	case a.DType != F32 && a.DType != I32 && a.DType != U32:
		r.fail(lhs.At, "atomic_add adds f32, i32 or u32 values, and %s is %s: declare %s as f32, i32 or u32", a.Name, a.DType, a.Name)
	}
}

// spaceWord names a space in an error message.
func spaceWord(s Space) string {
	if s == Argument {
		return "a scalar argument"
	}
	return "a " + s.String() + " temporary"
}

// compileAtomic returns the addition of atomic_add to its target, which
// takes the value in f or i according to the element type. Work-items
// add one after another, so that integer sums are exact whatever the
// order of a GPU's atomics, and float sums are one of the orders a GPU
// may take. Atomics do not race with one another, so they are not
// checked for races; a trace records their cells as stored.
func (in *interp) compileAtomic(acc *Access, cx *cctx, subs []iexpr) (func(st *state, f float64, i int64), error) {
	a := acc.Array
	idx := in.indexer(acc, cx, subs)
	m := MemAccess{Array: a.Name, DType: a.DType, Store: true, Indirect: acc.IsIndirect(), Atomic: true}
	ctr := in.counter(counterKey{kind: 0, space: a.Space, mem: m, stmt: in.stmt})
	var trace func(st *state, flat int64)
	if in.trace != nil && a.Space == Global {
		trace = in.trace.cellsOnly(a, true)
	}
	at := func(st *state) int64 {
		st.counters[ctr]++
		j := idx(st)
		if trace != nil {
			trace(st, j)
		}
		return j
	}
	unsigned := a.DType == U32
	addInt32 := func(old, v int64) int64 {
		s := old + v
		if unsigned {
			return wrapU32(s) // C's unsigned atomicAdd wraps
		}
		if s < math.MinInt32 || s > math.MaxInt32 {
			in.fail(cx.ins, "integer overflow in %s", acc)
		}
		return s
	}
	addFloat32 := func(old, v float64) float64 { return float64(float32(old) + float32(v)) }
	if a.Space == Local {
		lm := in.localMems[a.Name]
		if lm.float {
			return func(st *state, f float64, _ int64) { j := at(st); lm.f[j] = addFloat32(lm.f[j], f) }, nil
		}
		return func(st *state, _ float64, i int64) { j := at(st); lm.i[j] = addInt32(lm.i[j], i) }, nil
	}
	switch data := in.global[a.Name].(type) {
	case []float32:
		return func(st *state, f float64, _ int64) { j := at(st); data[j] = float32(addFloat32(float64(data[j]), f)) }, nil
	case []int32:
		return func(st *state, _ float64, i int64) { j := at(st); data[j] = int32(addInt32(int64(data[j]), i)) }, nil
	case []uint32:
		return func(st *state, _ float64, i int64) { j := at(st); data[j] = uint32(addInt32(int64(data[j]), i)) }, nil
	}
	return nil, errorf(in.k.File, acc.At, "array %s has no f32, i32 or u32 data", a.Name)
}
