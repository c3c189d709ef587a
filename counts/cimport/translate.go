package cimport

import (
	"fmt"
	"slices"
	"strings"
)

// block translates statements in a new lexical scope.
func (t *translator) block(ss []*stmt) error {
	t.scopes = append(t.scopes, map[string]*variable{})
	defer func() { t.scopes = t.scopes[:len(t.scopes)-1] }()
	return t.sequence(ss)
}

// sequence translates statements in the current scope; an early
// return puts the rest under its opposite condition.
func (t *translator) sequence(ss []*stmt) error {
	for i, s := range ss {
		if s.kind == "return" && t.endsKernel(s) {
			// A kernel's last statement, return; (kmeans'), returns
			// where its body would end.
			return nil
		}
		if s.kind == "if" && s.els == nil && isReturn(s.then) && len(t.fns) > 0 {
			// In an inlined function, "if (C) return X; REST" is an if
			// and an else.
			c, err := t.condition(s.e)
			if err != nil {
				return err
			}
			return t.under(c, s.p, func() error { return t.block([]*stmt{s.then}) }, func() error { return t.sequence(ss[i+1:]) })
		}
		if s.kind == "if" && s.els == nil && isReturn(s.then) {
			return t.earlyReturn(s, ss[i+1:])
		}
		if err := t.statement(s); err != nil {
			return err
		}
	}
	return nil
}

// endsKernel reports whether s is the last statement of the kernel's
// body, outside any loop, inlined function or if but its guards.
func (t *translator) endsKernel(s *stmt) bool {
	body := t.k.body.body
	return len(t.fns) == 0 && t.inLoop == 0 && t.inIf == t.guards && len(body) > 0 && body[len(body)-1] == s
}

func isReturn(s *stmt) bool {
	if s.kind == "block" && len(s.body) == 1 {
		s = s.body[0]
	}
	return s.kind == "return"
}

// earlyReturn translates "if (C) return; REST" as REST under !C; REST
// may hold further guards (Fan2's two returns).
func (t *translator) earlyReturn(s *stmt, rest []*stmt) error {
	if t.inLoop > 0 || t.inIf > t.guards {
		return errorAt(s.p, "a return inside a loop or an if: only a return at the kernel's top level (a guard) is understood; put the rest of the body under the opposite condition")
	}
	c, err := t.condition(s.e)
	if err != nil {
		return err
	}
	t.guards++
	defer func() { t.guards-- }()
	return t.under(not(c), s.p, func() error { return t.sequence(rest) }, nil)
}

// under translates then (and els, where not nil) predicated by c.
func (t *translator) under(c *cond, p pos, then, els func() error) error {
	return t.branch(c, p, false, then, els)
}

// branch is under; holds says that c holds at every work-item launched
// (barrierif.go), so that after the if its variables hold what then
// left them, the one path every work-item takes.
func (t *translator) branch(c *cond, p pos, holds bool, then, els func() error) error {
	if c.op == "const" {
		switch {
		case c.val:
			return then()
		case els != nil:
			return els()
		}
		return nil
	}
	it := &item{kind: "if", c: c, p: p}
	saved, savedScope := t.cur, t.scope
	defer func() { t.cur, t.scope = saved, savedScope }()
	t.inIf++
	defer func() { t.inIf-- }()
	f := &frame{saved: map[*variable]variable{}, p: p, c: c}
	t.frames = append(t.frames, f)
	defer func() { t.frames = t.frames[:len(t.frames)-1] }()
	t.nscopes++
	t.scope, t.cur = t.nscopes, &it.body
	if err := then(); err != nil {
		return err
	}
	afterThen := f.snapshot()
	f.restore()
	afterElse := map[*variable]variable{}
	if els != nil {
		t.nscopes++
		t.scope, t.cur = t.nscopes, &it.els
		if err := els(); err != nil {
			return err
		}
		afterElse = f.snapshot()
		f.restore()
	}
	for _, v := range f.order {
		tv, ok := afterThen[v]
		if !ok {
			tv = f.saved[v]
		}
		if holds {
			*v = tv
			continue
		}
		ev, ok := afterElse[v]
		if !ok {
			ev = f.saved[v]
		}
		if tv.kind == "cond" && ev.kind == "cond" {
			// A flag set in a branch (computed = true) is the condition
			// under which it was set: C and then, or not C and else.
			v.kind, v.c = "cond", or(and(c, tv.c), and(not(c), ev.c))
			continue
		}
		v.kind, v.why = "undef", fmt.Sprintf("is assigned in the if at line %d, so after it its value depends on the branch taken; assign it again after the if, or use it inside", p.line)
	}
	t.cur = saved
	t.emit(it)
	return nil
}

func (t *translator) statement(s *stmt) error {
	if err := t.work(s.p); err != nil {
		return err
	}
	switch s.kind {
	case "block":
		return t.block(s.body)
	case "empty":
		return nil
	case "decl":
		return t.declaration(s)
	case "expr":
		return t.exprStmt(s.e)
	case "if":
		c, err := t.condition(s.e)
		if err != nil {
			return err
		}
		if ok, err := t.holdingIf(s, c); ok {
			return err
		}
		var els func() error
		if s.els != nil {
			els = func() error { return t.block([]*stmt{s.els}) }
		}
		return t.under(c, s.p, func() error { return t.block([]*stmt{s.then}) }, els)
	case "for":
		return t.forLoop(s)
	case "return":
		if len(t.fns) > 0 {
			return t.returnStmt(s)
		}
		if t.inLoop > 0 || t.inIf > 0 {
			return errorAt(s.p, "a return inside a loop or an if: only a return at the kernel's top level (a guard) is understood; put the rest of the body under the opposite condition")
		}
		return errorAt(s.p, "a return at the top level is dead code after it; remove it")
	case "break":
		return errorAt(s.p, "break: only a break at the top of a loop's body (break; or if (C) break;), in a loop with constant bounds where C is known at import, is understood; write the condition into the loop's bound")
	case "continue", "goto":
		return errorAt(s.p, "%s: the trip count of the loop would depend on data; write the loop's bounds so that it needs none", s.kind)
	}
	return errorAt(s.p, "a %s statement is not understood; write the kernel with for loops and if guards", s.kind)
}

