package cimport

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// evalPair evaluates two operands, the first first.
func (t *translator) evalPair(x, y *expr) (*value, *value, error) {
	a, err := t.eval(x)
	if err != nil {
		return nil, nil, err
	}
	b, err := t.eval(y)
	return a, b, err
}

// eval translates an expression.
func (t *translator) eval(e *expr) (*value, error) {
	switch e.op {
	case "val":
		return e.val, nil
	case "num":
		if v, ok := intLiteral(e.text); ok {
			return &value{kind: vInt, a: affConst(constPoly(v)), unsigned: unsignedLiteral(e.text, v)}, nil
		}
		f, ok := floatLiteral(e.text)
		if !ok {
			return nil, errorAt(e.p, "%s is not a number .knl can write: write it in decimal (0x1p3f is 8.0f)", e.text)
		}
		dtype := ""
		if strings.HasSuffix(f, "f") {
			dtype = "f32"
		}
		return &value{kind: vData, text: f, prec: precAtom, dtype: dtype}, nil
	case "id":
		return t.name(e)
	case "member":
		return t.member(e)
	case "index", "unary":
		if e.op == "unary" && e.text != "*" {
			return t.unary(e)
		}
		ref, dtype, err := t.reference(e)
		if err != nil {
			return nil, err
		}
		return &value{kind: vData, text: ref, prec: precAtom, dtype: dtype}, nil
	case "binary":
		return t.binary(e)
	case "cond":
		return t.ternary(e)
	case "cast":
		return t.cast(e)
	case "call":
		return t.call(e)
	case "assign", "pre", "post":
		return nil, errorAt(e.p, "an assignment inside an expression; make it a statement of its own")
	case "str":
		return nil, errorAt(e.p, "a string in a kernel is not understood: .knl has no strings; remove what uses it")
	}
	return nil, errorAt(e.p, "this expression is not understood")
}

func (t *translator) name(e *expr) (*value, error) {
	v := t.lookup(e.text)
	if v == nil {
		if strings.Contains(e.text, "::") {
			return nil, errorAt(e.p, "%s is a C++ scoped name, which is not understood: write the value it stands for, or a C name given with -D NAME=VALUE", e.text)
		}
		if e.text == "threadIdx" || e.text == "blockIdx" {
			return nil, errorAt(e.p, "%s is a vector: take its axis, %s.x (or .y, .z)", e.text, e.text)
		}
		return nil, errorAt(e.p, "%s is not declared (a macro or type from a header that is not read? give it with -D)", e.text)
	}
	switch v.kind {
	case "int":
		return &value{kind: vInt, a: v.val}, nil
	case "cond":
		return &value{kind: vCond, c: v.c}, nil
	case "data", "scalar":
		return &value{kind: vData, text: v.name, prec: precAtom, dtype: v.dtype, clamp: v.clamp}, nil
	case "undef":
		why := v.why
		if why == "" {
			why = "has no value here"
		}
		return nil, errorAt(e.p, "%s %s", e.text, why)
	case "array":
		return nil, errorAt(e.p, "%s is an array; index it", e.text)
	case "group":
		return nil, errorAt(e.p, "%s is a cooperative group, which has no value in .knl: only its sync() is understood (%s.sync(), a barrier)", e.text, e.text)
	}
	return nil, errorAt(e.p, "%s is a pointer, which has no value in .knl: read an element it points to (%s[j] or *%s)", e.text, e.text, e.text)
}

// member translates threadIdx.x, blockIdx.y, blockDim.z and gridDim.x.
func (t *translator) member(e *expr) (*value, error) {
	obj := e.args[0]
	if obj.op != "id" {
		return nil, errorAt(e.p, "a field of a structure is not understood here: copy the value into a variable of its type first (float2 v = p[i]; then v.x)")
	}
	ax := strings.Index("xyz", e.text)
	if ax < 0 || len(e.text) != 1 {
		return nil, errorAt(e.p, "%s.%s is not understood: the launch's vectors have the axes x, y and z", obj.text, e.text)
	}
	switch obj.text {
	case "threadIdx", "blockIdx", "blockDim", "gridDim":
		return t.index(obj.text, ax, e.p)
	}
	return nil, errorAt(e.p, "%s.%s: only the launch's vectors (threadIdx, blockIdx, blockDim, gridDim), vector types (float2 ...) and structs the file defines have fields, and %s is none; drop .%s, or declare %s of such a type", obj.text, e.text, obj.text, e.text, obj.text)
}

// unlaunched reports whether e is an index of an axis the launch does
// not have (blockIdx.y of a 1-D grid), which is 0.
func (t *translator) unlaunched(e *expr) bool {
	if e.op != "member" || e.args[0].op != "id" || len(e.text) != 1 {
		return false
	}
	ax := strings.Index("xyz", e.text)
	return ax >= len(t.axes) && (e.args[0].text == "blockIdx" || e.args[0].text == "threadIdx")
}

