package counts

import (
	"math"
	"math/bits"
)

// Literal arithmetic is folded, as every C compiler folds it: 1/10.0f or
// 16 - 2 - q with q a constant is one literal in the IR, so that it
// counts no operation and the generated code holds its value.

// fold replaces every arithmetic node whose operands are all literals by
// a literal of its value, bottom-up; an operation that has no value
// (an integer division by zero, an overflow) is an error.
func (r *resolver) fold(e Expr) Expr {
	switch e := e.(type) {
	case *Binary:
		e.X, e.Y = r.fold(e.X), r.fold(e.Y)
		x, okx := e.X.(*Literal)
		y, oky := e.Y.(*Literal)
		if !okx || !oky {
			return e
		}
		if !e.T.IsFloat() {
			v, msg := intBinary(e.Op, x.Int, y.Int, e.T)
			if msg == "" && e.T == I32 && (v < math.MinInt32 || v > math.MaxInt32) {
				msg = "integer overflow"
			}
			if msg != "" {
				r.fail(e.At, "%s in %s, which the compiler computes (%d %s %d)", msg, e, x.Int, e.Op, y.Int)
			}
			return &Literal{Int: v, T: e.T, At: x.At}
		}
		return &Literal{Float: roundTo(e.T, floatBinary(e.Op)(x.Float, y.Float)), T: e.T, At: x.At}
	case *Neg:
		e.X = r.fold(e.X)
		if x, ok := e.X.(*Literal); ok {
			if x.T.IsFloat() {
				return &Literal{Float: -x.Float, T: x.T, At: e.At}
			}
			if v, ok := negate(x.Int, x.T); ok {
				return &Literal{Int: v, T: x.T, At: e.At}
			}
		}
	case *BitNot:
		e.X = r.fold(e.X)
		if x, ok := e.X.(*Literal); ok {
			return &Literal{Int: complement(x.Int, x.T), T: x.T, At: e.At}
		}
	case *Cast:
		e.X = r.fold(e.X)
		if x, ok := e.X.(*Literal); ok {
			return r.convert(x, e.T)
		}
	case *Call:
		return r.foldCall(e)
	case *Conditional:
		e.Cond, e.Then, e.Else = r.fold(e.Cond), r.fold(e.Then), r.fold(e.Else)
	case *Compare:
		e.X, e.Y = r.fold(e.X), r.fold(e.Y)
	case *Logic:
		e.X, e.Y = r.fold(e.X), r.fold(e.Y)
	case *Not:
		e.X = r.fold(e.X)
	case *Reduce:
		e.Body = r.fold(e.Body)
	}
	return e
}

// foldCall folds a function of literals.
func (r *resolver) foldCall(e *Call) Expr {
	lits := make([]*Literal, len(e.Args))
	for i := range e.Args {
		e.Args[i] = r.fold(e.Args[i])
		lit, ok := e.Args[i].(*Literal)
		if !ok {
			return e
		}
		lits[i] = lit
	}
	at := lits[0].At
	if !e.T.IsFloat() { // max and min of integers
		v := max(lits[0].Int, lits[1].Int)
		if e.Func == "min" {
			v = min(lits[0].Int, lits[1].Int)
		}
		return &Literal{Int: v, T: e.T, At: at}
	}
	if f, ok := unaryFuncs[e.Func]; ok {
		return &Literal{Float: roundTo(e.T, f(lits[0].Float)), T: e.T, At: at}
	}
	return &Literal{Float: roundTo(e.T, binaryFuncs[e.Func](lits[0].Float, lits[1].Float)), T: e.T, At: at}
}

// convert is literal x converted to t as C converts it: a float to an
// integer truncates towards zero, and must fit.
func (r *resolver) convert(x *Literal, t DType) *Literal {
	out := &Literal{T: t, At: x.At}
	switch {
	case x.T.IsFloat() && t.IsFloat():
		out.Float = roundTo(t, x.Float)
	case t.IsFloat():
		out.Float = roundTo(t, float64(x.Int))
	case x.T.IsFloat():
		v := math.Trunc(x.Float)
		ilo, ihi := intRange(t)
		lo, hi := float64(ilo), float64(ihi)
		if math.IsNaN(v) || v < lo || v >= hi+1 {
			r.fail(x.At, "cannot convert %g to %s", x.Float, t)
		}
		out.Int = int64(v)
	case t == U32:
		out.Int = wrapU32(x.Int)
	default:
		if !inRange(t, x.Int) {
			r.fail(x.At, "cannot convert %d to %s", x.Int, t)
		}
		out.Int = x.Int
	}
	return out
}

// PowerOfTwoDivisor reports whether b is an integer floor division or
// remainder by a literal power of two 2^k, and k. Such a division is an
// arithmetic right shift by k and such a remainder an AND with 2^k - 1,
// exactly, for negative dividends too (// and % round towards negative
// infinity): compilers emit them, and they count as int.<t>.shift and
// int.<t>.bitwise.
func PowerOfTwoDivisor(b *Binary) (k int, ok bool) {
	if b.T.IsFloat() || (b.Op != OpFloorDiv && b.Op != OpMod) {
		return 0, false
	}
	y, isLit := b.Y.(*Literal)
	if !isLit || y.Int <= 0 || y.Int&(y.Int-1) != 0 {
		return 0, false
	}
	return bits.TrailingZeros64(uint64(y.Int)), true
}
