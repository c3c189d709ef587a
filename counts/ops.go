package counts

// OpKind is the kind of an arithmetic operation, the unit in which flops
// (and integer operations) are counted.
type OpKind uint8

// Operation kinds. Add covers + and - (and sum reductions); Mul covers *
// (and product reductions); Div covers /, and for integers // and %; Pow
// covers ** and pow(); Exp is exp(); Special is every other function
// (log, sqrt, rsqrt, sin, cos, fabs, fmin, fmax, and max and min of two
// values, integers included) and max/min reductions.
// Fmod is % on floating-point values. Bitwise covers the integer
// operators & | ^ and ~, Shift the shifts << and >> (loopy's "bw" and
// "shift"). Negation, type conversion, comparisons, and, or, not and the
// choice of a conditional value are free, as in loopy.
const (
	KindAdd OpKind = iota + 1
	KindMul
	KindDiv
	KindPow
	KindExp
	KindSpecial
	KindFmod
	KindBitwise
	KindShift
)

var opKindNames = [...]string{KindAdd: "add", KindMul: "mul", KindDiv: "div", KindPow: "pow", KindExp: "exp", KindSpecial: "special",
	KindFmod: "fmod", KindBitwise: "bitwise", KindShift: "shift"}

func (k OpKind) String() string {
	if int(k) < len(opKindNames) && opKindNames[k] != "" {
		return opKindNames[k]
	}
	return "?"
}

// appliesTo reports whether operations of kind k exist at type t: fmod
// on floating-point types only, bitwise and shift on integers only.
func (k OpKind) appliesTo(t DType) bool {
	switch k {
	case KindFmod:
		return t.IsFloat()
	case KindBitwise, KindShift:
		return t.IsInt()
	}
	return true
}

// Op is an operation kind at a type.
type Op struct {
	Kind  OpKind
	DType DType
}

// Property is the op's property name: flop.f32.add for floating-point
// types, int.i32.add for integer types.
func (o Op) Property() string {
	prefix := "flop."
	if !o.DType.IsFloat() {
		prefix = "int."
	}
	return prefix + o.DType.String() + "." + o.Kind.String()
}

// nodeOp returns the operation an expression node performs itself, per
// evaluation, leaving its children aside. A reduction's own operation is
// performed once per point of its body and is reported by reduceOp.
func nodeOp(e Expr) (Op, bool) {
	switch e := e.(type) {
	case *Binary:
		kind := map[BinOp]OpKind{OpAdd: KindAdd, OpSub: KindAdd, OpMul: KindMul, OpDiv: KindDiv,
			OpFloorDiv: KindDiv, OpMod: KindDiv, OpPow: KindPow, OpBitAnd: KindBitwise, OpBitOr: KindBitwise,
			OpBitXor: KindBitwise, OpShl: KindShift, OpShr: KindShift}[e.Op]
		if e.Op == OpMod && e.T.IsFloat() {
			kind = KindFmod
		}
		if _, ok := PowerOfTwoDivisor(e); ok {
			kind = map[BinOp]OpKind{OpFloorDiv: KindShift, OpMod: KindBitwise}[e.Op]
		}
		return Op{kind, opType(e.T)}, true
	case *BitNot:
		return Op{KindBitwise, opType(e.Type())}, true
	case *Call:
		kind := KindSpecial
		switch e.Func {
		case "exp":
			kind = KindExp
		case "pow":
			kind = KindPow
		case "fmod":
			kind = KindFmod
		}
		return Op{kind, opType(e.T)}, true
	}
	return Op{}, false
}

// OpOf returns the operation an expression node performs itself, per
// evaluation, leaving its children aside: for a reduction, the operation
// its operator applies per point of its body. Nodes that cost nothing
// (literals, accesses, conversions, comparisons, conditions) have none.
func OpOf(e Expr) (Op, bool) {
	if r, ok := e.(*Reduce); ok {
		return reduceOp(r), true
	}
	return nodeOp(e)
}

// reduceOp is the operation a reduction applies per point of its body.
func reduceOp(r *Reduce) Op {
	kind := map[ReduceOp]OpKind{RedSum: KindAdd, RedProduct: KindMul, RedMax: KindSpecial, RedMin: KindSpecial}[r.Op]
	return Op{kind, opType(r.T)}
}