// index is a work-item or group index, or a size of the launch.
func (t *translator) index(kind string, ax int, p pos) (*value, error) {
	if ax >= len(t.axes) {
		return nil, errorAt(p, "the kernel uses axis %d of the launch, but the work-group size has %d axes; give --local with a size for each axis, e.g. --local 32,8", ax, len(t.axes))
	}
	a := t.axes[ax]
	switch kind {
	case "threadIdx", "get_local_id":
		return &value{kind: vInt, a: a.localValue()}, nil
	case "blockIdx", "get_group_id":
		return &value{kind: vInt, a: affIname(a.group)}, nil
	case "get_global_id":
		g, _ := aff{a.group: a.size}.add(a.localValue(), 1)
		return &value{kind: vInt, a: g}, nil
	case "blockDim", "get_local_size":
		return &value{kind: vInt, a: affConst(a.size)}, nil
	case "gridDim", "get_num_groups":
		if a.groups != nil {
			return &value{kind: vInt, a: affConst(a.groups)}, nil
		}
	case "get_global_size":
		if a.groups != nil {
			if g, ok := a.groups.mul(a.size); ok {
				return &value{kind: vInt, a: affConst(g)}, nil
			}
		}
	}
	return nil, errorAt(p, "%s: the number of work-groups is not an affine value in .knl unless --groups gives it without a division (--groups 240); use the sizes it comes from", kind)
}

func (t *translator) unary(e *expr) (*value, error) {
	if e.text == "&" {
		return nil, errorAt(e.p, "an address (&) is not understood outside __ldg(&a[i])")
	}
	if e.text == "!" {
		c, err := t.condition(e.args[0])
		if err != nil {
			return nil, err
		}
		return &value{kind: vCond, c: not(c)}, nil
	}
	v, err := t.eval(e.args[0])
	if err != nil {
		return nil, err
	}
	switch {
	case e.text == "+":
		return v, nil
	case v.kind == vInt && e.text == "-":
		return &value{kind: vInt, a: v.a.scaleConst(-1)}, nil
	case v.kind == vInt && e.text == "~":
		return &value{kind: vInt, a: v.a.scaleConst(-1).addConst(-1)}, nil
	case v.kind == vCond:
		return nil, errorAt(e.p, "a condition used as a number; write COND ? 1 : 0")
	}
	return &value{kind: vData, text: e.text + paren(v.text, v.prec, precUnary), prec: precUnary, dtype: promote(v.dtype)}, nil
}

// binary translates arithmetic, comparisons and logic.
func (t *translator) binary(e *expr) (*value, error) {
	switch e.text {
	case "&&", "||", "<", ">", "<=", ">=", "==", "!=":
		c, err := t.condition(e)
		if err != nil {
			return nil, err
		}
		return &value{kind: vCond, c: c}, nil
	case ",":
		return nil, errorAt(e.p, "the comma operator is not understood; write two statements")
	case "*":
		if t.unlaunched(e.args[0]) || t.unlaunched(e.args[1]) {
			// gridDim.x*blockIdx.y of a 1-D launch (Rodinia's folded
			// grids) is 0, whatever gridDim.x.
			return &value{kind: vInt, a: aff{}}, nil
		}
	}
	l, r, err := t.evalPair(e.args[0], e.args[1])
	if err != nil {
		return nil, err
	}
	if l.kind == vCond || r.kind == vCond {
		return nil, errorAt(e.p, "a condition used as a number; write COND ? 1 : 0")
	}
	if l.dtype == "f16" || r.dtype == "f16" {
		return nil, errorAt(e.p, "%s of __half values is half arithmetic; convert them with __half2float first (%s)", e.text, halfArithmetic)
	}
	if l.kind == vInt && r.kind == vInt {
		return t.intBinary(e, l.a, r.a)
	}
	return t.dataBinary(e.text, e.text, l, r, e.p)
}

// dataBinary translates l OP r where an operand is data, with C's
// meaning: written is the operator as the source writes it (OP, or
// OP= of a compound assignment, which computes the same), for the
// refusals.
func (t *translator) dataBinary(op, written string, l, r *value, at pos) (*value, error) {
	if identity(op, l, r) {
		// data >> 0 and data & 0xFFFFFFFF (cuda-samples' TAG_MASK) are
		// the data, as a hand port writes them.
		return l, nil
	}
	lt, rt, err := t.dataTexts(l, r, at)
	if err != nil {
		return nil, err
	}
	dtype := wider(l.dtype, r.dtype)
	if dtype == "" && (op == "/" || op == "%") && l.kind == vData && r.kind == vData && !strings.ContainsAny(lt+rt, ".e") {
		dtype = "i32"
	}
	isInt := isIntType(dtype)
	switch {
	case isInt && (op == "/" || op == "%") && (dtype == "u32" || unsignedOperands(l, r)):
		// Of values that cannot be negative, C's quotient and remainder
		// are the .knl's, which round towards minus infinity; so are
		// those of unsigned ints, C's and the .knl's alike.
		if op == "/" {
			op = "//"
		}
	case isInt && (op == "/" || op == "%"):
		return nil, errorAt(at, "integer %s of data: %s", written, signedDivision)
	case !isInt && op != "+" && op != "-" && op != "*" && op != "/":
		return nil, errorAt(at, "%s on floating-point values is not C: %s", written, floatOperator(op))
	}
	p := binaryPrec[op]
	return &value{kind: vData, text: paren(lt, l.prec, p) + " " + op + " " + paren(rt, r.prec, p+1), prec: p, dtype: dtype}, nil
}

// identity reports whether l OP r is l: an integer of 32 bits or fewer
// shifted by 0, or masked by a constant whose low 32 bits are all ones.
func identity(op string, l, r *value) bool {
	c, ok := r.a.constant()
	if l.kind != vData || r.kind != vInt || !ok || !isIntType(l.dtype) || l.dtype == "i64" {
		return false
	}
	return (op == ">>" || op == "<<") && c == 0 || op == "&" && c&0xFFFFFFFF == 0xFFFFFFFF
}

