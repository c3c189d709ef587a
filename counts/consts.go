package counts

import (
	"slices"
	"strings"
)

// Constants: "const NAME = EXPR", where EXPR is integer arithmetic over
// literals and earlier constants (const S = BS - 2*PH). A constant whose
// value names others is derived: it follows an override of those, and an
// override of its own that contradicts them is refused, so that no
// override gives other counts silently.

// constStmt reads a constant's declaration. The tokens of EXPR come with
// the earlier constants substituted; refs are the constants the
// declaration named, and text its expression as written.
func (b *builder) constStmt(c *cursor, refs []string, text string) {
	name := c.ident("a constant name")
	if _, dup := b.constVals[name.text]; dup {
		c.failAt(name.pos, "constant %s declared twice", name.text)
	}
	if p, used := b.firstUse[name.text]; used {
		c.failAt(name.pos, "constant %s is declared after its first use at %s", name.text, p)
	}
	c.expect("=")
	if c.atEnd() {
		c.expected("an integer value")
	}
	v := c.constValue(c.parseExpr(), name.text)
	cst := Const{Name: name.text, Value: v, Pos: name.pos}
	if len(refs) > 0 {
		cst.Expr = text
	}
	if o, ok := b.overrides[name.text]; ok {
		if len(refs) > 0 && o != v {
			c.failAt(name.pos, "constant %s = %s is derived from %s (%d here), so it cannot be set to %d: override %s instead", name.text, text, strings.Join(refs, ", "), v, o, strings.Join(refs, " or "))
		}
		cst.Value = o
	}
	b.constVals[name.text] = cst.Value
	b.consts = append(b.consts, cst)
}

// constRefs returns the earlier constants a const statement's expression
// names, each once, and the expression's text.
func (b *builder) constRefs(toks []token) ([]string, string) {
	var refs, words []string
	for _, t := range toks[min(3, len(toks)):] {
		if t.kind == tNewline || t.kind == tEOF {
			continue
		}
		words = append(words, t.text)
		if _, ok := b.constVals[t.text]; ok && t.kind == tIdent && !slices.Contains(refs, t.text) {
			refs = append(refs, t.text)
		}
	}
	return refs, strings.Join(words, " ")
}

// constValue evaluates a constant's expression exactly: + - * // % << >>
// & | ^ ~ on integers, without overflow.
func (c *cursor) constValue(e rexpr, name string) int64 {
	switch e := e.(type) {
	case *rNum:
		if e.t.kind == tUint {
			c.failAt(e.t.pos, "constant %s: write %s without its u: a constant is integer arithmetic computed exactly, and takes the type of where it is used", name, e.t.text)
		}
		if e.t.kind != tInt {
			c.failAt(e.t.pos, "constant %s: %s is not an integer; constants are integers (a floating-point value belongs in a scalar argument: scalar NAME f32 = VALUE)", name, e.t.text)
		}
		v, ok := parseInt(e.t.text, false)
		if !ok {
			c.failAt(e.t.pos, "integer %s does not fit in 64 bits", e.t.text)
		}
		return v
	case *rName:
		if e.t.text == name {
			c.failAt(e.t.pos, "constant %s is defined in terms of itself", name)
		}
		c.failAt(e.t.pos, "constant %s: %s is not a constant declared before it; a constant's value is integer arithmetic over literals and earlier constants (declare %s first, on a line above)", name, e.t.text, e.t.text)
	case *rNeg:
		v, err := mulInt(c.constValue(e.x, name), -1)
		if err != nil {
			c.failAt(e.at, "constant %s overflows 64-bit integers", name)
		}
		return v
	case *rUnary:
		if e.op == "~" {
			return ^c.constValue(e.x, name)
		}
	case *rBin:
		x, y := c.constValue(e.x, name), c.constValue(e.y, name)
		op, ok := binOps[e.op]
		switch {
		case !ok:
		case op == OpDiv:
			c.failAt(e.at, "constant %s: '/' on integers: write // for floor division", name)
		case op == OpPow:
			c.failAt(e.at, "constant %s: '**' is not integer arithmetic: write the product out", name)
		case (op == OpFloorDiv || op == OpMod) && y == 0:
			c.failAt(e.at, "constant %s divides by zero", name)
		default:
			v, msg := intBinary(op, x, y, I64)
			if msg != "" {
				c.failAt(e.at, "constant %s: %s (%d %s %d)", name, msg, x, e.op, y)
			}
			return v
		}
	}
	c.failAt(e.rpos(), "constant %s: a constant's value is integer arithmetic (+ - * // %% << >> & | ^ ~ and parentheses) over literals and earlier constants", name)
	return 0
}