// declaration declares variables: integers keep their affine value,
// floating-point scalars become private temporaries, __shared__ and
// __local arrays local arrays, other arrays private ones.
func (t *translator) declaration(s *stmt) error {
	for _, d := range s.decls {
		if err := t.declare1(d); err != nil {
			return err
		}
	}
	return nil
}

func (t *translator) declare1(d decl) error {
	switch {
	case d.typ.base == "group":
		t.declare(d.name, &variable{kind: "group"})
		return nil
	case d.extern && d.shared && d.typ.ptr == 0 && len(d.dims) == 1 && d.dims[0] == nil,
		d.typ.ptr == 1 && d.init != nil && d.init.op == "call" && d.init.args[0].op == "id" && d.init.args[0].text == "SharedMemory":
		return t.dynamicShared(d)
	case d.extern:
		return errorAt(d.p, "%s: an extern declaration other than extern __shared__ T %s[] is not understood", d.name, d.name)
	case d.typ.ptr > 0:
		if d.init != nil {
			v, ok, err := t.pointer(d.init)
			if err != nil {
				return err
			}
			if ok {
				t.declare(d.name, v)
				return nil
			}
		}
		return errorAt(d.p, "%s: a pointer variable other than one into an array (p = a + i*n, or &a[i*n]), set where it is declared; index the array directly (a[i*n + j])", d.name)
	}
	dtype, err := elemType(d.typ, d.p, d.name)
	if err != nil && !(d.typ.base == "bool" && len(d.dims) == 0) {
		return err
	}
	if dtype == "f16" && !d.shared {
		return errorAt(d.p, "%s: a __half variable; declare it float and convert with __half2float (%s)", d.name, halfArithmetic)
	}
	if len(d.dims) > 0 {
		return t.declareArray(d, dtype)
	}
	if d.typ.base == "bool" {
		if d.init == nil {
			t.declare(d.name, &variable{kind: "undef", why: "is used before it is set", dtype: "bool"})
			return nil
		}
		c, err := t.condition(d.init)
		if err != nil {
			return err
		}
		t.declare(d.name, &variable{kind: "cond", c: c})
		return nil
	}
	if isIntType(dtype) {
		if d.init == nil {
			t.declare(d.name, &variable{kind: "undef", why: "is used before it is set", blank: true, dtype: dtype})
			return nil
		}
		v, err := t.eval(d.init)
		if err != nil {
			return err
		}
		if v.kind == vInt {
			t.declare(d.name, &variable{kind: "int", val: v.a, dtype: dtype, declList: t.cur, declAt: len(*t.cur)})
			if t.inLoop == 0 && t.inIf == t.guards {
				t.candidates = append(t.candidates, candidate{d.name, v.a, isGlobalID(d.init)})
			}
			return nil
		}
	}
	priv := &array{name: t.unique(d.name), cname: d.name, dtype: dtype, space: "private", p: d.p}
	t.privs = append(t.privs, priv)
	t.declare(d.name, &variable{kind: "data", name: priv.name, dtype: dtype})
	if d.init != nil {
		return t.assign(&expr{op: "id", text: d.name, p: d.p}, "=", d.init, d.p)
	}
	return nil
}

// dynamicShared declares dynamic shared memory (extern __shared__ T
// s[], or cuda-samples' SharedMemory<T>()), whose size the launch
// gives: --array NAME=EXTENT says it.
func (t *translator) dynamicShared(d decl) error {
	d.typ.ptr = 0
	dtype, err := elemType(d.typ, d.p, d.name)
	if err != nil {
		return err
	}
	ext, ok := t.opts.Arrays[d.name]
	if !ok {
		return errorAt(d.p, "%s: dynamic shared memory, whose size the launch gives; say it with --array %s=ELEMENTS (or the comment // uniperf: --array %s=ELEMENTS)", d.name, d.name, d.name)
	}
	v, err := t.flagValue(ext, t.macros, "--array "+d.name)
	if err != nil {
		return err
	}
	if _, ok := t.positive(v); !ok {
		return errorAt(d.p, "--array %s=%s: a local array's extent must be a positive constant", d.name, ext)
	}
	a := &array{name: t.unique(d.name), cname: d.name, dtype: dtype, space: "local", p: d.p, dims: []poly{v}}
	t.arrays = append(t.arrays, a)
	t.declare(d.name, &variable{kind: "array", name: a.name, dtype: dtype})
	return nil
}

func (t *translator) declareArray(d decl, dtype string) error {
	a := &array{name: t.unique(d.name), cname: d.name, dtype: dtype, space: "private", p: d.p, source: "the declaration"}
	if d.shared {
		a.space = "local"
	}
	for _, e := range d.dims {
		if e == nil {
			return errorAt(d.p, "%s: an array without a size; give its size", d.name)
		}
		v, err := t.eval(e)
		if err != nil {
			return err
		}
		c, ok := v.a.poly()
		if _, pos := t.positive(c); v.kind != vInt || !ok || !pos {
			return errorAt(e.p, "%s: its size must be a positive constant (a #define or -D)", d.name)
		}
		a.dims = append(a.dims, c)
	}
	if a.space == "local" {
		t.arrays = append(t.arrays, a)
	} else {
		t.privs = append(t.privs, a)
	}
	t.declare(d.name, &variable{kind: "array", name: a.name, dtype: dtype})
	return nil
}