// unsignedOperands reports a dividend of an unsigned narrow type (u8,
// u16) and a divisor that is a positive constant or of such a type.
func unsignedOperands(l, r *value) bool {
	unsigned := func(v *value) bool { return v.kind == vData && (v.dtype == "u8" || v.dtype == "u16") }
	c, ok := r.a.constant()
	return unsigned(l) && (unsigned(r) || r.kind == vInt && ok && c > 0)
}

// intBinary computes an operation of affine integers, which must stay
// affine.
func (t *translator) intBinary(e *expr, l, r aff) (*value, error) {
	notAffine := func(what string) (*value, error) {
		return nil, errorAt(e.p, "%s is not affine in the indices: %s", e.text, what)
	}
	// quasi is x % d, x & (d - 1) or x / d of an index that d does not
	// divide: a work-item's lane or run (lanes.go), or refused for why.
	quasi := func(d int64, op, why string) (*value, error) {
		v, hint, err := t.lane(e, l, d, op)
		switch {
		case err != nil:
			return nil, err
		case v != nil:
			return v, nil
		case hint != "":
			return notAffine(hint)
		}
		return notAffine(why)
	}
	var out aff
	ok := true
	switch e.text {
	case "+":
		out, ok = l.add(r, 1)
	case "-":
		out, ok = l.add(r, -1)
	case "*":
		if p, isPoly := r.poly(); isPoly {
			out, ok = l.scale(p)
		} else if p, isPoly := l.poly(); isPoly {
			out, ok = r.scale(p)
		} else {
			return notAffine("a product of two indices; counts need subscripts and bounds linear in the indices")
		}
	case "/", "%", ">>", "<<", "&", "|", "^":
		d, isConst := r.constant()
		if lc, lConst := l.constant(); lConst && isConst {
			v, ok := intOp(e.text, lc, d)
			if !ok {
				return nil, errorAt(e.p, "%d %s %d: overflow, division by zero or a shift out of range", lc, e.text, d)
			}
			return &value{kind: vInt, a: affConst(constPoly(v))}, nil
		}
		switch {
		case e.text == "<<" && isConst && d >= 0 && d < 62:
			out, ok = l.scale(constPoly(1 << d))
		case (e.text == "/" || e.text == ">>") && isConst && d >= 0:
			div := d
			if e.text == ">>" {
				if d > 62 {
					return notAffine("a shift out of range")
				}
				div = 1 << d
			}
			if div == 0 {
				return nil, errorAt(e.p, "division by zero")
			}
			if out, ok = l.divExact(div); ok {
				return &value{kind: vInt, a: out}, nil
			}
			if e.text == ">>" {
				return t.shift(e, l, div)
			}
			return quasi(div, "/", "an integer division that does not divide every coefficient; .knl's // and % by constants would round towards minus infinity, C's towards zero: write the index without the division")
		case e.text == "%" && isConst && d > 0:
			return quasi(d, "%", fmt.Sprintf("%% %d of an index is quasi-affine, which .knl takes in conditions (x %% %d == 0) but not as a value: write the index without it", d, d))
		case e.text == "&" && isConst && d > 0 && d&(d+1) == 0:
			return quasi(d+1, "&", fmt.Sprintf("& %d is a remainder modulo %d, quasi-affine, which .knl takes in conditions (x %% %d == 0) but not as a value: write the index without it", d, d+1, d+1))
		case !isConst && r[""] != nil && len(r) == 1:
			names := sortedMonomials(r[""])
			names = slices.DeleteFunc(names, func(m string) bool { return m == "" })
			return notAffine(fmt.Sprintf("%s by %s, which is no constant; give it a value with -D (-D %s=VALUE fixes an integer argument), or write the index without it", e.text, t.instrAff(r), strings.Split(names[0], "*")[0]))
		default:
			return notAffine("only + and -, products by constants and sizes, and exact divisions by constants stay affine")
		}
	}
	if !ok {
		return nil, errorAt(e.p, "an integer overflows 64 bits")
	}
	return &value{kind: vInt, a: out}, nil
}

// ternary translates C ? A : B: a constant condition chooses, others
// become if(C, A, B).
func (t *translator) ternary(e *expr) (*value, error) {
	// A comparison's operands are evaluated once, for the condition and
	// for minMaxChoice: nested ?: would evaluate them exponentially often.
	var l, r *value
	var c *cond
	var err error
	if ce := e.args[0]; isComparison(ce) {
		if l, r, err = t.evalPair(ce.args[0], ce.args[1]); err == nil {
			c, err = t.comparison(ce, l, r)
		}
	} else {
		c, err = t.condition(ce)
	}
	if err != nil {
		return nil, err
	}
	if c.op == "const" {
		if c.val {
			return t.eval(e.args[1])
		}
		return t.eval(e.args[2])
	}
	a, b, err := t.evalPair(e.args[1], e.args[2])
	if err != nil {
		return nil, err
	}
	if fn := t.minMaxChoice(e.args[0], l, r, a, b); fn != "" && isIntValue(a) && isIntValue(b) {
		v, _, err := t.minMaxOf(fn, a, b, e.p)
		return v, err
	}
	at, err := t.dataText(a, e.p)
	if err != nil {
		return nil, err
	}
	bt, err := t.dataText(b, e.p)
	if err != nil {
		return nil, err
	}
	// An integer chosen otherwise is data, the .knl's if(): it may
	// stand in a subscript as an indirect access, not in a bound.
	return &value{kind: vData, text: "if(" + c.format(t.instrAff) + ", " + at + ", " + bt + ")", prec: precAtom, dtype: wider(intDtype(a), intDtype(b))}, nil
}

