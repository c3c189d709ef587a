package counts

import "slices"

// Domains and assumptions are written in isl's set notation, the notation
// loopy uses, so that a loopy domain string can be copied verbatim:
//
//	[n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= i }
//
// The grammar accepted here is the part of isl that kernel domains need:
// an optional parameter list, one tuple of set dimensions (inames), and
// constraints built from chained comparisons (< <= > >= = == !=) of
// comma-separated expression lists ("0 <= i, j < n"), combined with and,
// or and parentheses. Expressions are affine with integer coefficients
// ("2i" and "2*i" both multiply), floor(e/d), ceil(e/d), "e mod d" and
// "e % d" for positive integer constants d. exists, unions written with
// ';' and products of two non-constant terms are rejected with an error.

var domainKeywords = []string{"and", "or", "not", "mod", "floor", "ceil", "exists", "min", "max"}

// parseDomainSet reads "[params] -> { [inames] : constraints }" and
// returns the declared parameters and inames (with positions) and the
// constraint set.
func (c *cursor) parseDomainSet() (params, inames []token, d dnf) {
	if c.peek().is("[") {
		c.next()
		for !c.accept("]") {
			params = append(params, c.ident("a parameter name"))
			if !c.peek().is("]") {
				c.expect(",")
			}
		}
		c.expect("->")
	}
	c.expect("{")
	if c.peek().kind == tIdent && c.peekAt(1).is("[") {
		c.next() // isl tuple name, as in S[i, j]
	}
	c.expect("[")
	for !c.accept("]") {
		t := c.ident("an iname")
		if slices.Contains(domainKeywords, t.text) {
			c.failAt(t.pos, "%q is a keyword and cannot name an iname", t.text)
		}
		for _, u := range inames {
			if u.text == t.text {
				c.failAt(t.pos, "iname %s appears twice in the tuple", t.text)
			}
		}
		inames = append(inames, t)
		if !c.peek().is("]") {
			c.expect(",")
		}
	}
	d = dnf{conj{}}
	if c.accept(":") {
		d = c.parseOr()
	}
	if c.peek().is(";") {
		c.failAt(c.peek().pos, "unions written with ';' are not supported in kernel domains; use 'or'")
	}
	c.expect("}")
	return params, inames, d
}

// maxDisjuncts bounds the size of a condition in disjunctive normal
// form; "!=" and "or" under "and" multiply it.
const maxDisjuncts = 256

func (c *cursor) parseOr() dnf {
	d := c.parseAnd()
	for c.acceptWord("or") {
		pos := c.peek().pos
		d = append(d, c.parseAnd()...)
		c.checkSize(pos, d)
	}
	return d
}

func (c *cursor) parseAnd() dnf {
	d := c.parseBoolAtom()
	for c.acceptWord("and") {
		pos := c.peek().pos
		e := c.parseBoolAtom()
		if len(d)*len(e) > maxDisjuncts {
			c.failAt(pos, "condition too complex: more than %d disjuncts", maxDisjuncts)
		}
		d = d.and(e)
	}
	return d
}

func (c *cursor) checkSize(pos Pos, d dnf) {
	if len(d) > maxDisjuncts {
		c.failAt(pos, "condition too complex: more than %d disjuncts", maxDisjuncts)
	}
}

// parseBoolAtom reads a parenthesised condition or a comparison chain. A
// '(' may open either; the parser tries the condition first and backs up
// if what follows the ')' shows it was arithmetic.
func (c *cursor) parseBoolAtom() dnf {
	t := c.peek()
	if t.isWord("exists") {
		c.failAt(t.pos, "exists is not supported in kernel domains")
	}
	if t.isWord("not") {
		c.failAt(t.pos, "not is not supported in kernel domains; write the negated comparison")
	}
	if t.is("(") {
		save := c.i
		if d, ok := c.tryParenCondition(); ok {
			return d
		}
		c.i = save
	}
	return c.parseComparison()
}

func (c *cursor) tryParenCondition() (d dnf, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bailout); !isBail {
				panic(r)
			}
			ok = false
		}
	}()
	c.expect("(")
	d = c.parseOr()
	c.expect(")")
	next := c.peek()
	if next.kind == tPunct && !next.is(")") && !next.is("}") && !next.is(";") {
		return nil, false
	}
	return d, true
}

var comparisonOps = []string{"<", "<=", ">", ">=", "=", "==", "!="}

// parseComparison reads e1 op e2 op e3 ... where each ei is a list of
// expressions; every adjacent pair of lists holds for all their members.
func (c *cursor) parseComparison() dnf {
	lists := [][]qaff{c.parseExprList()}
	var ops []token
	for c.peek().kind == tPunct && slices.Contains(comparisonOps, c.peek().text) {
		ops = append(ops, c.next())
		lists = append(lists, c.parseExprList())
	}
	if len(ops) == 0 {
		if c.peek().is("/") {
			c.failAt(c.peek().pos, "division must be written floor(e/d) or ceil(e/d)")
		}
		c.expected("a comparison operator")
	}
	d := dnf{conj{}}
	for k, op := range ops {
		for _, a := range lists[k] {
			for _, b := range lists[k+1] {
				e := c.compare(a, op, b)
				if len(d)*len(e) > maxDisjuncts {
					c.failAt(op.pos, "condition too complex: more than %d disjuncts", maxDisjuncts)
				}
				d = d.and(e)
			}
		}
	}
	return d
}