// exprStmt translates an expression statement: an assignment, an
// increment, a barrier.
func (t *translator) exprStmt(e *expr) error {
	switch e.op {
	case "assign":
		return t.assign(e.args[0], e.text, e.args[1], e.p)
	case "pre", "post":
		op := "+="
		if e.text == "--" {
			op = "-="
		}
		return t.assign(e.args[0], op, &expr{op: "num", text: "1", p: e.p}, e.p)
	case "call":
		if ok, err := t.atomic(e); ok {
			return err
		}
		if target, v, ok, err := vstoreHalf(e); ok {
			if err != nil {
				return err
			}
			return t.assign(target, "=", v, e.p)
		}
		if fn := t.device(e); fn != nil {
			_, err := t.callDevice(fn, e.args[1:], e.p)
			return err
		}
		if t.isBarrier(e) {
			if t.inIf > 0 {
				return errorAt(e.p, "a barrier inside an if%s: not every work-item would reach it; move it out of the if: close the if before the barrier and test its condition again in an if after it (where the if computes a value the code after the barrier reads, set it in an else too)%s", t.innerIf(), t.assumeHint())
			}
			if len(t.inData) > 0 {
				return errorAt(e.p, "a barrier inside the loop at line %d, whose bounds are data: work-items run it different numbers of times, so not every one would reach the barrier as often; move it out of the loop", t.inData[0].p.line)
			}
			t.emit(&item{kind: "barrier", p: e.p})
			return nil
		}
		if _, err := t.eval(e); err != nil {
			return err
		}
	case "binary":
		if e.text == "," {
			if err := t.exprStmt(e.args[0]); err != nil {
				return err
			}
			return t.exprStmt(e.args[1])
		}
	}
	return errorAt(e.p, "an expression statement that assigns nothing; remove it")
}

// isBarrier reports __syncthreads(), barrier(...), cg::sync(g) and g.sync().
func (t *translator) isBarrier(e *expr) bool {
	f := e.args[0]
	if f.op == "id" {
		switch f.text {
		case "__syncthreads", "barrier", "work_group_barrier", "cg::sync", "cooperative_groups::sync":
			return true
		}
	}
	if f.op == "member" && f.text == "sync" && f.args[0].op == "id" {
		v := t.lookup(f.args[0].text)
		return v != nil && v.kind == "group"
	}
	return false
}

// assign translates LHS OP RHS.
func (t *translator) assign(lhs *expr, op string, rhs *expr, p pos) error {
	if rhs.op == "assign" {
		if err := t.assign(rhs.args[0], rhs.text, rhs.args[1], rhs.p); err != nil {
			return err
		}
		rhs = rhs.args[0]
	}
	if lhs.op == "id" {
		v := t.lookup(lhs.text)
		if v == nil {
			return errorAt(lhs.p, "%s is not declared in the kernel (a __device__ variable declared outside it?): declare it there (float %s = ...;), or pass the kernel an array to store into", lhs.text, lhs.text)
		}
		switch v.kind {
		case "int", "undef", "cond":
			return t.assignInt(lhs, v, op, rhs, p)
		case "data":
			val, err := t.eval(rhs)
			if err != nil {
				return err
			}
			v.clamp = nil
			if op == "=" && t.keepsClamp(v) {
				v.clamp = val.clamp
			}
			return t.storeValue(v.name, v.dtype, op, val, p)
		case "scalar":
			return errorAt(lhs.p, "%s is a scalar argument, which .knl reads only; copy it into a local variable (float t = %s;) and assign to that", lhs.text, lhs.text)
		case "array", "ptr":
			return t.advance(lhs, v, op, rhs, p)
		}
		return errorAt(lhs.p, "%s is a cooperative group, which is set only where it is declared (thread_block %s = this_thread_block();); remove this assignment", lhs.text, lhs.text)
	}
	// C evaluates the target of a compound assignment once: an indirect
	// subscript there is read into a temporary, which the load and the
	// store share, where the .knl's x[idx[i]] += v would read it twice.
	t.hoisting = op != "="
	arr, ref, err := t.ref(lhs)
	t.hoisting = false
	if err != nil {
		return err
	}
	arr.stored = true
	return t.store(ref, arr.dtype, op, rhs, p)
}

