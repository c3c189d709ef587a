package counts

import "fmt"

// cursor walks the tokens of one statement. Parse errors abort the
// statement through a bailout panic that parseStatement recovers, in the
// manner of go/parser; no panic leaves the package.
type cursor struct {
	file string
	toks []token // ends with a tEOF or tNewline token
	i    int
	// products lets a product of two non-constants through, as an
	// array extent n*n may be; the domain language has none.
	products bool
	// depth is the nesting of the expression being read (see enter).
	depth int
}

type bailout struct{ err *Error }

func (c *cursor) peek() token { return c.toks[c.i] }

func (c *cursor) peekAt(k int) token {
	if c.i+k < len(c.toks) {
		return c.toks[c.i+k]
	}
	return c.toks[len(c.toks)-1]
}

func (c *cursor) next() token {
	t := c.toks[c.i]
	if c.i < len(c.toks)-1 {
		c.i++
	}
	return t
}

func (c *cursor) atEnd() bool {
	k := c.peek().kind
	return k == tEOF || k == tNewline
}

func (c *cursor) failAt(pos Pos, format string, args ...any) {
	panic(bailout{errorf(c.file, pos, format, args...)})
}

// expected reports that the next token is not what the grammar allows.
func (c *cursor) expected(what string) {
	t := c.peek()
	c.failAt(t.pos, "expected %s, found %s", what, t.describe())
}

func (c *cursor) accept(punct string) bool {
	if c.peek().is(punct) {
		c.next()
		return true
	}
	return false
}

func (c *cursor) acceptWord(w string) bool {
	if c.peek().isWord(w) {
		c.next()
		return true
	}
	return false
}

func (c *cursor) expect(punct string) token {
	if !c.peek().is(punct) {
		c.expected(fmt.Sprintf("'%s'", punct))
	}
	return c.next()
}

func (c *cursor) ident(what string) token {
	if c.peek().kind != tIdent {
		c.expected(what)
	}
	return c.next()
}

func (c *cursor) expectEnd() {
	if c.peek().is(";") {
		c.failAt(c.peek().pos, "expected end of statement, found ';': a statement ends with its line, so drop the ';' and write the next statement on a line of its own")
	}
	if !c.atEnd() {
		c.expected("end of statement")
	}
}

// intLit reads an integer literal, optionally negative.
func (c *cursor) intLit(what string) (int64, Pos) {
	pos := c.peek().pos
	neg := c.accept("-")
	t := c.peek()
	if t.kind != tInt {
		c.expected(what)
	}
	c.next()
	v, ok := parseInt(t.text, neg)
	if !ok {
		c.failAt(t.pos, "integer %s does not fit in 64 bits", t.text)
	}
	return v, pos
}

// parseInt converts decimal digits to int64, negated if neg, reporting
// overflow instead of wrapping.
func parseInt(digits string, neg bool) (int64, bool) {
	if len(digits) > 0 && digits[0] == '-' { // a substituted negative constant
		digits, neg = digits[1:], !neg
	}
	if digits == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(digits); i++ {
		d := uint64(digits[i] - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return -int64(v), true
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}
