package counts

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is a typed expression of an instruction's right-hand side or
// predicate. The concrete types are *Literal, *Access, *Index, *Binary,
// *Neg, *BitNot, *Call, *Reduce, *Cast, *Compare, *Logic, *Not and
// *Conditional. Every node carries its resolved type; a *Cast marks each
// place where a value changes type, so that code generators and the
// interpreter need no typing rules of their own. Conditions (*Compare,
// *Logic, *Not) have type Bool and appear only where a condition is
// expected: a predicate, the condition of a *Conditional, an operand of
// *Logic or *Not.
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
// scalars). It is also the left-hand side of every instruction. Tag is
// loopy's tag of this use of the array (a$tag[i]), a label that changes
// nothing; "" when there is none.
//
// An access whose subscripts read data, x[col[j]] or hist[b] with b a
// temporary, is indirect: Indirect then holds its subscripts, one
// integer expression per dimension (an affine one as an *Index), and
// Index is nil. Its address is known only when it runs, so it has no
// stride class, bank-conflict degree or footprint (see IsIndirect).
type Access struct {
	Array    *Array
	Index    []Affine
	Indirect []Expr
	Tag      string
	At       Pos
	// Written holds the subscripts as written where they name
	// temporaries that hold affine values (affinetemp.go): Index holds
	// them with the temporaries' values in place, which counting and the
	// interpreter read, and generated code prints these; nil elsewhere.
	Written []Expr
	// held is the condition that the temporary an if block tests holds
	// (ifonce.go), which counting reads in its place; nil elsewhere.
	held Expr
	// holds is the affine value that a temporary read in a condition
	// holds there (affinetemp.go), which counting reads in its place;
	// nil elsewhere.
	holds *Affine
}

// IsIndirect reports whether the access's subscripts read data.
func (e *Access) IsIndirect() bool { return e.Indirect != nil }

// Index is an iname or parameter used as a value (after splitting, an
// affine expression of inames). Its type is I32, as in loopy.
type Index struct {
	Value Affine
	At    Pos
}

// BinOp is a binary arithmetic operator.
type BinOp uint8

// The binary operators. FloorDiv (//) is integer-only and rounds towards
// negative infinity (Python and isl semantics); Mod (%) on integers is the
// matching remainder, and on floating-point values C's fmod (the result
// has the sign of X). Div (/) and Pow (**) are floating-point only. The
// bitwise operators & | ^ and the shifts << >> are integer-only; a right
// shift is arithmetic (it rounds towards negative infinity), and the
// count of a shift must lie between 0 and the width of the type less one.
const (
	OpAdd BinOp = iota + 1
	OpSub
	OpMul
	OpDiv
	OpFloorDiv
	OpMod
	OpPow
	OpBitAnd
	OpBitOr
	OpBitXor
	OpShl
	OpShr
)

var binOpText = map[BinOp]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpFloorDiv: "//", OpMod: "%", OpPow: "**",
	OpBitAnd: "&", OpBitOr: "|", OpBitXor: "^", OpShl: "<<", OpShr: ">>"}

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

// BitNot is ~X, the bitwise complement of an integer.
type BitNot struct {
	X  Expr
	At Pos
}

// CmpOp is a comparison operator.
type CmpOp uint8

// The comparisons.
const (
	CmpLT CmpOp = iota + 1
	CmpLE
	CmpGT
	CmpGE
	CmpEQ
	CmpNE
)

var cmpOpText = map[CmpOp]string{CmpLT: "<", CmpLE: "<=", CmpGT: ">", CmpGE: ">=", CmpEQ: "==", CmpNE: "!="}

func (o CmpOp) String() string { return cmpOpText[o] }

// Compare is the condition X Op Y; X and Y have the same type, which is
// not Bool. Its type is Bool.
type Compare struct {
	Op   CmpOp
	X, Y Expr
	At   Pos
}

// Logic is the condition X and Y (Or false) or X or Y (Or set), both
// conditions. As in C and Python, Y is evaluated only when X does not
// decide the result: where X holds for and, where it does not for or.
type Logic struct {
	Or   bool
	X, Y Expr
	At   Pos
}

// Not is the condition not X.
type Not struct {
	X  Expr
	At Pos
}

// Conditional is Then where the condition Cond holds and Else elsewhere;
// Then and Else have type T. Written if(Cond, Then, Else) it evaluates
// Cond and then only the branch it chooses, as C's Cond ? Then : Else.
// Written select(Else, Then, Cond), OpenCL's argument order, it is Eager:
// all three are evaluated, as the arguments of OpenCL's select are.
type Conditional struct {
	Cond       Expr
	Then, Else Expr
	Eager      bool
	T          DType
	At         Pos
}