// assignInt updates an integer variable's affine value.
func (t *translator) assignInt(lhs *expr, v *variable, op string, rhs *expr, p pos) error {
	var pre *value
	if v.blank && op == "=" {
		val, err := t.eval(rhs)
		if err != nil {
			return err
		}
		if val.kind == vData {
			return t.becomeData(v, lhs.text, val, p)
		}
		pre = val
	}
	if v.scope != t.scope && !t.branchLocal(v) {
		if ok, err := t.accumulator(v, lhs.text, op, rhs); ok || err != nil {
			if err != nil {
				return err
			}
			return t.store(v.name, v.dtype, op, rhs, p)
		}
		return errorAt(p, "%s is assigned inside a loop or an if but declared outside: its value would depend on the path taken; compute it from the loop's index instead (for (i = ...) { int x = a*i + b; ... })", lhs.text)
	}
	if t.assigned != nil {
		t.assigned[lhs.text] = true
	}
	// Set again, it no longer holds its declaration's constant there:
	// no accumulator may start from it.
	v.blank, v.declList = false, nil
	e := rhs
	if op != "=" {
		e = &expr{op: "binary", text: op[:len(op)-1], args: []*expr{lhs, rhs}, p: p}
	}
	if v.kind == "cond" || v.dtype == "bool" {
		c, err := t.condition(e)
		if err != nil {
			return err
		}
		v.kind, v.c = "cond", c
		return nil
	}
	val := pre
	if val == nil {
		var err error
		if val, err = t.eval(e); err != nil {
			return err
		}
	}
	if val.kind == vData && op == "=" && v.kind == "int" && v.scope == t.scope {
		// Set again from data where it was declared (N = (N <
		// validYmin) ? validYmin : N, after int N = ty - 1): a private
		// from here on.
		return t.becomeData(v, lhs.text, val, p)
	}
	if val.kind != vInt {
		return errorAt(p, "%s: an integer variable set from data; counts need its value to be an affine function of the indices and sizes: set it from data only where it is declared (int %s = (int)a[i];, inside the if or loop that sets it), which makes it a private of its own, whose use as a subscript is an indirect access", lhs.text, lhs.text)
	}
	v.kind, v.val = "int", val.a
	return nil
}

// accumulator makes v, an integer variable declared with a constant
// and set from data inside a loop or an if (uint sum = 0; for (...)
// sum += s[...];), or set to an affine value under an if that reads
// data (kmeans' index = i under if (dist < min_dist), the nearest
// cluster so far), a private variable from its declaration on, as a
// floating-point one is: its constant is stored where it was declared.
// It reports whether it did.
func (t *translator) accumulator(v *variable, cname, op string, rhs *expr) (bool, error) {
	c, isConst := v.val.constant()
	if v.kind != "int" || !isConst || v.declList == nil || hasCall(rhs) {
		// rhs is evaluated twice: a call's inlined body would be emitted
		// twice.
		return false, nil
	}
	val, err := t.eval(rhs)
	if err != nil {
		return false, err
	}
	if val.kind != vData && !(val.kind == vInt && op == "=" && t.underData()) {
		return false, nil
	}
	priv := &array{name: t.unique(cname), cname: cname, dtype: v.dtype, space: "private", p: t.k.p}
	t.privs = append(t.privs, priv)
	init := &item{kind: "instr", text: priv.name + " = " + formatInt(c), free: true}
	*v.declList = slices.Insert(*v.declList, min(v.declAt, len(*v.declList)), init)
	v.kind, v.name, v.declList = "data", priv.name, nil
	return true, nil
}

// underData reports whether an enclosing if's condition reads data:
// what it sets then depends on the data, not on the indices alone.
func (t *translator) underData() bool {
	return slices.ContainsFunc(t.frames, func(f *frame) bool { return f.c != nil && !f.c.affine() })
}

// becomeData makes v, an integer variable declared without a value
// and first set from data (int k; if (a <= b) k = b; else k = a;), a
// private variable, which keeps what each branch stores: then it is data
// wherever it is read.
func (t *translator) becomeData(v *variable, cname string, val *value, p pos) error {
	priv := &array{name: t.unique(cname), cname: cname, dtype: v.dtype, space: "private", p: p}
	t.privs = append(t.privs, priv)
	for _, f := range t.frames {
		if _, ok := f.saved[v]; ok {
			delete(f.saved, v)
			f.order = slices.DeleteFunc(f.order, func(x *variable) bool { return x == v })
		}
	}
	v.kind, v.name, v.blank, v.why = "data", priv.name, false, ""
	v.clamp = nil
	if t.keepsClamp(v) {
		v.clamp = val.clamp
	}
	return t.storeValue(priv.name, priv.dtype, "=", val, p)
}

// store emits the instruction REF OP RHS.
func (t *translator) store(ref, dtype, op string, rhs *expr, p pos) error {
	if dtype == "f16" && op != "=" {
		return errorAt(p, "%s on a __half element is half arithmetic; write y[i] = __float2half_rn(__half2float(y[i]) %s v) (%s)", op, op[:len(op)-1], halfArithmetic)
	}
	if dtype == "f16" && isRounding(rhs) {
		arg, err := roundedArgument(rhs)
		if err != nil {
			return err
		}
		rhs = arg
	}
	v, err := t.eval(rhs)
	if err != nil {
		return err
	}
	return t.storeValue(ref, dtype, op, v, p)
}

// storeValue emits the instruction REF OP V.
func (t *translator) storeValue(ref, dtype, op string, v *value, p pos) error {
	isFloat := dtype == "f32" || dtype == "f64"
	if op == "=" || op == "+=" || op == "-=" || op == "*=" || op == "/=" && isFloat {
		text, err := t.dataText(v, p)
		if err != nil {
			return err
		}
		free := op == "=" && t.isPrivateScalar(ref) && isLiteral(v)
		t.emit(&item{kind: "instr", text: ref + " " + op + " " + text, p: p, free: free})
		return nil
	}
	if isFloat {
		return errorAt(p, "%s on a floating-point value is not C: %s", op, floatOperator(op[:len(op)-1]))
	}
	// C's q OP= v is q = q OP v, the operands converted as for OP: of
	// an integer q, / and % are the .knl's // and % only where neither
	// can be negative, and q /= x of a float x divides floats.
	target := &value{kind: vData, text: ref, prec: precAtom, dtype: dtype}
	val, err := t.dataBinary(op[:len(op)-1], op, target, v, p)
	if err != nil {
		return err
	}
	t.emit(&item{kind: "instr", text: ref + " = " + val.text, p: p})
	return nil
}