// minMaxChoice reports whether c ? a : b is the min or the max of
// the integers a and b, which c compares (i < m ? i : m), or whose
// difference c compares with 0 (x < 0 ? -x : 0, Rodinia's clamps): it
// returns "min", "max" or "". l and r are the values c compares, nil
// where c is no comparison.
func (t *translator) minMaxChoice(c *expr, l, r, a, b *value) string {
	if l == nil || !strings.Contains("< <= > >=", c.text) || a.kind == vCond || b.kind == vCond || !isIntValue(l) || !isIntValue(r) {
		return ""
	}
	text := func(v *value) string { s, _ := t.dataText(v, c.p); return s }
	lt, rt, at, bt := text(l), text(r), text(a), text(b)
	less := c.text[0] == '<'
	switch {
	case at == lt && bt == rt && less, at == rt && bt == lt && !less:
		return "min"
	case at == lt && bt == rt, at == rt && bt == lt:
		return "max"
	}
	if l.kind != vInt || r.kind != vInt || a.kind != vInt || b.kind != vInt {
		return ""
	}
	// l < r says r - l > 0: where a - b is r - l, it says a > b.
	d, ok1 := a.a.add(b.a, -1)
	rl, ok2 := r.a.add(l.a, -1)
	if !ok1 || !ok2 {
		return ""
	}
	switch {
	case d.equal(rl) && less, d.equal(rl.scaleConst(-1)) && !less:
		return "max"
	case d.equal(rl), d.equal(rl.scaleConst(-1)):
		return "min"
	}
	return ""
}

// intDtype is the type of a value, i32 for an affine integer.
func intDtype(v *value) string {
	if v.kind == vInt {
		return "i32"
	}
	return v.dtype
}

// isIntValue reports an integer value: affine, or data of an integer
// type.
func isIntValue(v *value) bool {
	return v.kind == vInt || v.kind == vData && isIntType(v.dtype)
}

func (t *translator) instrAff(a aff) string { return t.affText(a, false) }

// cast translates a cast: one to an integer type of an integer, or to
// the floating-point type a value has, changes nothing; a cast of a
// constant is a literal; others become the .knl's casts, which convert
// as C's do. An integer cast of data is data: it cannot stand in a
// subscript.
func (t *translator) cast(e *expr) (*value, error) {
	v, err := t.eval(e.args[0])
	if err != nil {
		return nil, err
	}
	if e.typ.ptr > 0 {
		return nil, errorAt(e.p, "a cast to a pointer is not understood; index the kernel's argument directly")
	}
	to, err := elemType(e.typ, e.p, "the cast")
	if err != nil {
		return nil, err
	}
	switch {
	case v.kind == vInt && (to == "i32" || to == "i64" || to == "u32"):
		// An index stays affine, as one declared unsigned int does: its
		// values are taken not to wrap.
		return v, nil
	case v.kind == vData && v.dtype == to:
		return v, nil
	case v.kind == vData && v.dtype == "" && (to == "f32" || to == "f64") && strings.ContainsAny(v.text, ".e"):
		v.dtype = to
		if to == "f32" && !strings.HasSuffix(v.text, "f") {
			v.text += "f"
		}
		return v, nil
	case v.kind == vInt && (to == "f32" || to == "f64"):
		if c, ok := v.a.constant(); ok {
			lit, _ := floatLiteral(formatInt(c) + ".0")
			if to == "f32" {
				lit += "f"
			}
			return &value{kind: vData, text: lit, prec: precAtom, dtype: to}, nil
		}
	}
	text, err := t.dataText(v, e.args[0].p)
	if err != nil {
		return nil, err
	}
	return &value{kind: vData, text: knlCasts[to] + paren(text, v.prec, precUnary), prec: precUnary, dtype: to}, nil
}

// knlCasts spells the .knl's casts, which convert as C's do.
var knlCasts = map[string]string{"f32": "(float)", "f64": "(double)", "i32": "(int)", "u32": "(u32)", "i64": "(long)",
	"i8": "(i8)", "u8": "(u8)", "i16": "(i16)", "u16": "(u16)"}

