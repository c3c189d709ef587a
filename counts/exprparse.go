package counts

// Instruction expressions follow loopy (pymbolic) syntax:
//
//	expr    = sum
//	sum     = term { ("+" | "-") term }
//	term    = unary { ("*" | "/" | "//" | "%") unary }
//	unary   = "-" unary | power
//	power   = primary [ "**" unary ]
//	primary = number | name | name "[" expr { "," expr } "]"
//	        | func "(" expr { "," expr } ")"
//	        | red "(" inames "," expr ")" | "(" expr ")"
//	inames  = name | "(" name { "," name } ")" | "[" name { "," name } "]"
//
// where red is sum, product, max or min. The parser builds an untyped
// tree; names are resolved and types inferred once the whole file is read.

type rexpr interface{ rpos() Pos }

type (
	rNum  struct{ t token }
	rName struct{ t token }
	rSub  struct {
		t   token
		idx []rexpr
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
	rCall struct {
		t    token
		args []rexpr
	}
	rReduce struct {
		t      token
		inames []token
		body   rexpr
	}
)

func (e *rNum) rpos() Pos    { return e.t.pos }
func (e *rName) rpos() Pos   { return e.t.pos }
func (e *rSub) rpos() Pos    { return e.t.pos }
func (e *rBin) rpos() Pos    { return e.at }
func (e *rNeg) rpos() Pos    { return e.at }
func (e *rCall) rpos() Pos   { return e.t.pos }
func (e *rReduce) rpos() Pos { return e.t.pos }

func (c *cursor) parseExpr() rexpr {
	x := c.parseTerm()
	for {
		t := c.peek()
		if !t.is("+") && !t.is("-") {
			return x
		}
		c.next()
		x = &rBin{t.text, x, c.parseTerm(), t.pos}
	}
}

func (c *cursor) parseTerm() rexpr {
	x := c.parseUnary()
	for {
		t := c.peek()
		if !t.is("*") && !t.is("/") && !t.is("//") && !t.is("%") {
			return x
		}
		c.next()
		x = &rBin{t.text, x, c.parseUnary(), t.pos}
	}
}

func (c *cursor) parseUnary() rexpr {
	if t := c.peek(); t.is("-") {
		c.next()
		return &rNeg{c.parseUnary(), t.pos}
	}
	if c.accept("+") {
		return c.parseUnary()
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
		return &rNum{t}
	case tIdent:
		c.next()
		switch {
		case c.peek().is("["):
			c.next()
			return &rSub{t, c.parseExprs("]")}
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
		case c.peek().is("("):
			c.next()
			return &rCall{t, c.parseExprs(")")}
		}
		return &rName{t}
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

// annotation is the parsed {id=..., dep=..., inames=...} suffix.
type annotation struct {
	id     token
	deps   []token
	inames []token
}

func (c *cursor) parseAnnotation() annotation {
	var a annotation
	if !c.accept("{") {
		return a
	}
	seen := map[string]bool{}
	for !c.accept("}") {
		key := c.ident("an annotation key (id, dep or inames)")
		if seen[key.text] {
			c.failAt(key.pos, "annotation %s given twice", key.text)
		}
		seen[key.text] = true
		c.expect("=")
		var vals []token
		vals = append(vals, c.ident("a name"))
		for c.accept(":") {
			vals = append(vals, c.ident("a name"))
		}
		switch key.text {
		case "id":
			if len(vals) != 1 {
				c.failAt(vals[1].pos, "an instruction has one id")
			}
			a.id = vals[0]
		case "dep":
			a.deps = vals
		case "inames":
			a.inames = vals
		default:
			c.failAt(key.pos, "unknown annotation %q (want id, dep or inames)", key.text)
		}
		if !c.peek().is("}") {
			c.expect(",")
		}
	}
	return a
}