// forLoop translates a for loop with an affine start, an affine
// condition and a constant step into an iname; a loop whose bounds are
// constants and whose step is not an addition is unrolled.
func (t *translator) forLoop(s *stmt) error {
	t.scopes = append(t.scopes, map[string]*variable{})
	defer func() { t.scopes = t.scopes[:len(t.scopes)-1] }()
	s, comps, err := t.companions(s)
	if err != nil {
		return err
	}
	name, init, err := t.loopInit(s)
	if err != nil {
		return err
	}
	if trip, ok := t.opts.Trips[name]; ok && len(comps) == 0 {
		return t.dataLoop(s, name, init, trip)
	}
	start, err := t.loopStart(name, init)
	if err != nil {
		return err
	}
	v := t.lookup(name)
	if step, ok := t.loopStep(s.step, name); len(comps) > 0 && (!ok || breaks(s.then) || len(step) == 0) {
		return errorAt(s.p, "a loop over several variables (%s, %s) must step each by a constant addition, without a break", name, comps[0].name)
	}
	if breaks(s.then) {
		return t.unroll(s, name, v, start, "has a break")
	}
	if foldsIndex(s.then, name) {
		return t.unroll(s, name, v, start, "computes log2, exp2 or pow of its variable")
	}
	step, ok := t.loopStep(s.step, name)
	if !ok {
		return t.unroll(s, name, v, start, "steps by other than a constant addition")
	}
	if len(step) == 0 {
		return errorAt(s.p, "a loop over %s with step 0 never ends; step it by a nonzero constant (%s++, %s += STEP)", name, name, name)
	}
	if s.e == nil {
		return errorAt(s.p, "a loop without a condition: its trip count is not bounded; give it one, for (k = LOW; k < HIGH; k += STEP), or, where data ends it, its most trips with --trips")
	}
	if len(comps) == 0 && t.runsOnce(s, v, start, step) {
		return t.unroll(s, name, v, start, "runs once")
	}
	down := countsDown(step)
	iname := name
	if !step.equal(constPoly(1)) && !down {
		iname = name + "_it"
	}
	iname = t.unique(iname)
	t.inames = append(t.inames, iname)
	if down {
		t.down = append(t.down, iname)
	}
	// name = start + step*trip, for trip >= 0 while the condition holds.
	var val aff
	trip, ok := tripOf(iname, start, down)
	scaled, ok2 := trip.scale(step)
	if ok = ok && ok2; ok {
		val, ok = start.add(scaled, 1)
	}
	if !ok {
		return errorAt(s.p, "the loop over %s overflows", name)
	}
	outer := v.scope
	t.nscopes++
	t.scope = t.nscopes
	// The loop's own variable may not be assigned in its body.
	v.kind, v.val, v.scope = "int", val, -1
	for _, cp := range comps {
		cv, ok := cp.start.add(aff{iname: cp.step}, 1)
		if !ok {
			return errorAt(s.p, "the loop over %s overflows", cp.name)
		}
		t.declare(cp.name, &variable{kind: "int", val: cv, scope: -1})
	}
	c, err := t.condition(s.e)
	if err != nil {
		return err
	}
	conj, ok := c.conjunction()
	if !ok || !c.affine() {
		return errorAt(s.e.p, "the condition of the loop over %s is not a conjunction of affine comparisons (<, <=, >, >=); write the bounds so, or, where they are data, give the most iterations it runs, --trips %s=BOUND, to count it as an upper bound", name, name)
	}
	if !t.constantCoefficients(conj) {
		return errorAt(s.e.p, "the bound of the loop over %s multiplies an index by a size parameter, and a domain needs constant coefficients: give its most trips with --trips %s=BOUND to count it as an upper bound, or bound it by sizes and constants alone", name, name)
	}
	bounded := false
	for _, k := range conj {
		s, ok := t.sign(k.e[iname])
		bounded = bounded || ok && (s < 0 && !down || s > 0 && down)
	}
	if !bounded {
		return errorAt(s.e.p, "the condition of the loop over %s does not bound it in the direction of its step: a loop that counts up tests %s < HIGH (or <=), one that counts down %s > LOW (or >=)", name, name, name)
	}
	dom := append([]*cond{{op: "cmp", rel: ">=", e: trip}}, conj...)
	if len(t.inData) > 0 {
		// Loops nest in the order of their domains: one inside a
		// data-bounded loop is declared after that loop's for line.
		t.lateLoops = append(t.lateLoops, t.domainText(iname, dom))
	} else {
		t.loops = append(t.loops, t.domainText(iname, dom))
	}
	it := &item{kind: "for", iname: iname, p: s.p}
	saved := t.cur
	t.cur = &it.body
	t.inLoop++
	ind := t.inductions(s, name, trip)
	t.frames = append(t.frames, &frame{loop: true, induction: ind})
	err = t.block([]*stmt{s.then})
	t.frames = t.frames[:len(t.frames)-1]
	t.inLoop--
	t.cur = saved
	if err != nil {
		return err
	}
	for v := range ind {
		v.kind, v.why = "undef", fmt.Sprintf("is changed by the loop at line %d; after it its value is not known here: set it again", s.p.line)
	}
	t.emit(it)
	t.scope = outer
	v.kind, v.scope, v.why = "undef", outer, "is the index of a loop that has ended; its value there is not known"
	return nil
}