// call translates the launch's index functions, math functions and
// __ldg.
func (t *translator) call(e *expr) (*value, error) {
	f := e.args[0]
	args := e.args[1:]
	if f.op != "id" {
		return nil, errorAt(e.p, "this call is not understood: call a device function by its name (f(x)); a call through a pointer has no .knl form")
	}
	switch f.text {
	case "get_global_id", "get_local_id", "get_group_id", "get_local_size", "get_num_groups", "get_global_size":
		if len(args) != 1 {
			return nil, errorAt(e.p, "%s takes one argument", f.text)
		}
		v, err := t.eval(args[0])
		if err != nil {
			return nil, err
		}
		ax, ok := v.a.constant()
		if v.kind != vInt || !ok || ax < 0 || ax > 2 {
			return nil, errorAt(args[0].p, "%s: the axis must be a constant 0, 1 or 2", f.text)
		}
		return t.index(f.text, int(ax), e.p)
	case "__half2float", "vload_half", "__float2half", "__float2half_rn", "__double2half":
		arg, err := halfArgument(f.text, args, e.p)
		if err != nil {
			return nil, err
		}
		v, err := t.eval(arg)
		if err != nil {
			return nil, err
		}
		return halfToFloat(v, f.text, e.p)
	case "__ldg":
		if len(args) != 1 {
			return nil, errorAt(e.p, "__ldg takes one argument")
		}
		a := args[0]
		if a.op == "unary" && a.text == "&" {
			a = a.args[0]
		} else {
			a = &expr{op: "unary", text: "*", args: []*expr{a}, p: a.p}
		}
		arr, ref, err := t.ref(a)
		if err != nil {
			return nil, err
		}
		arr.ldg = true
		return &value{kind: vData, text: ref, prec: precAtom, dtype: arr.dtype}, nil
	case "min", "max", "fminf", "fmaxf", "fmin", "fmax":
		if len(args) == 2 {
			if v, ok, err := t.intMinMax(f.text, args); ok || err != nil {
				return v, err
			}
		}
	case "log2", "log2f", "__log2f", "exp2", "exp2f", "__exp2f", "pow", "powf", "__powf":
		if v, ok := t.foldMath(f.text, args); ok {
			return v, nil
		}
	case "__fdividef", "fdividef", "native_divide", "half_divide", "__fdiv_rn":
		// A fast division is a division, as the hand ports write it.
		if len(args) != 2 {
			return nil, errorAt(e.p, "%s takes two arguments", f.text)
		}
		return t.eval(&expr{op: "binary", text: "/", args: args, p: e.p})
	case "mad", "fma", "fmaf", "__fmaf_rn":
		if len(args) != 3 {
			return nil, errorAt(e.p, "%s takes three arguments", f.text)
		}
		mul := &expr{op: "binary", text: "*", args: []*expr{args[0], args[1]}, p: e.p}
		return t.eval(&expr{op: "binary", text: "+", args: []*expr{mul, args[2]}, p: e.p})
	}
	if fn := t.device(e); fn != nil {
		v, err := t.callDevice(fn, args, e.p)
		if err == nil && v == nil {
			err = errorAt(e.p, "%s returns nothing (void); call it as a statement", f.text)
		}
		return v, err
	}
	if isAtomic(f.text) {
		return nil, errorAt(e.p, "%s: its result, the old value, is used, and .knl's atomic_add returns nothing; make the atomic a statement of its own", f.text)
	}
	name, ok := counts.CFunction(f.text)
	if f.text == "min" || f.text == "max" {
		name, ok = "f"+f.text, true
	}
	if !ok {
		switch {
		case f.text == "printf":
			return nil, errorAt(e.p, "a call to printf: .knl kernels print nothing; remove the call (or put it under an #ifdef that is not defined)")
		case strings.Contains(f.text, "::"):
			return nil, errorAt(e.p, "a call to %s, a C++ scoped name: call the C function (std::max of floats is fmaxf, of ints max; std::sqrt is sqrtf)", f.text)
		}
		return nil, errorAt(e.p, "a call to %s: a device function or a builtin .knl does not have; inline it (as a macro, or by hand)", f.text)
	}
	want := 1
	if name == "pow" || name == "fmin" || name == "fmax" || name == "fmod" {
		want = 2
	}
	if len(args) != want {
		return nil, errorAt(e.p, "%s takes %d arguments", f.text, want)
	}
	var texts []string
	dtype := ""
	for _, a := range args {
		v, err := t.eval(a)
		if err != nil {
			return nil, err
		}
		s, err := t.dataText(v, a.p)
		if err != nil {
			return nil, err
		}
		texts = append(texts, s)
		dtype = wider(dtype, v.dtype)
	}
	return &value{kind: vData, text: name + "(" + strings.Join(texts, ", ") + ")", prec: precAtom, dtype: dtype}, nil
}

// isAtomic reports a CUDA or OpenCL atomic function.
func isAtomic(name string) bool {
	return strings.HasPrefix(name, "atomic") || strings.HasPrefix(name, "atom_")
}

// intMinMax translates min and max of integers: of constants it folds
// them, of other integers it writes the .knl's min and max, whose value
// is data (it cannot stand in a subscript or a bound). ok is false where
// an argument is floating-point, or fn is fmin or fmax of non-constants:
// those are the math functions.
func (t *translator) intMinMax(fn string, args []*expr) (*value, bool, error) {
	a, b, err := t.evalPair(args[0], args[1])
	if err != nil {
		return nil, false, err
	}
	if a.kind != vInt && !isIntType(a.dtype) || b.kind != vInt && !isIntType(b.dtype) {
		return nil, false, nil
	}
	x, ok1 := a.a.constant()
	y, ok2 := b.a.constant()
	if a.kind == vInt && b.kind == vInt && ok1 && ok2 {
		if strings.Contains(fn, "min") == (x < y) {
			return &value{kind: vInt, a: affConst(constPoly(x))}, true, nil
		}
		return &value{kind: vInt, a: affConst(constPoly(y))}, true, nil
	}
	if fn != "min" && fn != "max" {
		return nil, false, nil
	}
	return t.minMaxOf(fn, a, b, args[0].p)
}

// minMaxOf writes min or max of two integer values. A lone name first
// is written +name, so that the .knl does not read an iname there as a
// reduction's.
func (t *translator) minMaxOf(fn string, a, b *value, p pos) (*value, bool, error) {
	var texts []string
	dtype := ""
	for _, v := range []*value{a, b} {
		s, err := t.dataText(v, p)
		if err != nil {
			return nil, true, err
		}
		texts = append(texts, s)
		if v.kind == vInt {
			dtype = wider(dtype, "i32")
		} else {
			dtype = wider(dtype, v.dtype)
		}
	}
	if isIdent(texts[0]) {
		texts[0] = "+" + texts[0]
	}
	return &value{kind: vData, text: fn + "(" + texts[0] + ", " + texts[1] + ")", prec: precAtom, dtype: dtype, clamp: clampOf(fn, a, b)}, true, nil
}

// device returns the device function that the call e calls, if any.
func (t *translator) device(e *expr) *kernelFunc {
	if f := e.args[0]; f.op == "id" {
		return t.k.devices[f.text]
	}
	return nil
}

