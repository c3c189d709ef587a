package cimport

import (
	"math"
	"strconv"
	"strings"
)

// value is what a C expression evaluates to: an integer known as an
// affine expression of the inames (kind vInt), a .knl expression that
// reads data (vData, with its type and the precedence of its text), or
// a condition (vCond).
type value struct {
	kind  int
	a     aff
	text  string
	prec  int
	dtype string // f32, f64, i32, i64; "" for a literal, which takes its type from its use
	c     *cond
	clamp *clamp // an integer min or max of affine values (vData), whose comparisons are affine
	// unsigned marks a literal that is a C unsigned int beyond int's
	// range (unsignedLiteral), written with the u of a u32 literal.
	unsigned bool
}

// A clamp is an integer min or max of affine values, such as Rodinia's
// validXmin = (blkX < 0) ? -blkX : 0 and W = (W < validXmin) ?
// validXmin : W. The .knl computes it as data (a private i32, which a
// subscript reads as an indirect access), but a comparison with it is
// affine (clampCompare).
type clamp struct {
	fn   string // min or max
	args []aff
}

const (
	vInt = iota
	vData
	vCond
)

// Precedences of the .knl's (pymbolic's) operators, loosest first.
const (
	precCond = iota + 1
	precOr
	precAnd
	precNot
	precCmp
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precAdd
	precMul
	precUnary
	precPow
	precAtom
)

var binaryPrec = map[string]int{
	"+": precAdd, "-": precAdd, "*": precMul, "/": precMul, "//": precMul, "%": precMul,
	"<<": precShift, ">>": precShift, "&": precBitAnd, "^": precBitXor, "|": precBitOr,
}

// paren writes v's text, in parentheses where it binds looser than prec.
func paren(text string, p, prec int) string {
	if p < prec {
		return "(" + text + ")"
	}
	return text
}

// affPrec is the precedence of an affine expression's text.
func affPrec(s string) int {
	switch {
	case strings.Contains(s[1:], " + ") || strings.Contains(s[1:], " - "):
		return precAdd
	case strings.HasPrefix(s, "-"):
		return precUnary
	case strings.Contains(s, "*") || strings.Contains(s, "("):
		return precMul
	}
	return precAtom
}

// wider is the type of a binary operation's result: floating point
// over integer, the wider over the narrower, a typed operand over a
// literal.
func wider(a, b string) string {
	a, b = promote(a), promote(b)
	rank := map[string]int{"": 0, "i32": 1, "u32": 2, "i64": 3, "f32": 4, "f64": 5}
	if rank[a] >= rank[b] {
		return a
	}
	return b
}

// narrow lists the 8- and 16-bit integer types, storage types that C
// promotes to int in arithmetic, as the .knl does.
var narrow = map[string]bool{"i8": true, "u8": true, "i16": true, "u16": true}

// promote is the type an operand of type d computes in.
func promote(d string) string {
	if narrow[d] {
		return "i32"
	}
	return d
}

// isIntType reports an integer .knl type.
func isIntType(d string) bool {
	return d == "i32" || d == "u32" || d == "i64" || narrow[d]
}

// floatLiteral rewrites a C floating-point literal in the .knl's
// syntax: 1.f is 1.0f, .5 is 0.5; an f or F suffix makes it
// single-precision.
func floatLiteral(s string) (string, bool) {
	t := strings.ToLower(s)
	single := strings.HasSuffix(t, "f")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "f"), "l")
	if strings.HasPrefix(t, "0x") {
		return "", false
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return "", false
	}
	out := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(out, ".e") {
		out += ".0"
	}
	if single {
		out += "f"
	}
	return out, true
}

// intLiteral reads a C integer literal (decimal, hex, octal, with u and
// l suffixes).
func intLiteral(s string) (int64, bool) {
	t := strings.TrimRight(strings.ToLower(s), "ul")
	base := 10
	switch {
	case strings.HasPrefix(t, "0x"):
		t, base = t[2:], 16
	case len(t) > 1 && t[0] == '0':
		t, base = t[1:], 8
	}
	v, err := strconv.ParseInt(t, base, 64)
	return v, err == nil
}

// unsignedLiteral reports a C literal of value v that is an unsigned int
// beyond int's range: one with a u suffix, or a hexadecimal or octal one
// (C gives those the first of int and unsigned int that holds them; a
// decimal one without u is a long). The .knl writes it as a u32 literal,
// 4294967295u; smaller ones are integer literals, which take u32 beside
// a u32 operand.
func unsignedLiteral(s string, v int64) bool {
	if v <= math.MaxInt32 || v > math.MaxUint32 {
		return false
	}
	s = strings.ToLower(s)
	return strings.ContainsRune(s, 'u') || len(s) > 1 && s[0] == '0'
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// intOp computes a OP b as C does on 64-bit integers; ok is false on
// overflow, division by zero or a shift out of range.
func intOp(op string, a, b int64) (int64, bool) {
	switch op {
	case "+":
		return addInt(a, b)
	case "-":
		if b == -1<<63 {
			return 0, false
		}
		return addInt(a, -b)
	case "*":
		return mulInt(a, b)
	case "/", "%":
		if b == 0 || a == -1<<63 && b == -1 {
			return 0, false
		}
		if op == "/" {
			return a / b, true
		}
		return a % b, true
	case "<<":
		if b < 0 || b > 62 || a < 0 || a > (1<<62)>>b {
			return 0, false
		}
		return a << b, true
	case ">>":
		if b < 0 || b > 63 {
			return 0, false
		}
		return a >> b, true
	case "&":
		return a & b, true
	case "|":
		return a | b, true
	case "^":
		return a ^ b, true
	case "<":
		return b2i(a < b), true
	case ">":
		return b2i(a > b), true
	case "<=":
		return b2i(a <= b), true
	case ">=":
		return b2i(a >= b), true
	case "==":
		return b2i(a == b), true
	case "!=":
		return b2i(a != b), true
	case "&&":
		return b2i(a != 0 && b != 0), true
	case "||":
		return b2i(a != 0 || b != 0), true
	}
	return 0, false
}
