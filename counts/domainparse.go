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
// ("2i" and "2*i" both multiply), floor(e), ceil(e), "e mod d" and "e % d"
// for positive integer constants d, and, as in isl, division by non-zero
// constants: a rational expression in a constraint means what it says of
// rational numbers, so i <= n/16 is 16*i <= n. exists, unions written
// with ';' and products of two non-constant terms are rejected with an
// error.

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
		if len(d) == 1 && len(e) == 1 {
			// d is this call's own: a chain of comparisons grows in
			// place, linear in its length (copying it at every and
			// made a flat chain quadratic).
			d[0] = append(d[0], e[0]...)
			continue
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
	c.enter(t.pos)
	defer c.leave()
	if t.isWord("exists") {
		c.failAt(t.pos, "exists is not supported in kernel domains: write its condition with mod or floor (exists k: i = 2k is i mod 2 = 0)")
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
	lists := [][]rat{c.parseExprList()}
	var ops []token
	for c.peek().kind == tPunct && slices.Contains(comparisonOps, c.peek().text) {
		ops = append(ops, c.next())
		lists = append(lists, c.parseExprList())
	}
	if len(ops) == 0 {
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

func (c *cursor) parseExprList() []rat {
	l := []rat{c.parseRSum()}
	for c.accept(",") {
		l = append(l, c.parseRSum())
	}
	return l
}

// compare turns a op b into constraints, multiplying a rational
// comparison out as isl does: n/16 >= i holds where n >= 16*i.
func (c *cursor) compare(ra rat, op token, rb rat) dnf {
	x, y := c.overCommon(op.pos, ra, rb)
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
		return dnf{conj{{diff(y, x, -1), false}}}
	case "<=":
		return dnf{conj{{diff(y, x, 0), false}}}
	case ">":
		return dnf{conj{{diff(x, y, -1), false}}}
	case ">=":
		return dnf{conj{{diff(x, y, 0), false}}}
	case "=", "==":
		return dnf{conj{{diff(x, y, 0), true}}}
	}
	return dnf{conj{{diff(x, y, -1), false}}, conj{{diff(y, x, -1), false}}}
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

// rat is a quasi-affine expression over a positive denominator: isl
// allows rational expressions in constraints, such as i <= n/16, which
// mean what they say of rational numbers (16*i <= n).
type rat struct {
	q   qaff
	den int64
}

func whole(q qaff) rat { return rat{q, 1} }

// integer returns r as an integer expression where its denominator
// divides every coefficient ((2n + 6)/2 is n + 3), and false where not.
func (r rat) integer() (qaff, bool) {
	if r.den == 1 {
		return r.q, true
	}
	d := r.den
	if r.q.c%d != 0 {
		return qaff{}, false
	}
	q := qaff{c: r.q.c / d}
	for _, t := range r.q.terms {
		if t.coef%d != 0 {
			return qaff{}, false
		}
		q.terms = append(q.terms, lterm{t.name, t.coef / d})
	}
	for _, f := range r.q.floors {
		if f.coef%d != 0 {
			return qaff{}, false
		}
		q.floors = append(q.floors, fterm{f.coef / d, f.num, f.den})
	}
	return q, true
}

// overCommon brings two rationals over a common denominator and returns
// their numerators.
func (c *cursor) overCommon(pos Pos, a, b rat) (qaff, qaff) {
	if a.den == b.den {
		return a.q, b.q
	}
	g := gcd(a.den, b.den)
	return c.must(pos)(a.q.scale(b.den / g)), c.must(pos)(b.q.scale(a.den / g))
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func (c *cursor) radd(pos Pos, a, b rat, k int64) rat { // a + k*b
	x, y := c.overCommon(pos, a, b)
	den := a.den
	if a.den != b.den {
		var err error
		if den, err = mulInt(a.den/gcd(a.den, b.den), b.den); err != nil {
			c.failAt(pos, "coefficients overflow 64-bit integers")
		}
	}
	return rat{c.must(pos)(x.addScaled(y, k)), den}
}

func (c *cursor) parseRSum() rat {
	r := c.parseRTerm()
	for {
		t := c.peek()
		switch {
		case t.is("+"):
			c.next()
			r = c.radd(t.pos, r, c.parseRTerm(), 1)
		case t.is("-"):
			c.next()
			r = c.radd(t.pos, r, c.parseRTerm(), -1)
		default:
			return r
		}
	}
}

func (c *cursor) parseRTerm() rat {
	r := c.parseRUnary()
	for {
		t := c.peek()
		switch {
		case t.is("*"):
			c.next()
			r = c.rmul(t.pos, r, c.parseRUnary())
		case t.is("/"):
			c.next()
			r = c.rdiv(t.pos, r, c.parseRUnary())
		case t.isWord("mod") || t.is("%"):
			c.next()
			d, dpos := c.intLit("a positive integer modulus")
			if d <= 0 {
				c.failAt(dpos, "modulus must be a positive integer, not %d", d)
			}
			if r.den != 1 {
				c.failAt(t.pos, "mod of a rational (%s)/%d: write floor first", r.q, r.den)
			}
			// e mod d = e - d*floor(e/d)
			r = whole(c.must(t.pos)(r.q.addScaled(floorOf(r.q, d), -d)))
		case t.kind == tIdent && !slices.Contains(domainKeywords, t.text) && r.q.isConst(),
			t.is("(") && r.q.isConst():
			// Implicit multiplication: 2i, 3(i + 1).
			r = c.rmul(t.pos, r, c.parseRUnary())
		default:
			return r
		}
	}
}

func (c *cursor) rmul(pos Pos, a, b rat) rat {
	if !a.q.isConst() {
		a, b = b, a
	}
	if !a.q.isConst() && c.products && a.den == 1 && b.den == 1 && len(a.q.floors) == 0 && len(b.q.floors) == 0 {
		p, err := affineOf(a.q).mul(affineOf(b.q))
		if err != nil {
			c.failAt(pos, "coefficients overflow 64-bit integers")
		}
		return whole(p.qaff())
	}
	if !a.q.isConst() {
		c.failAt(pos, "non-affine product (%s)*(%s): one factor must be a constant: make it a const, or give the product a parameter of its own (i < nm with nm passed as n*m)", a.q, b.q)
	}
	den, err := mulInt(a.den, b.den)
	if err != nil {
		c.failAt(pos, "coefficients overflow 64-bit integers")
	}
	return rat{c.must(pos)(b.q.scale(a.q.c)), den}
}

// rdiv divides by a non-zero constant.
func (c *cursor) rdiv(pos Pos, a, b rat) rat {
	if !b.q.isConst() {
		c.failAt(pos, "division by %s: divisors must be constants: multiply the constraint out (2*i/n < 1 is 2*i < n for n > 0)", b.q)
	}
	if b.q.c == 0 {
		c.failAt(pos, "division by zero")
	}
	// a / (p/q) = a*q / p, with p made positive.
	p, q := b.q.c, b.den
	if p < 0 {
		p, q = -p, -q
	}
	return c.rmul(pos, rat{qconst(q), 1}, rat{a.q, 1}).over(c, pos, a.den, p)
}

// over divides r's denominator by d1*d2 more.
func (r rat) over(c *cursor, pos Pos, d1, d2 int64) rat {
	den, err := mulInt(r.den, d1)
	if err == nil {
		den, err = mulInt(den, d2)
	}
	if err != nil {
		c.failAt(pos, "coefficients overflow 64-bit integers")
	}
	return rat{r.q, den}
}

func (c *cursor) parseRUnary() rat {
	c.enter(c.peek().pos)
	defer c.leave()
	if t := c.peek(); t.is("-") {
		c.next()
		r := c.parseRUnary()
		return rat{c.must(t.pos)(r.q.scale(-1)), r.den}
	}
	if c.accept("+") {
		return c.parseRUnary()
	}
	return c.parseRPrimary()
}

func (c *cursor) parseRPrimary() rat {
	t := c.peek()
	switch {
	case t.kind == tInt:
		v, _ := c.intLit("an integer")
		return whole(qconst(v))
	case t.is("("):
		c.next()
		r := c.parseRSum()
		c.expect(")")
		return r
	case t.isWord("floor") || t.isWord("ceil"):
		c.next()
		c.expect("(")
		r := c.parseRSum()
		c.expect(")")
		if t.text == "floor" {
			return whole(floorOf(r.q, r.den))
		}
		neg := c.must(t.pos)(r.q.scale(-1))
		return whole(c.must(t.pos)(floorOf(neg, r.den).scale(-1)))
	case t.kind == tIdent:
		if t.text == "min" || t.text == "max" {
			c.failAt(t.pos, "%q is not supported in kernel domains: write a constraint per argument (i < min(n, m) is i < n and i < m, i >= max(a, b) is i >= a and i >= b)", t.text)
		}
		if slices.Contains(domainKeywords, t.text) {
			c.failAt(t.pos, "%q is not supported in kernel domains", t.text)
		}
		c.next()
		return whole(qname(t.text))
	case t.kind == tFloat:
		c.failAt(t.pos, "domain constraints need integers, not %s: round the bound (i < 2.5 is i <= 2) or scale the constraint (2*i < 5)", t.text)
	}
	c.expected("an affine expression")
	return rat{}
}