// isIdent reports whether s is a lone name.
func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

func formatInt(c int64) string {
	return affConst(constPoly(c)).format(nil, nil)
}

// condition translates a condition: affine comparisons stay affine,
// others become .knl text.
func (t *translator) condition(e *expr) (*cond, error) {
	switch {
	case e.op == "binary" && (e.text == "&&" || e.text == "||"):
		a, b, err := t.conditions(e.args[0], e.args[1])
		if err != nil {
			return nil, err
		}
		if e.text == "&&" {
			return and(a, b), nil
		}
		return or(a, b), nil
	case e.op == "unary" && e.text == "!":
		c, err := t.condition(e.args[0])
		if err != nil {
			return nil, err
		}
		return not(c), nil
	case (e.text == "==" || e.text == "!=") && e.op == "binary" && isBoolean(e.args[0]) && isBoolean(e.args[1]):
		return t.sameTruth(e)
	case (e.text == "==" || e.text == "!=") && e.op == "binary" && !hasCall(e):
		if c, ok := t.modCond(e); ok {
			return c, nil
		}
		fallthrough
	case isComparison(e):
		l, r, err := t.evalPair(e.args[0], e.args[1])
		if err != nil {
			return nil, err
		}
		return t.comparison(e, l, r)
	}
	v, err := t.eval(e)
	if err != nil {
		return nil, err
	}
	return valueCond(v), nil
}

