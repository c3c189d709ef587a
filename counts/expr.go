package counts

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is a typed expression of an instruction's right-hand side. The
// concrete types are *Literal, *Access, *Index, *Binary, *Neg, *Call,
// *Reduce and *Cast. Every node carries its resolved type; a *Cast marks
// each place where a value changes type, so that code generators and the
// interpreter need no typing rules of their own.
type Expr interface {
	Type() DType
	Pos() Pos
	String() string
}

// Literal is a numeric constant of type T: Int holds it for integer
// types, Float for floating-point types.
type Literal struct {
	Int   int64
	Float float64
	T     DType
	At    Pos
}

// Access reads an element of an array or a temporary (Index is empty for
// scalars). It is also the left-hand side of every instruction.
type Access struct {
	Array *Array
	Index []Affine
	At    Pos
}

// Index is an iname or parameter used as a value (after splitting, an
// affine expression of inames). Its type is I32, as in loopy.
type Index struct {
	Value Affine
	At    Pos
}

// BinOp is a binary arithmetic operator.
type BinOp uint8

// The binary operators. FloorDiv (//) and Mod (%) are integer-only and
// round towards negative infinity (Python and isl semantics); Div (/) is
// floating-point only; Pow (**) is floating-point only.
const (
	OpAdd BinOp = iota + 1
	OpSub
	OpMul
	OpDiv
	OpFloorDiv
	OpMod
	OpPow
)

var binOpText = map[BinOp]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpFloorDiv: "//", OpMod: "%", OpPow: "**"}

func (o BinOp) String() string { return binOpText[o] }

// Binary is X Op Y; both operands have type T.
type Binary struct {
	Op   BinOp
	X, Y Expr
	T    DType
	At   Pos
}

// Neg is -X.
type Neg struct {
	X  Expr
	At Pos
}

// Call applies one of the special functions exp, log, sqrt, rsqrt, sin,
// cos, fabs (one argument) or pow, fmin, fmax (two arguments). Arguments
// have type T.
type Call struct {
	Func string
	Args []Expr
	T    DType
	At   Pos
}

// ReduceOp is a reduction operator.
type ReduceOp uint8

// The reductions of loopy.
const (
	RedSum ReduceOp = iota + 1
	RedProduct
	RedMax
	RedMin
)

var reduceNames = map[string]ReduceOp{"sum": RedSum, "product": RedProduct, "max": RedMax, "min": RedMin}

func (r ReduceOp) String() string {
	for k, v := range reduceNames {
		if v == r {
			return k
		}
	}
	return "?"
}

// Reduce is a reduction of Body over Inames: an inner loop of its
// instruction, starting from the operator's neutral element (0, 1, -inf,
// +inf; for integers the extreme representable values).
type Reduce struct {
	Op     ReduceOp
	Inames []string
	Body   Expr
	T      DType
	At     Pos
}

// Cast converts X to T. Conversions cost nothing in the counts.
type Cast struct {
	X Expr
	T DType
}

func (e *Literal) Type() DType { return e.T }
func (e *Access) Type() DType  { return e.Array.DType }
func (e *Index) Type() DType   { return I32 }
func (e *Binary) Type() DType  { return e.T }
func (e *Neg) Type() DType     { return e.X.Type() }
func (e *Call) Type() DType    { return e.T }
func (e *Reduce) Type() DType  { return e.T }
func (e *Cast) Type() DType    { return e.T }

func (e *Literal) Pos() Pos { return e.At }
func (e *Access) Pos() Pos  { return e.At }
func (e *Index) Pos() Pos   { return e.At }
func (e *Binary) Pos() Pos  { return e.At }
func (e *Neg) Pos() Pos     { return e.At }
func (e *Call) Pos() Pos    { return e.At }
func (e *Reduce) Pos() Pos  { return e.At }
func (e *Cast) Pos() Pos    { return e.X.Pos() }

func (e *Literal) String() string {
	if !e.T.IsFloat() {
		return strconv.FormatInt(e.Int, 10)
	}
	s := strconv.FormatFloat(e.Float, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEnI") {
		s += ".0"
	}
	if e.T == F32 {
		s += "f"
	}
	return s
}

func (e *Access) String() string {
	if len(e.Index) == 0 {
		return e.Array.Name
	}
	parts := make([]string, len(e.Index))
	for i, a := range e.Index {
		parts[i] = a.String()
	}
	return e.Array.Name + "[" + strings.Join(parts, ", ") + "]"
}

func (e *Index) String() string {
	if len(e.Value.Terms) == 1 && e.Value.Terms[0].Coeff == 1 && e.Value.Const == 0 {
		return e.Value.String()
	}
	return "(" + e.Value.String() + ")"
}

func (e *Binary) String() string { return fmt.Sprintf("(%s %s %s)", e.X, e.Op, e.Y) }
func (e *Neg) String() string    { return fmt.Sprintf("-%s", e.X) }

func (e *Call) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
	}
	return e.Func + "(" + strings.Join(parts, ", ") + ")"
}

func (e *Reduce) String() string {
	in := e.Inames[0]
	if len(e.Inames) > 1 {
		in = "(" + strings.Join(e.Inames, ", ") + ")"
	}
	return fmt.Sprintf("%s(%s, %s)", e.Op, in, e.Body)
}

func (e *Cast) String() string { return fmt.Sprintf("%s(%s)", e.T, e.X) }

// Walk calls visit for e and every expression below it, parents first. It
// stops descending where visit returns false.
func Walk(e Expr, visit func(Expr) bool) {
	if !visit(e) {
		return
	}
	switch e := e.(type) {
	case *Binary:
		Walk(e.X, visit)
		Walk(e.Y, visit)
	case *Neg:
		Walk(e.X, visit)
	case *Call:
		for _, a := range e.Args {
			Walk(a, visit)
		}
	case *Reduce:
		Walk(e.Body, visit)
	case *Cast:
		Walk(e.X, visit)
	}
}
