package counts

import "slices"

// Instruction expressions follow loopy (pymbolic) syntax, with Python's
// precedence:
//
//	expr    = or
//	or      = and { "or" and }
//	and     = not { "and" not }
//	not     = "not" not | compare
//	compare = bitor [ ("<" | "<=" | ">" | ">=" | "==" | "!=") bitor ]
//	bitor   = bitxor { "|" bitxor }
//	bitxor  = bitand { "^" bitand }
//	bitand  = shift { "&" shift }
//	shift   = sum { ("<<" | ">>") sum }
//	sum     = term { ("+" | "-") term }
//	term    = unary { ("*" | "/" | "//" | "%") unary }
//	unary   = ("-" | "+" | "~" | "(" ctype ")") unary | power
//	power   = primary [ "**" unary ]
//	primary = number | name [ "$" tag ] [ "[" expr { "," expr } "]" ]
//	        | func "(" expr { "," expr } ")"
//	        | red "(" inames "," expr ")" | "(" expr ")"
//	inames  = name | "(" name { "," name } ")" | "[" name { "," name } "]"
//
// where red is sum, product, max or min, func includes if and select,
// and ctype is a C type (castTypes); an expression may also be Python's THEN if COND else ELSE.
// Comparisons do not chain. The parser builds an untyped tree;
// names are resolved and types inferred once the whole file is read.

type rexpr interface{ rpos() Pos }

type (
	rNum  struct{ t token }
	rName struct{ t, tag token }
	rSub  struct {
		t, tag token
		idx    []rexpr
	}
	rBin struct {
		op   string
		x, y rexpr
		at   Pos
	}
	rNeg struct {
		x  rexpr
		at Pos
	}
	// rUnary is ~x or not x.
	rUnary struct {
		op string
		x  rexpr
		at Pos
	}
	rCall struct {
		t    token
		args []rexpr
	}
	rReduce struct {
		t      token
		inames []token
		body   rexpr
	}
	// rCast is C's cast (float)x.
	rCast struct {
		to DType
		x  rexpr
		at Pos
	}
)

func (e *rNum) rpos() Pos    { return e.t.pos }
func (e *rName) rpos() Pos   { return e.t.pos }
func (e *rSub) rpos() Pos    { return e.t.pos }
func (e *rBin) rpos() Pos    { return e.at }
func (e *rNeg) rpos() Pos    { return e.at }
func (e *rUnary) rpos() Pos  { return e.at }
func (e *rCall) rpos() Pos   { return e.t.pos }
func (e *rReduce) rpos() Pos { return e.t.pos }
func (e *rCast) rpos() Pos   { return e.at }

// exprKeywords are the words of the expression syntax, which no array,
// iname or parameter may be named.
var exprKeywords = []string{"and", "or", "not", "if", "select"}

var cmpOps = []string{"<", "<=", ">", ">=", "==", "!="}

// parseExpr reads an expression, Python's conditional expression
// THEN if COND else ELSE included (the same as if(COND, THEN, ELSE)).
func (c *cursor) parseExpr() rexpr {
	x := c.parseOrExpr()
	t := c.peek()
	if !t.isWord("if") {
		return x
	}
	c.next()
	c.enter(t.pos)
	defer c.leave()
	cond := c.parseOrExpr()
	if !c.acceptWord("else") {
		c.expected("'else' of the conditional expression THEN if COND else ELSE")
	}
	return &rCall{t, []rexpr{cond, x, c.parseExpr()}}
}

func (c *cursor) parseOrExpr() rexpr {
	x := c.parseAndExpr()
	for c.peek().isWord("or") {
		t := c.next()
		x = &rBin{"or", x, c.parseAndExpr(), t.pos}
	}
	return x
}

func (c *cursor) parseAndExpr() rexpr {
	x := c.parseNotExpr()
	for c.peek().isWord("and") {
		t := c.next()
		x = &rBin{"and", x, c.parseNotExpr(), t.pos}
	}
	return x
}

func (c *cursor) parseNotExpr() rexpr {
	if t := c.peek(); t.isWord("not") {
		c.next()
		c.enter(t.pos)
		defer c.leave()
		return &rUnary{"not", c.parseNotExpr(), t.pos}
	}
	x := c.parseBinary(0)
	t := c.peek()
	if t.kind != tPunct || !slices.Contains(cmpOps, t.text) {
		return x
	}
	c.next()
	x = &rBin{t.text, x, c.parseBinary(0), t.pos}
	if u := c.peek(); u.kind == tPunct && slices.Contains(cmpOps, u.text) {
		c.failAt(u.pos, "comparisons do not chain: write (a %s b) and (b %s c)", t.text, u.text)
	}
	return x
}

// binaryLevels lists the left-associative binary operators from the
// loosest to the tightest binding.
var binaryLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%"}}

func (c *cursor) parseBinary(level int) rexpr {
	if level == len(binaryLevels) {
		return c.parseUnary()
	}
	x := c.parseBinary(level + 1)
	for {
		t := c.peek()
		if t.kind != tPunct || !slices.Contains(binaryLevels[level], t.text) {
			return x
		}
		c.next()
		if u := c.peek(); (t.text == "&" || t.text == "|") && u.is(t.text) && u.pos.Col == t.pos.Col+1 {
			c.failAt(t.pos, "%s%s is C's; write %s", t.text, t.text, map[string]string{"&": "and", "|": "or"}[t.text])
		}
		x = &rBin{t.text, x, c.parseBinary(level + 1), t.pos}
	}
}