// conditions translates the two operands of a logical operation or of a
// comparison of two conditions.
func (t *translator) conditions(x, y *expr) (a, b *cond, err error) {
	if a, err = t.condition(x); err != nil {
		return nil, nil, err
	}
	if b, err = t.condition(y); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// isBoolean reports whether e is a comparison or a logical operation,
// whose value in C is 0 or 1.
func isBoolean(e *expr) bool {
	return isComparison(e) || e.op == "unary" && e.text == "!" || e.op == "binary" && (e.text == "&&" || e.text == "||")
}

// sameTruth translates A == B and A != B of two conditions (pnpoly's
// (b > a) != (c > a)): of affine ones, by and, or and not; where one
// reads data, as the .knl compares them, if(A, 1, 0) != if(B, 1, 0),
// as the hand ports write it.
func (t *translator) sameTruth(e *expr) (*cond, error) {
	a, b, err := t.conditions(e.args[0], e.args[1])
	if err != nil {
		return nil, err
	}
	if a.affine() && b.affine() {
		differ := or(and(a, not(b)), and(not(a), b))
		if e.text == "!=" {
			return differ, nil
		}
		return not(differ), nil
	}
	f := func(c *cond) string { return "if(" + c.format(t.instrAff) + ", 1, 0)" }
	return &cond{op: "data", text: f(a) + " " + e.text + " " + f(b)}, nil
}

// modCond reads x % c == 0 (or != 0) of an affine x and a positive
// constant c (reduce0's tid % (2*s) == 0): an affine condition, which
// holds where c divides x whatever x's sign, so that C's remainder,
// which rounds towards zero, and the .knl's agree.
func (t *translator) modCond(e *expr) (*cond, bool) {
	m, z := e.args[0], e.args[1]
	if z.op == "binary" && z.text == "%" {
		m, z = z, m
	}
	if m.op != "binary" || m.text != "%" {
		return nil, false
	}
	zero, err := t.eval(z)
	if err != nil || zero.kind != vInt || !zero.a.equal(aff{}) {
		return nil, false
	}
	x, c, err := t.evalPair(m.args[0], m.args[1])
	if err != nil || x.kind != vInt || c.kind != vInt {
		return nil, false
	}
	d, ok := c.a.constant()
	if _, isConst := x.a.constant(); isConst || !ok || d <= 0 {
		return nil, false
	}
	return &cond{op: "mod", rel: e.text, e: x.a, mod: d}, true
}

// isComparison reports a comparison, < > <= >= == !=.
func isComparison(e *expr) bool {
	return e.op == "binary" && strings.Contains("< > <= >= == !=", e.text) && len(e.text) <= 2 && e.text != "="
}

// comparison is the condition l OP r of the comparison e, whose operands
// evaluate to l and r.
func (t *translator) comparison(e *expr, l, r *value) (*cond, error) {
	if l.kind == vInt && r.kind == vInt {
		c, ok := compare(l.a, e.text, r.a)
		if !ok {
			return nil, errorAt(e.p, "an integer overflows 64 bits")
		}
		return c, nil
	}
	if c, ok := clampCompare(l, e.text, r); ok {
		return c, nil
	}
	lt, rt, err := t.dataTexts(l, r, e.p)
	if err != nil {
		return nil, err
	}
	return &cond{op: "data", text: paren(lt, l.prec, precCmp+1) + " " + e.text + " " + paren(rt, r.prec, precCmp+1)}, nil
}

// dataTexts writes the two operands of a binary operation or a
// comparison as .knl text.
func (t *translator) dataTexts(l, r *value, p pos) (lt, rt string, err error) {
	if lt, err = t.dataText(l, p); err != nil {
		return "", "", err
	}
	if rt, err = t.dataText(r, p); err != nil {
		return "", "", err
	}
	return lt, rt, nil
}

// valueCond is the condition that a value holds: a condition is itself,
// a number holds where it is not 0.
func valueCond(v *value) *cond {
	switch v.kind {
	case vCond:
		return v.c
	case vInt:
		c, _ := compare(v.a, "!=", aff{})
		return c
	}
	return &cond{op: "data", text: paren(v.text, v.prec, precCmp+1) + " != 0"}
}

// dataText writes a value as a .knl expression.
func (t *translator) dataText(v *value, p pos) (string, error) {
	switch v.kind {
	case vData:
		return v.text, nil
	case vInt:
		s := t.affText(v.a, false)
		if v.unsigned {
			s += "u"
		}
		v.prec = affPrec(s)
		return s, nil
	case vCond:
		// C's value of a condition, 1 or 0 (pnpoly's c = !c).
		v.prec = precAtom
		return "if(" + v.c.format(t.instrAff) + ", 1, 0)", nil
	}
	return "", errorAt(p, "a condition used as a number; write COND ? 1 : 0")
}

// pointerSum splits a sum of terms one of which is an array, *(a + i
// + j) as Fan1 writes it, into the array and the sum of the others.
func (t *translator) pointerSum(e *expr) (*expr, []*expr) {
	var terms []*expr
	var flatten func(x *expr)
	flatten = func(x *expr) {
		if x.op == "binary" && x.text == "+" {
			flatten(x.args[0])
			flatten(x.args[1])
			return
		}
		terms = append(terms, x)
	}
	flatten(e)
	k := slices.IndexFunc(terms, t.isArray)
	if k < 0 {
		return e, nil
	}
	base := terms[k]
	terms = slices.Delete(terms, k, k+1)
	sub := terms[0]
	for _, x := range terms[1:] {
		sub = &expr{op: "binary", text: "+", args: []*expr{sub, x}, p: sub.p}
	}
	return base, []*expr{sub}
}

// reference translates an array reference: a[i], tile[y][x], *(a + i);
// it returns the .knl reference and the element type.
func (t *translator) reference(e *expr) (string, string, error) {
	arr, ref, err := t.ref(e)
	if err != nil {
		return "", "", err
	}
	return ref, arr.dtype, nil
}

// ref translates an array reference and returns the array. A subscript
// that reads data (a[idx[i]], hist[b] with b set from data) is an
// indirect access, which the .knl writes as C does.
func (t *translator) ref(e *expr) (*array, string, error) {
	var subs []*expr
	base := e
	for base.op == "index" {
		subs = append([]*expr{base.args[1]}, subs...)
		base = base.args[0]
	}
	if base.op == "unary" && base.text == "*" && len(subs) == 0 {
		inner := base.args[0]
		switch {
		case inner.op == "binary" && inner.text == "+":
			base, subs = t.pointerSum(inner)
		case inner.op == "id":
			base, subs = inner, []*expr{{op: "num", text: "0", p: inner.p}}
		}
	}
	if base.op == "id" && t.lookup(base.text) == nil {
		return nil, "", errorAt(base.p, "%s is not an argument or a variable of the kernel (a __constant__ or __device__ array declared outside it?); pass it to the kernel as an argument", base.text)
	}
	if base.op != "id" || !t.isArray(base) {
		return nil, "", errorAt(e.p, "not an array of the kernel: pointer arithmetic other than a[i] and *(a + i) is not understood")
	}
	v := t.lookup(base.text)
	if v.kind == "ptr" {
		// p[i] with p = s + off is s[off + i].
		if len(subs) != 1 {
			return nil, "", errorAt(e.p, "%s points into an array: index it with one subscript", base.text)
		}
		subs = []*expr{offset(v.off, subs[0])}
		v = v.base
	}
	arr := t.arrayNamed(v.name)
	if len(subs) != len(arr.dims) && !(arr.space == "global" && len(subs) == 1) {
		return nil, "", errorAt(e.p, "%s has %d dimensions, indexed with %d subscripts: give one subscript for each dimension (%s[i][j] for two)", base.text, len(arr.dims), len(subs), base.text)
	}
	var texts []string
	for _, s := range subs {
		sv, err := t.eval(s)
		if err != nil {
			return nil, "", err
		}
		if sv.kind == vInt {
			texts = append(texts, t.affText(sv.a, false))
			continue
		}
		if err := indirect(arr, base.text, sv, s.p); err != nil {
			return nil, "", err
		}
		if t.hoisting && !isIdent(sv.text) {
			tmp := &array{name: t.unique(base.text + "_at"), dtype: promote(sv.dtype), space: "private", p: s.p}
			t.privs = append(t.privs, tmp)
			t.emit(&item{kind: "instr", text: tmp.name + " = " + sv.text, p: s.p})
			sv.text = tmp.name
		}
		texts = append(texts, sv.text)
	}
	return arr, arr.name + "[" + strings.Join(texts, ", ") + "]", nil
}

// indirect checks a subscript that reads data: an integer, of a global
// or local array (a private one lives in registers, which no data can
// index).
func indirect(arr *array, name string, sv *value, p pos) error {
	switch {
	case sv.kind == vCond:
		return errorAt(p, "the subscript of %s is a condition; write COND ? 1 : 0", name)
	case !isIntType(sv.dtype):
		return errorAt(p, "the subscript of %s is not an integer; convert it with (int)(...), which truncates", name)
	case arr.space == "private":
		return errorAt(p, "the subscript of %s reads data (an indirect access), and %s is a private array, which lives in registers that no data can index; declare it __shared__ or pass it as an argument", name, name)
	}
	return nil
}

func (t *translator) isArray(e *expr) bool {
	if e.op != "id" {
		return false
	}
	v := t.lookup(e.text)
	return v != nil && (v.kind == "array" || v.kind == "ptr")
}

func (t *translator) arrayNamed(name string) *array {
	for _, a := range append(t.arrays, t.privs...) {
		if a.name == name {
			return a
		}
	}
	return nil
}

// flagValue evaluates a flag's expression (C syntax, with the source's
// macros) as a polynomial in the size parameters.
func (t *translator) flagValue(text string, macros map[string]*macro, flag string) (poly, error) {
	e, err := t.flagExpr(text, macros, flag)
	if err != nil {
		return nil, err
	}
	return t.flagPoly(e, flag)
}

// flagExpr parses a flag's expression.
func (t *translator) flagExpr(text string, macros map[string]*macro, flag string) (*expr, error) {
	bad := func(why string) error { return &Error{Msg: fmt.Sprintf("%s: %s", flag, why)} }
	l, err := lex(text)
	if err != nil {
		return nil, bad(err.(*Error).Msg)
	}
	toks, err := expandAll(l.toks[:len(l.toks)-1], macros, pos{}, nil)
	if err != nil {
		return nil, bad(err.(*Error).Msg)
	}
	ps := &parser{toks: toks, cuda: t.cuda, typedefs: map[string]ctype{}}
	e, err := ps.expr()
	if err != nil {
		return nil, bad(err.(*Error).Msg)
	}
	if ps.peek().kind != tEOF {
		return nil, bad(fmt.Sprintf("unexpected %q", ps.peek().text))
	}
	return e, nil
}

// flagPoly evaluates a flag's parsed expression.
func (t *translator) flagPoly(e *expr, flag string) (poly, error) {
	t.inFlag = true
	v, err := t.eval(e)
	t.inFlag = false
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("%s: %s (flags may use the kernel's integer arguments and the source's macros)", flag, err.(*Error).Msg)}
	}
	p, ok := v.a.poly()
	if v.kind != vInt || !ok {
		return nil, &Error{Msg: flag + ": not an integer expression of the kernel's integer arguments"}
	}
	return p, nil
}