// companion is a variable that a for loop declares and steps besides
// its own (b of for (int a = aBegin, b = bBegin; a <= aEnd; a +=
// aStep, b += bStep)): start + step*iteration in the body.
type companion struct {
	name  string
	start aff
	step  poly
}

// companions splits a loop over several variables into the loop over
// the first, which s returns, and the others, each declared with an
// affine start and stepped by a constant or a size. A loop over one
// variable is returned as it is.
func (t *translator) companions(s *stmt) (*stmt, []companion, error) {
	if s.init == nil || s.init.kind != "decl" || len(s.init.decls) < 2 {
		return s, nil, nil
	}
	var steps []*expr
	var flatten func(e *expr)
	flatten = func(e *expr) {
		if e.op == "binary" && e.text == "," {
			flatten(e.args[0])
			flatten(e.args[1])
			return
		}
		steps = append(steps, e)
	}
	if s.step != nil {
		flatten(s.step)
	}
	main := s.init.decls[0].name
	out := *s
	init := *s.init
	init.decls = init.decls[:1]
	out.init, out.step = &init, nil
	var comps []companion
	for _, d := range s.init.decls[1:] {
		if d.init == nil || d.typ.ptr > 0 || len(d.dims) > 0 {
			return nil, nil, errorAt(d.p, "%s: a loop's second variable must be an integer with a start: declare it so, for (int k = 0, %s = START; ...)", d.name, d.name)
		}
		v, err := t.eval(d.init)
		if err != nil {
			return nil, nil, err
		}
		if v.kind != vInt {
			return nil, nil, errorAt(d.init.p, "%s: a loop's second variable must start at an affine value (of the indices, sizes and constants): where its start is data, read it into a variable before the loop and add the first variable's steps to it in the body (int m0 = ...; then m0 + k)", d.name)
		}
		comps = append(comps, companion{name: d.name, start: v.a})
	}
	for _, e := range steps {
		if exprAssigns(e, main) > 0 {
			out.step = e
			continue
		}
		x, inc, ok := t.increment(e, main)
		k := slices.IndexFunc(comps, func(c companion) bool { return c.name == x })
		if !ok || k < 0 || comps[k].step != nil {
			return nil, nil, errorAt(e.p, "the step of a loop over several variables must add a constant or a size to each, once (a += aStep, b += bStep)")
		}
		comps[k].step = inc
	}
	for _, c := range comps {
		if c.step == nil {
			return nil, nil, errorAt(s.p, "the loop's variable %s is not stepped; declare it outside the loop", c.name)
		}
	}
	return &out, comps, nil
}

// returnStmt translates a return of an inlined function: it stores its
// value where the call reads it.
func (t *translator) returnStmt(s *stmt) error {
	f := t.fns[len(t.fns)-1]
	switch {
	case s.e == nil && f.ret == nil:
		return nil
	case s.e == nil || f.ret == nil:
		return errorAt(s.p, "%s: a return that does not match its return type: return a value (return x;) from a function that has a type, and none from a void one", f.name)
	}
	return t.store(f.ret.name, f.ret.dtype, "=", s.e, s.p)
}

// loopInit reads the loop's initialization: the variable and the
// expression it starts at.
func (t *translator) loopInit(s *stmt) (string, *expr, error) {
	var name string
	var init *expr
	switch {
	case s.init == nil:
		return "", nil, errorAt(s.p, "a for loop without an initialization; write for (i = LOW; ...)")
	case s.init.kind == "decl" && len(s.init.decls) == 1 && s.init.decls[0].init != nil:
		d := s.init.decls[0]
		if _, err := elemType(d.typ, d.p, d.name); err != nil || d.typ.base == "float" || d.typ.base == "double" {
			return "", nil, errorAt(d.p, "the loop variable %s must be an integer: declare it int (for (int %s = 0; ...)) and compute a float from it in the body (float x = %s)", d.name, d.name, d.name)
		}
		name, init = d.name, d.init
		t.declare(name, &variable{kind: "undef"})
	case s.init.kind == "expr" && s.init.e.op == "assign" && s.init.e.text == "=" && s.init.e.args[0].op == "id":
		name, init = s.init.e.args[0].text, s.init.e.args[1]
		v := t.lookup(name)
		if v != nil && v.kind == "data" && s.while {
			return "", nil, errorAt(s.p, "a while loop over %s, which holds data: its trip count is data; write it as a for loop with affine bounds (or, stepping by a constant, give its most trips with --trips %s=BOUND)", name, name)
		}
		if v == nil || v.kind != "int" && v.kind != "undef" {
			return "", nil, errorAt(s.init.p, "the loop variable %s must be a declared integer: declare it int (for (int %s = 0; ...)) and compute a float from it in the body", name, name)
		}
	default:
		return "", nil, errorAt(s.p, "the loop's initialization must set one integer variable: for (int i = LOW; ...)")
	}
	return name, init, nil
}

// loopStart evaluates the start of the loop over name, which must be
// affine.
func (t *translator) loopStart(name string, init *expr) (aff, error) {
	v, err := t.eval(init)
	if err != nil {
		return nil, err
	}
	if v.kind != vInt {
		return nil, errorAt(init.p, "the loop over %s starts at a value read from data; write its bounds affine, or give the most iterations it runs, --trips %s=BOUND, to count it as an upper bound", name, name)
	}
	return v.a, nil
}