func (c *cursor) parseUnary() rexpr {
	c.enter(c.peek().pos)
	defer c.leave()
	if t := c.peek(); t.is("-") {
		c.next()
		return &rNeg{c.parseUnary(), t.pos}
	}
	if t := c.peek(); t.is("~") {
		c.next()
		return &rUnary{"~", c.parseUnary(), t.pos}
	}
	if c.accept("+") {
		return c.parseUnary()
	}
	c.refuseHalfCast()
	if c.peek().is("(") && c.peekAt(1).isWord("unsigned") && c.peekAt(2).isWord("int") && c.peekAt(3).is(")") {
		at := c.next().pos
		c.next()
		c.next()
		c.next()
		return &rCast{U32, c.parseUnary(), at}
	}
	if t, ok := castTypes[c.peekAt(1).text]; ok && c.peek().is("(") && c.peekAt(1).kind == tIdent && c.peekAt(2).is(")") {
		at := c.next().pos
		c.next()
		c.next()
		return &rCast{t, c.parseUnary(), at}
	}
	x := c.parsePrimary()
	if t := c.peek(); t.is("**") {
		c.next()
		return &rBin{"**", x, c.parseUnary(), t.pos}
	}
	return x
}

func (c *cursor) parsePrimary() rexpr {
	t := c.peek()
	switch t.kind {
	case tInt, tFloat:
		c.next()
		if t.kind == tInt {
			t = c.intSuffix(t)
		}
		return &rNum{t}
	case tIdent:
		if t.isWord("and") || t.isWord("or") || t.isWord("not") {
			break
		}
		c.next()
		tag := c.parseTag(t)
		switch {
		case c.peek().is("["):
			c.next()
			return &rSub{t, tag, c.parseExprs("]")}
		case c.peek().is("(") && binaryReduction(t.text) && !c.reductionAhead():
			// max(a[i], 0): C's max and min of two values.
			c.next()
			return &rCall{t, c.parseExprs(")")}
		case c.peek().is("(") && reduceNames[t.text] != 0:
			c.next()
			inames := c.parseReductionInames()
			if !c.peek().is(",") {
				c.failAt(t.pos, "%s is a reduction: write %s(iname, expr) or %s((iname, ...), expr)", t.text, t.text, t.text)
			}
			c.next()
			body := c.parseExpr()
			c.expect(")")
			return &rReduce{t, inames, body}
		case c.peek().is("(") && tag.text == "":
			c.next()
			return &rCall{t, c.parseExprs(")")}
		}
		return &rName{t, tag}
	case tPunct:
		if t.is("(") {
			c.next()
			x := c.parseExpr()
			c.expect(")")
			return x
		}
	}
	c.expected("an expression")
	return nil
}

// binaryReduction reports whether a reduction's name is also C's
// function of two values (max, min).
func binaryReduction(name string) bool { return name == "max" || name == "min" }

// reductionAhead reports whether the tokens after a reduction's name
// begin loopy's reduction, max(NAME, ...) or max((NAME, ...), ...): its
// first argument is a name or a tuple of names. Whether a lone NAME is
// an iname (a reduction) or a value (C's max of two values) the
// resolver decides.
func (c *cursor) reductionAhead() bool {
	if c.peekAt(1).kind == tIdent {
		return c.peekAt(2).is(",")
	}
	if !c.peekAt(1).is("(") && !c.peekAt(1).is("[") {
		return false
	}
	for k := 2; ; k += 2 {
		if c.peekAt(k).kind != tIdent {
			return false
		}
		if u := c.peekAt(k + 1); !u.is(",") {
			return u.is(")") || u.is("]")
		}
	}
}

// castTypes are the type names of a C cast, (float)x: C's and the
// language's own.
var castTypes = map[string]DType{"float": F32, "double": F64, "int": I32, "long": I64,
	"f32": F32, "f64": F64, "i32": I32, "i64": I64, "short": I16, "i8": I8, "u8": U8, "i16": I16, "u16": U16,
	"unsigned": U32, "uint": U32, "uint32_t": U32, "u32": U32}

// parseTag reads loopy's tag of a variable use, name$tag, written without
// spaces.
func (c *cursor) parseTag(name token) token {
	d := c.peek()
	if !d.is("$") {
		return token{}
	}
	c.next()
	t := c.peek()
	if t.kind != tIdent || d.pos.Line != name.pos.Line || d.pos.Col != name.pos.Col+len(name.text) || t.pos.Col != d.pos.Col+1 {
		c.failAt(d.pos, "a tag is written name$tag, without spaces (loopy's tagged variable)")
	}
	return c.next()
}

// parseExprs reads a non-empty comma-separated list up to the closing
// bracket.
func (c *cursor) parseExprs(closing string) []rexpr {
	xs := []rexpr{c.parseExpr()}
	for c.accept(",") {
		xs = append(xs, c.parseExpr())
	}
	c.expect(closing)
	return xs
}

func (c *cursor) parseReductionInames() []token {
	closing := ""
	switch {
	case c.accept("("):
		closing = ")"
	case c.accept("["):
		closing = "]"
	default:
		return []token{c.ident("a reduction iname")}
	}
	names := []token{c.ident("a reduction iname")}
	for c.accept(",") {
		names = append(names, c.ident("a reduction iname"))
	}
	c.expect(closing)
	return names
}