// Call applies one of the special functions exp, log, sqrt, rsqrt, sin,
// cos, fabs (one argument) or pow, fmin, fmax, fmod, max, min (two
// arguments). Arguments have type T; max and min take integers too (of
// floating-point values they are fmax and fmin).
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

func (e *Literal) Type() DType     { return e.T }
func (e *Access) Type() DType      { return e.Array.DType }
func (e *Index) Type() DType       { return I32 }
func (e *Binary) Type() DType      { return e.T }
func (e *Neg) Type() DType         { return e.X.Type() }
func (e *BitNot) Type() DType      { return e.X.Type() }
func (e *Call) Type() DType        { return e.T }
func (e *Reduce) Type() DType      { return e.T }
func (e *Cast) Type() DType        { return e.T }
func (e *Compare) Type() DType     { return Bool }
func (e *Logic) Type() DType       { return Bool }
func (e *Not) Type() DType         { return Bool }
func (e *Conditional) Type() DType { return e.T }

func (e *Literal) Pos() Pos     { return e.At }
func (e *Access) Pos() Pos      { return e.At }
func (e *Index) Pos() Pos       { return e.At }
func (e *Binary) Pos() Pos      { return e.At }
func (e *Neg) Pos() Pos         { return e.At }
func (e *BitNot) Pos() Pos      { return e.At }
func (e *Call) Pos() Pos        { return e.At }
func (e *Reduce) Pos() Pos      { return e.At }
func (e *Cast) Pos() Pos        { return e.X.Pos() }
func (e *Compare) Pos() Pos     { return e.At }
func (e *Logic) Pos() Pos       { return e.At }
func (e *Not) Pos() Pos         { return e.At }
func (e *Conditional) Pos() Pos { return e.At }

func (e *Literal) String() string {
	if e.T == U32 {
		return strconv.FormatInt(e.Int, 10) + "u"
	}
	if !e.T.IsFloat() {
		return strconv.FormatInt(e.Int, 10)
	}
	size := 64
	if e.T == F32 {
		size = 32
	}
	s := strconv.FormatFloat(e.Float, 'g', -1, size)
	if !strings.ContainsAny(s, ".eEnI") {
		s += ".0"
	}
	if e.T == F32 {
		s += "f"
	}
	return s
}

func (e *Access) String() string {
	name := e.Array.Name
	if e.Tag != "" {
		name += "$" + e.Tag
	}
	if e.IsIndirect() {
		parts := make([]string, len(e.Indirect))
		for i, x := range e.Indirect {
			parts[i] = x.String()
		}
		return name + "[" + strings.Join(parts, ", ") + "]"
	}
	if len(e.Index) == 0 {
		return name
	}
	parts := make([]string, len(e.Index))
	for i, a := range e.Index {
		parts[i] = a.String()
	}
	return name + "[" + strings.Join(parts, ", ") + "]"
}

func (e *Index) String() string {
	if len(e.Value.Terms) == 1 && e.Value.Terms[0].Coeff == 1 && e.Value.Const == 0 {
		return e.Value.String()
	}
	return "(" + e.Value.String() + ")"
}

func (e *Binary) String() string  { return fmt.Sprintf("(%s %s %s)", e.X, e.Op, e.Y) }
func (e *Neg) String() string     { return fmt.Sprintf("-%s", e.X) }
func (e *BitNot) String() string  { return fmt.Sprintf("~%s", e.X) }
func (e *Compare) String() string { return fmt.Sprintf("(%s %s %s)", e.X, e.Op, e.Y) }
func (e *Not) String() string     { return fmt.Sprintf("not %s", e.X) }

func (e *Logic) String() string {
	op := "and"
	if e.Or {
		op = "or"
	}
	return fmt.Sprintf("(%s %s %s)", e.X, op, e.Y)
}

func (e *Conditional) String() string {
	if e.Eager {
		return fmt.Sprintf("select(%s, %s, %s)", e.Else, e.Then, e.Cond)
	}
	return fmt.Sprintf("if(%s, %s, %s)", e.Cond, e.Then, e.Else)
}

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
	case *Access:
		for _, x := range e.Indirect {
			Walk(x, visit)
		}
	case *Binary:
		Walk(e.X, visit)
		Walk(e.Y, visit)
	case *Neg:
		Walk(e.X, visit)
	case *BitNot:
		Walk(e.X, visit)
	case *Compare:
		Walk(e.X, visit)
		Walk(e.Y, visit)
	case *Logic:
		Walk(e.X, visit)
		Walk(e.Y, visit)
	case *Not:
		Walk(e.X, visit)
	case *Conditional:
		Walk(e.Cond, visit)
		Walk(e.Then, visit)
		Walk(e.Else, visit)
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