func (c *cursor) parseExprList() []qaff {
	l := []qaff{c.parseQSum()}
	for c.accept(",") {
		l = append(l, c.parseQSum())
	}
	return l
}

func (c *cursor) compare(a qaff, op token, b qaff) dnf {
	diff := func(x, y qaff, k int64) qaff { // x - y + k
		r, err := x.addScaled(y, -1)
		if err == nil {
			r, err = r.addScaled(qconst(k), 1)
		}
		if err != nil {
			c.failAt(op.pos, "coefficients overflow 64-bit integers")
		}
		return r
	}
	switch op.text {
	case "<":
		return dnf{conj{{diff(b, a, -1), false}}}
	case "<=":
		return dnf{conj{{diff(b, a, 0), false}}}
	case ">":
		return dnf{conj{{diff(a, b, -1), false}}}
	case ">=":
		return dnf{conj{{diff(a, b, 0), false}}}
	case "=", "==":
		return dnf{conj{{diff(a, b, 0), true}}}
	}
	return dnf{conj{{diff(a, b, -1), false}}, conj{{diff(b, a, -1), false}}}
}

// must returns a function that passes a qaff result through, or aborts at
// pos when its computation overflowed.
func (c *cursor) must(pos Pos) func(qaff, error) qaff {
	return func(r qaff, err error) qaff {
		if err != nil {
			c.failAt(pos, "coefficients overflow 64-bit integers")
		}
		return r
	}
}

func (c *cursor) parseQSum() qaff {
	r := c.parseQTerm()
	for {
		t := c.peek()
		switch {
		case t.is("+"):
			c.next()
			x := c.parseQTerm()
			r = c.must(t.pos)(r.addScaled(x, 1))
		case t.is("-"):
			c.next()
			x := c.parseQTerm()
			r = c.must(t.pos)(r.addScaled(x, -1))
		default:
			return r
		}
	}
}

func (c *cursor) parseQTerm() qaff {
	r := c.parseQUnary()
	for {
		t := c.peek()
		switch {
		case t.is("*"):
			c.next()
			x := c.parseQUnary()
			r = c.qmul(t.pos, r, x)
		case t.isWord("mod") || t.is("%"):
			c.next()
			d, dpos := c.intLit("a positive integer modulus")
			if d <= 0 {
				c.failAt(dpos, "modulus must be a positive integer, not %d", d)
			}
			// e mod d = e - d*floor(e/d)
			r = c.must(t.pos)(r.addScaled(floorOf(r, d), -d))
		case t.kind == tIdent && !slices.Contains(domainKeywords, t.text) && r.isConst(),
			t.is("(") && r.isConst():
			// Implicit multiplication: 2i, 3(i + 1).
			x := c.parseQUnary()
			r = c.qmul(t.pos, r, x)
		default:
			return r
		}
	}
}

func (c *cursor) qmul(pos Pos, a, b qaff) qaff {
	switch {
	case a.isConst():
		return c.must(pos)(b.scale(a.c))
	case b.isConst():
		return c.must(pos)(a.scale(b.c))
	}
	c.failAt(pos, "non-affine product (%s)*(%s): one factor must be a constant", a, b)
	return qaff{}
}

func (c *cursor) parseQUnary() qaff {
	if t := c.peek(); t.is("-") {
		c.next()
		return c.must(t.pos)(c.parseQUnary().scale(-1))
	}
	if c.accept("+") {
		return c.parseQUnary()
	}
	return c.parseQPrimary()
}

func (c *cursor) parseQPrimary() qaff {
	t := c.peek()
	switch {
	case t.kind == tInt:
		v, _ := c.intLit("an integer")
		return qconst(v)
	case t.is("("):
		c.next()
		r := c.parseQSum()
		c.expect(")")
		return r
	case t.isWord("floor") || t.isWord("ceil"):
		c.next()
		c.expect("(")
		num := c.parseQSum()
		c.expect("/")
		d, dpos := c.intLit("a positive integer divisor")
		if d <= 0 {
			c.failAt(dpos, "divisor must be a positive integer, not %d", d)
		}
		c.expect(")")
		if t.text == "floor" {
			return floorOf(num, d)
		}
		neg := c.must(t.pos)(num.scale(-1))
		return c.must(t.pos)(floorOf(neg, d).scale(-1))
	case t.kind == tIdent:
		if slices.Contains(domainKeywords, t.text) {
			c.failAt(t.pos, "%q is not supported in kernel domains", t.text)
		}
		c.next()
		return qname(t.text)
	case t.kind == tFloat:
		c.failAt(t.pos, "domain constraints need integers, not %s", t.text)
	}
	c.expected("an affine expression")
	return qaff{}
}