// groupsValue reads a --groups size, N or N/D + C for a positive
// constant D and a constant C ((matrix_dim - offset)/16 - 1, as lud's
// host launches): the number of groups is N/D + C in C's arithmetic,
// the quotient truncated. It returns N, D and C.
func (t *translator) groupsValue(text string, macros map[string]*macro) (poly, poly, int64, error) {
	flag := "--groups " + text
	e, err := t.flagExpr(text, macros, "--groups")
	if err != nil {
		return nil, nil, 0, err
	}
	div, c := e, int64(0)
	if e.op == "binary" && (e.text == "+" || e.text == "-") && e.args[0].op == "binary" && e.args[0].text == "/" {
		cp, err := t.flagPoly(e.args[1], flag)
		if err != nil {
			return nil, nil, 0, err
		}
		k, ok := cp.constant()
		if !ok {
			return nil, nil, 0, &Error{Msg: flag + ": what is added to the division must be a constant"}
		}
		div, c = e.args[0], k
		if e.text == "-" {
			c = -k
		}
	}
	if div.op != "binary" || div.text != "/" {
		n, err := t.flagPoly(e, flag)
		return n, constPoly(1), 0, err
	}
	n, err := t.flagPoly(div.args[0], flag)
	if err != nil {
		return nil, nil, 0, err
	}
	dp, err := t.flagPoly(div.args[1], flag)
	if err != nil {
		return nil, nil, 0, err
	}
	if _, ok := t.positive(dp); !ok {
		return nil, nil, 0, &Error{Msg: flag + ": a division must be by a positive constant"}
	}
	return n, dp, c, nil
}

// offset is the expression off + i, or i where off is 0.
func offset(off *value, i *expr) *expr {
	if c, ok := off.a.constant(); off.kind == vInt && ok && c == 0 {
		return i
	}
	return &expr{op: "binary", text: "+", args: []*expr{{op: "val", val: off, p: i.p}, i}, p: i.p}
}

// foldMath computes log2, exp2 and pow of integer constants where the
// result is an integer, exactly (Rodinia's i <= __log2f(HEIGHT) and int
// power_two = __powf(2, i), in a loop unrolled over i): an integer
// constant, which may bound a loop or stand in a subscript.
func (t *translator) foldMath(fn string, args []*expr) (*value, bool) {
	var xs []float64
	for _, a := range args {
		v, err := t.eval(a)
		if err != nil || v.kind != vInt {
			return nil, false
		}
		c, ok := v.a.constant()
		if !ok || c < -1<<20 || c > 1<<20 {
			return nil, false
		}
		xs = append(xs, float64(c))
	}
	var r float64
	switch {
	case strings.Contains(fn, "log2") && len(xs) == 1 && xs[0] > 0:
		r = math.Log2(xs[0])
	case strings.Contains(fn, "exp2") && len(xs) == 1:
		r = math.Exp2(xs[0])
	case strings.Contains(fn, "pow") && len(xs) == 2:
		r = math.Pow(xs[0], xs[1])
	default:
		return nil, false
	}
	if r != math.Trunc(r) || math.Abs(r) > 1<<24 {
		return nil, false
	}
	return &value{kind: vInt, a: affConst(constPoly(int64(r)))}, true
}

// foldsIndex reports whether s computes log2, exp2 or pow of the loop
// variable name, which foldMath folds only where it is a constant: the
// loop is then unrolled.
func foldsIndex(s *stmt, name string) bool {
	return stmtHas(s, func(e *expr) bool {
		if e.op != "call" || e.args[0].op != "id" || !mentions(e, name) {
			return false
		}
		switch e.args[0].text {
		case "log2", "log2f", "__log2f", "exp2", "exp2f", "__exp2f", "pow", "powf", "__powf":
			return true
		}
		return false
	})
}