// loopStep reads i++, ++i, i += c, i -= c, i = i + c for a c that
// evaluates to a constant (3, or a variable set to num_blocks*256) or a
// product of tunables, of a known sign.
func (t *translator) loopStep(e *expr, name string) (poly, bool) {
	if e == nil {
		return nil, false
	}
	isVar := func(x *expr) bool { return x.op == "id" && x.text == name }
	num := func(x *expr) (poly, bool) {
		if mentions(x, name) {
			return nil, false
		}
		v, err := t.eval(x)
		if err != nil || v.kind != vInt {
			return nil, false
		}
		p, ok := v.a.poly()
		if _, known := t.sign(p); !ok || !known {
			return nil, false
		}
		return p, true
	}
	switch {
	case (e.op == "pre" || e.op == "post") && isVar(e.args[0]):
		if e.text == "++" {
			return constPoly(1), true
		}
		return constPoly(-1), true
	case e.op == "assign" && isVar(e.args[0]) && (e.text == "+=" || e.text == "-="):
		c, ok := num(e.args[1])
		if e.text == "-=" {
			c, _ = poly{}.add(c, -1)
		}
		return c, ok
	case e.op == "assign" && isVar(e.args[0]) && e.text == "=" && e.args[1].op == "binary" && isVar(e.args[1].args[0]):
		c, ok := num(e.args[1].args[1])
		switch e.args[1].text {
		case "+":
			return c, ok
		case "-":
			c, _ = poly{}.add(c, -1)
			return c, ok
		}
	}
	return nil, false
}

// maxUnroll bounds the iterations of a loop unrolled at import.
const maxUnroll = 4096

// unroll translates a loop with constant bounds whose step is not a
// constant addition (s >>= 1, s *= 2), or which has a break, by running
// it at import. why says which, in errors.
func (t *translator) unroll(s *stmt, name string, v *variable, start aff, why string) error {
	cur, ok := start.constant()
	if !ok {
		return errorAt(s.p, "the loop over %s %s, so it is unrolled at import, and does not start at a constant; write it as for (%s = LOW; %s < HIGH; %s += STEP) without a break, or make its bounds constants (-D)", name, why, name, name, name)
	}
	if s.e == nil || s.step == nil {
		return errorAt(s.p, "a loop without a condition or a step: its trip count is not bounded; give it both, for (k = LOW; k < HIGH; k += STEP)")
	}
	for n := 0; ; n++ {
		if err := t.work(s.p); err != nil {
			return err
		}
		if n == maxUnroll {
			return errorAt(s.p, "the loop over %s runs more than %d times at import; write it with an affine step", name, maxUnroll)
		}
		v.kind, v.val = "int", affConst(constPoly(cur))
		c, err := t.condition(s.e)
		if err != nil {
			return err
		}
		if c.op != "const" {
			return errorAt(s.e.p, "the loop over %s %s, so it is unrolled at import, and its bounds must be constants (a -D can fix an integer argument: -D iteration=1); write it as for (%s = LOW; %s < HIGH; %s += STEP) without a break", name, why, name, name, name)
		}
		if !c.val {
			break
		}
		broke, err := t.unrolledBody(s.then)
		if err != nil || broke {
			return err
		}
		v.kind, v.val = "int", affConst(constPoly(cur))
		saved := t.scope
		t.scope = v.scope
		err = t.exprStmt(s.step)
		t.scope = saved
		if err != nil {
			return err
		}
		next, ok := v.val.constant()
		if v.kind != "int" || !ok {
			return errorAt(s.step.p, "the step of the loop over %s, which is unrolled at import, does not give a constant: step it by constants alone (k *= 2, k >>= 1), giving a size a value with -D (-D n=VALUE fixes an integer argument)", name)
		}
		cur = next
	}
	v.kind, v.why = "undef", "is the index of a loop that has ended; its value there is not known"
	return nil
}

// unrolledBody translates one iteration of an unrolled loop's body and
// reports whether it breaks: a break at the body's top level, bare or
// under an if whose condition is known at import (if (i == iteration -
// 1) break;), ends the loop there.
func (t *translator) unrolledBody(body *stmt) (bool, error) {
	t.scopes = append(t.scopes, map[string]*variable{})
	defer func() { t.scopes = t.scopes[:len(t.scopes)-1] }()
	ss := []*stmt{body}
	if body.kind == "block" {
		ss = body.body
	}
	for _, s := range ss {
		if s.kind == "break" {
			return true, nil
		}
		if s.kind != "if" || s.els != nil || !isBreak(s.then) {
			if err := t.statement(s); err != nil {
				return false, err
			}
			continue
		}
		c, err := t.condition(s.e)
		if err != nil {
			return false, err
		}
		if c.op != "const" {
			return false, errorAt(s.p, "a break whose condition is not known at import (it depends on the indices or on data): the loop's trip count would vary; write the condition into the loop's bound")
		}
		if c.val {
			return true, nil
		}
	}
	return false, nil
}

func isBreak(s *stmt) bool {
	if s.kind == "block" && len(s.body) == 1 {
		s = s.body[0]
	}
	return s.kind == "break"
}

// breaks reports whether the loop body s has a break of its own (not
// one of a loop inside it), which unrolledBody understands.
func breaks(s *stmt) bool {
	if s == nil || s.kind == "for" {
		return false
	}
	if s.kind == "break" {
		return true
	}
	for _, b := range append([]*stmt{s.then, s.els}, s.body...) {
		if breaks(b) {
			return true
		}
	}
	return false
}

// constantCoefficients reports whether every iname of the constraints
// has a constant coefficient, as a domain needs.
func (t *translator) constantCoefficients(cs []*cond) bool {
	for _, c := range cs {
		for k, p := range c.e {
			if k != "" && !t.constLike(p) {
				return false
			}
		}
	}
	return true
}

