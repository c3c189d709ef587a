package counts

import (
	"fmt"
	"math"
)

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
		subs, err := in.compileSubscripts(e, cx)
		if err != nil {
			return cval{}, err
		}
		return in.compileLoad(e, cx, subs)
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
			v, ok := negate(x.i(st), t)
			if !ok {
				in.fail(cx.ins, "integer overflow in %s", e)
			}
			return v
		}}, nil
	case *BitNot:
		x, err := in.compileExpr(e.X, cx)
		if err != nil {
			return cval{}, err
		}
		op, _ := nodeOp(e)
		ctr := in.opCounter(op)
		t := e.Type()
		return cval{i: func(st *state) int64 {
			v := x.i(st)
			st.counters[ctr]++
			return complement(v, t)
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
		f := floatBinary(e.Op)
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

// floatBinary is a floating-point operator on float64 values; the
// result is rounded to the operation's type after.
func floatBinary(op BinOp) func(a, b float64) float64 {
	switch op {
	case OpAdd:
		return func(a, b float64) float64 { return a + b }
	case OpSub:
		return func(a, b float64) float64 { return a - b }
	case OpMul:
		return func(a, b float64) float64 { return a * b }
	case OpDiv:
		return func(a, b float64) float64 { return a / b }
	case OpPow:
		return math.Pow
	}
	return math.Mod // C's fmod: the sign of a
}

// intBinary evaluates an integer operator of type t exactly; msg explains
// a failure.
func intBinary(op BinOp, a, b int64, t DType) (v int64, msg string) {
	if t == U32 {
		return u32Binary(op, a, b)
	}
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
	"pow": math.Pow, "fmin": cMin, "fmax": cMax, "fmod": math.Mod, "min": cMin, "max": cMax,
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
	if !t.IsFloat() { // max and min of integers
		x, y := args[0].i, args[1].i
		isMax := e.Func == "max"
		return cval{i: func(st *state) int64 {
			a, b := x(st), y(st)
			st.counters[ctr]++
			if isMax {
				return max(a, b)
			}
			return min(a, b)
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
	lo, hi := intRange(t)
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
		ilo, ihi := intRange(to)
		lo, hi := float64(ilo), float64(ihi)
		return cval{i: func(st *state) int64 {
			v := math.Trunc(x.f(st))
			if math.IsNaN(v) || v < lo || v >= hi+1 {
				in.fail(cx.ins, "cannot convert %g to %s in %s", v, to, e)
			}
			return int64(v)
		}}, nil
	}
	if to == U32 {
		return cval{i: func(st *state) int64 { return wrapU32(x.i(st)) }}, nil
	}
	return cval{i: func(st *state) int64 {
		v := x.i(st)
		if !inRange(to, v) {
			in.fail(cx.ins, "cannot convert %d to %s in %s", v, to, e)
		}
		return v
	}}, nil
}

// roundTo rounds v to the precision of t: to float32 for F32.
func roundTo(t DType, v float64) float64 {
	if t == F32 {
		return float64(float32(v))
	}
	return v
}

// Conditions and conditional values. A condition is
// compiled to an integer expression that is 1 where it holds and 0
// elsewhere.

func (in *interp) compileCompare(e *Compare, cx *cctx) (cval, error) {
	xy, err := in.compileAll(cx, e.X, e.Y)
	if err != nil {
		return cval{}, err
	}
	x, y, op := xy[0], xy[1], e.Op
	if x.f != nil {
		return cval{i: func(st *state) int64 { return truth(compare(op, x.f(st), y.f(st))) }}, nil
	}
	return cval{i: func(st *state) int64 {
		a, b := x.i(st), y.i(st)
		return truth(compare(op, a, b))
	}}, nil
}

// compare applies a comparison; float NaNs compare as in C.
func compare[T int64 | float64](op CmpOp, a, b T) bool {
	switch op {
	case CmpLT:
		return a < b
	case CmpLE:
		return a <= b
	case CmpGT:
		return a > b
	case CmpGE:
		return a >= b
	case CmpEQ:
		return a == b
	}
	return a != b
}

func truth(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// compileLogic compiles and, or and not; the second operand of and and or
// is evaluated only when the first does not decide.
func (in *interp) compileLogic(e Expr, cx *cctx) (cval, error) {
	if n, ok := e.(*Not); ok {
		x, err := in.compileExpr(n.X, cx)
		if err != nil {
			return cval{}, err
		}
		return cval{i: func(st *state) int64 { return 1 - x.i(st) }}, nil
	}
	l := e.(*Logic)
	xy, err := in.compileAll(cx, l.X, l.Y)
	if err != nil {
		return cval{}, err
	}
	x, y := xy[0], xy[1]
	if l.Or {
		return cval{i: func(st *state) int64 {
			if x.i(st) != 0 {
				return 1
			}
			return y.i(st)
		}}, nil
	}
	return cval{i: func(st *state) int64 {
		if x.i(st) == 0 {
			return 0
		}
		return y.i(st)
	}}, nil
}

// compileConditional compiles if(c, a, b), which evaluates one branch,
// and select(b, a, c), which evaluates both.
func (in *interp) compileConditional(e *Conditional, cx *cctx) (cval, error) {
	v, err := in.compileAll(cx, e.Cond, e.Then, e.Else)
	if err != nil {
		return cval{}, err
	}
	c, a, b := v[0].i, v[1], v[2]
	if a.f != nil {
		return cval{f: choose(c, a.f, b.f, e.Eager)}, nil
	}
	return cval{i: choose(c, a.i, b.i, e.Eager)}, nil
}

// choose returns a where c holds and b elsewhere, evaluating both (b
// first) when eager.
func choose[T int64 | float64](c func(*state) int64, a, b func(*state) T, eager bool) func(*state) T {
	if eager {
		return func(st *state) T {
			y, x := b(st), a(st)
			if c(st) != 0 {
				return x
			}
			return y
		}
	}
	return func(st *state) T {
		if c(st) != 0 {
			return a(st)
		}
		return b(st)
	}
}

// compileSubscripts compiles the subscripts of an indirect access, which
// are values; an affine access has none.
func (in *interp) compileSubscripts(acc *Access, cx *cctx) ([]iexpr, error) {
	var subs []iexpr
	for _, x := range acc.Indirect {
		v, err := in.compileExpr(x, cx)
		if err != nil {
			return nil, err
		}
		subs = append(subs, v.i)
	}
	return subs, nil
}