// isPrivateScalar reports whether ref names a private scalar.
func (t *translator) isPrivateScalar(ref string) bool {
	for _, a := range t.privs {
		if a.name == ref && len(a.dims) == 0 {
			return true
		}
	}
	return false
}

// isLiteral reports a number written as such (0.2f, -0.8, 3).
func isLiteral(v *value) bool {
	if v.kind == vInt {
		_, ok := v.a.constant()
		return ok
	}
	_, ok := floatLiteral(strings.TrimPrefix(strings.TrimSuffix(v.text, "f"), "-"))
	return v.kind == vData && ok
}

// branchLocal reports whether v, declared outside the current scope,
// may be assigned here: only ifs, and loops of which it is an
// induction variable, stand between its declaration and here. The ifs
// save its value first.
func (t *translator) branchLocal(v *variable) bool {
	if v.scope < 0 || v.depth > len(t.frames) {
		return false
	}
	for _, f := range t.frames[v.depth:] {
		if f.loop && !f.induction[v] {
			return false
		}
	}
	t.changing(v)
	return true
}

// changing saves v's value in the ifs entered since its declaration,
// before it changes.
func (t *translator) changing(v *variable) {
	if v.depth > len(t.frames) {
		return
	}
	for _, f := range t.frames[v.depth:] {
		if _, ok := f.saved[v]; !f.loop && !ok {
			f.saved[v] = *v
			f.order = append(f.order, v)
		}
	}
}

// snapshot returns the values of the variables a branch assigned.
func (f *frame) snapshot() map[*variable]variable {
	out := map[*variable]variable{}
	for _, v := range f.order {
		out[v] = *v
	}
	return out
}

// restore gives the variables a branch assigned their values before it.
func (f *frame) restore() {
	for v, s := range f.saved {
		*v = s
	}
}

// inductions finds the induction variables of a loop whose iterations
// before the current one are trip (tripOf): integer variables declared
// outside it that one statement of its top level, and no other, changes
// by a constant or a size (array_offset += matrix_dim). Each takes its
// value at the iteration's start, x0 + c*trip, for the body.
func (t *translator) inductions(loop *stmt, name string, trip aff) map[*variable]bool {
	body := loop.then
	top := []*stmt{body}
	if body.kind == "block" {
		top = body.body
	}
	out := map[*variable]bool{}
	for _, s := range top {
		if s.kind != "expr" {
			continue
		}
		x, inc, ok := t.increment(s.e, name)
		if !ok || assignments(body, x) != 1 || mentions(loop.e, x) || loop.step != nil && mentions(loop.step, x) {
			continue
		}
		v := t.lookup(x)
		scaled, ok1 := trip.scale(inc)
		if v == nil || v.kind != "int" || v.scope < 0 || !ok1 {
			continue
		}
		val, ok := v.val.add(scaled, 1)
		if !ok {
			continue
		}
		t.changing(v)
		v.val = val
		out[v] = true
	}
	return out
}

// increment reads x += c, x -= c, x++, x--, x = x + c, where c is free
// of the loop's variable name and of x, and evaluates to a polynomial in
// the sizes.
func (t *translator) increment(e *expr, name string) (string, poly, bool) {
	if e.op != "assign" && e.op != "pre" && e.op != "post" || e.args[0].op != "id" {
		return "", nil, false
	}
	x := e.args[0].text
	var c *expr
	sign := int64(1)
	switch {
	case e.op != "assign":
		c = &expr{op: "num", text: "1", p: e.p}
		if e.text == "--" {
			sign = -1
		}
	case e.text == "+=" || e.text == "-=":
		c = e.args[1]
		if e.text == "-=" {
			sign = -1
		}
	case e.text == "=" && e.args[1].op == "binary" && e.args[1].args[0].op == "id" && e.args[1].args[0].text == x && (e.args[1].text == "+" || e.args[1].text == "-"):
		c = e.args[1].args[1]
		if e.args[1].text == "-" {
			sign = -1
		}
	default:
		return "", nil, false
	}
	if x == name || mentions(c, x) || mentions(c, name) {
		return "", nil, false
	}
	v, err := t.eval(c)
	if err != nil || v.kind != vInt {
		return "", nil, false
	}
	p, ok := v.a.poly()
	if !ok {
		return "", nil, false
	}
	p, ok = poly{}.add(p, sign)
	return x, p, ok
}

// assignments counts the statements of s that assign the variable x.
func assignments(s *stmt, x string) int {
	if s == nil {
		return 0
	}
	n := 0
	for _, e := range []*expr{s.e, s.step} {
		if e != nil {
			n += exprAssigns(e, x)
		}
	}
	for _, d := range s.decls {
		if d.init != nil {
			n += exprAssigns(d.init, x)
		}
	}
	for _, b := range append([]*stmt{s.init, s.then, s.els}, s.body...) {
		n += assignments(b, x)
	}
	return n
}

// exprAssigns counts the assignments and increments of x in e.
func exprAssigns(e *expr, x string) int {
	n := 0
	if (e.op == "assign" || e.op == "pre" || e.op == "post") && e.args[0].op == "id" && e.args[0].text == x {
		n++
	}
	for _, a := range e.args {
		if a != nil {
			n += exprAssigns(a, x)
		}
	}
	return n
}

// innerIf is " (the if at line N)" for the innermost if being
// translated, or "".
func (t *translator) innerIf() string {
	for _, f := range slices.Backward(t.frames) {
		if !f.loop && f.p.line > 0 {
			return fmt.Sprintf(" (the if at line %d)", f.p.line)
		}
	}
	return ""
}
