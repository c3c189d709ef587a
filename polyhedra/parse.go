package polyhedra

import (
	"fmt"
	"slices"
	"sync"
)

// The parser reads isl set notation into a small syntax tree; build.go
// turns the tree into basic sets.

type pos struct{ line, col int }

type fNode interface{ at() pos }

type (
	fAnd  struct{ l, r fNode }
	fOr   struct{ l, r fNode }
	fNot  struct{ x fNode }
	fBool struct {
		p pos
		v bool
	}
	fExists struct {
		p    pos
		vars []string
		body fNode
	}
	// fCmp is a chain e0 op0 e1 op1 e2 ...; each ei is a comma list of
	// expressions, and the chain holds for every pair across each op.
	fCmp struct {
		lists [][]eNode
		ops   []token
	}
)

func (n *fAnd) at() pos    { return n.l.at() }
func (n *fOr) at() pos     { return n.l.at() }
func (n *fNot) at() pos    { return n.x.at() }
func (n *fBool) at() pos   { return n.p }
func (n *fExists) at() pos { return n.p }
func (n *fCmp) at() pos    { return n.lists[0][0].at() }

type eNode interface{ at() pos }

type (
	eNum struct {
		p pos
		v int64
	}
	eVar struct {
		p    pos
		name string
	}
	eBin struct {
		p    pos // the operator
		op   string
		l, r eNode
	}
	eNeg struct {
		p pos
		x eNode
	}
	eFloor struct {
		p    pos
		ceil bool
		x    eNode
	}
	eMinMax struct {
		p    pos
		max  bool
		args []eNode
	}
)

func (n *eNum) at() pos    { return n.p }
func (n *eVar) at() pos    { return n.p }
func (n *eBin) at() pos    { return n.l.at() }
func (n *eNeg) at() pos    { return n.p }
func (n *eFloor) at() pos  { return n.p }
func (n *eMinMax) at() pos { return n.p }

// setAST is a parsed set: declared parameters and pieces.
type setAST struct {
	params []string
	pieces []pieceAST
	p      pos
}

type pieceAST struct {
	p     pos
	name  string
	dims  []string
	cond  fNode // nil for no condition
	arity bool  // a tuple was given
}

func isKeyword(s string) bool {
	switch s {
	case "and", "or", "not", "exists", "mod", "floor", "ceil", "min", "max", "true", "false":
		return true
	}
	return false
}

type parser struct {
	toks []token
	i    int
	// depth is the nesting of the formula or expression being read.
	depth int
}

// maxNesting bounds how deeply a set's formulas and expressions nest
// (parentheses, not, exists, unary minus, floor, min, max): every pass
// over the syntax tree recurses, so unbounded nesting meant unbounded
// stack. Written sets nest a few levels.
const maxNesting = 256

// enter counts one more level of nesting at t, or refuses it past
// maxNesting; leave undoes it.
func (p *parser) enter(t token) error {
	if p.depth++; p.depth > maxNesting {
		return p.errorf(t, "formula or expression nested more than %d levels deep", maxNesting)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) is(text string) bool {
	t := &p.toks[p.i]
	return t.text == text && (t.kind == tPunct || t.kind == tIdent)
}

func (p *parser) accept(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return &SyntaxError{int(t.line), int(t.col), fmt.Sprintf(format, args...)}
}

func (p *parser) expect(text, context string) error {
	if p.accept(text) {
		return nil
	}
	return p.errorf(p.peek(), "expected %q %s, found %s", text, context, p.peek())
}

func tokPos(t token) pos { return pos{int(t.line), int(t.col)} }

// tokenBufs recycles the token slices of parseSetAST, whose syntax tree
// copies what it keeps of the tokens: they were a twentieth of the
// memory that counting a kernel allocated.
var tokenBufs = sync.Pool{New: func() any { return new([]token) }}

func parseSetAST(src string) (*setAST, error) {
	buf := tokenBufs.Get().(*[]token)
	defer tokenBufs.Put(buf)
	toks, err := lex(src, (*buf)[:0])
	*buf = toks
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	s := &setAST{p: tokPos(p.peek())}
	if p.is("[") {
		p.next()
		s.params, err = p.nameList("]", "parameter")
		if err != nil {
			return nil, err
		}
		if err := p.expect("->", "after the parameter list"); err != nil {
			return nil, err
		}
	}
	if err := p.expect("{", "to open the set"); err != nil {
		return nil, err
	}
	if !p.is("}") {
		for {
			pc, err := p.piece()
			if err != nil {
				return nil, err
			}
			s.pieces = append(s.pieces, pc)
			if !p.accept(";") {
				break
			}
			if p.is("}") { // trailing ';'
				break
			}
		}
	}
	if err := p.expect("}", "to close the set"); err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errorf(t, "expected end of input after the set, found %s", t)
	}
	return s, nil
}

// nameList reads identifiers separated by commas up to the closing token.
func (p *parser) nameList(closing, what string) ([]string, error) {
	var names []string
	if p.accept(closing) {
		return names, nil
	}
	for {
		t := p.next()
		if t.kind != tIdent || isKeyword(t.text) {
			return nil, p.errorf(t, "expected %s name, found %s", what, t)
		}
		if slices.Contains(names, t.text) {
			return nil, p.errorf(t, "%s %s given twice", what, t.text)
		}
		names = append(names, t.text)
		if p.accept(closing) {
			return names, nil
		}
		if !p.accept(",") {
			return nil, p.errorf(p.peek(), "expected \",\" or %q after %s name, found %s", closing, what, p.peek())
		}
	}
}

func (p *parser) piece() (pieceAST, error) {
	t := p.peek()
	pc := pieceAST{p: tokPos(t)}
	if t.kind == tIdent && !isKeyword(t.text) && p.toks[p.i+1].text == "[" {
		pc.name = t.text
		p.next()
	}
	if p.accept("[") {
		dims, err := p.nameList("]", "dimension")
		if err != nil {
			return pc, err
		}
		pc.dims, pc.arity = dims, true
	}
	if !pc.arity && !p.is(":") {
		return pc, p.errorf(p.peek(), "expected a tuple \"[...]\" or \":\", found %s", p.peek())
	}
	if p.accept(":") {
		f, err := p.formula()
		if err != nil {
			return pc, err
		}
		pc.cond = f
	}
	return pc, nil
}

func (p *parser) formula() (fNode, error) {
	l, err := p.conj()
	if err != nil {
		return nil, err
	}
	for p.is("or") || p.is("||") || p.is("|") {
		p.next()
		r, err := p.conj()
		if err != nil {
			return nil, err
		}
		l = &fOr{l, r}
	}
	return l, nil
}

func (p *parser) conj() (fNode, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.is("and") || p.is("&&") || p.is("&") {
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = &fAnd{l, r}
	}
	return l, nil
}

func (p *parser) unary() (fNode, error) {
	t := p.peek()
	defer p.leave()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	switch {
	case p.is("not") || p.is("!"):
		p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &fNot{x}, nil
	case p.is("exists"):
		p.next()
		return p.exists(t)
	case p.is("true") || p.is("false"):
		p.next()
		return &fBool{tokPos(t), t.text == "true"}, nil
	case p.is("("):
		// A parenthesised formula, unless a comparison follows the
		// parenthesis: then it was an expression such as (i + 1) <= n.
		save := p.i
		p.next()
		f, err := p.formula()
		if err == nil {
			err = p.expect(")", "to close the parenthesised condition")
		}
		if err == nil && !isCmp(p.peek()) {
			return f, nil
		}
		firstErr := err
		p.i = save
		c, err := p.comparison()
		if err != nil && firstErr != nil && later(firstErr, err) {
			return nil, firstErr
		}
		return c, err
	}
	return p.comparison()
}

func (p *parser) exists(t token) (fNode, error) {
	paren := p.accept("(")
	var vars []string
	for {
		v := p.next()
		if v.kind != tIdent || isKeyword(v.text) {
			return nil, p.errorf(v, "expected a variable name after \"exists\", found %s", v)
		}
		vars = append(vars, v.text)
		if !p.accept(",") {
			break
		}
	}
	if err := p.expect(":", "after the existential variables"); err != nil {
		return nil, err
	}
	body, err := p.formula()
	if err != nil {
		return nil, err
	}
	if paren {
		if err := p.expect(")", "to close \"exists (\""); err != nil {
			return nil, err
		}
	}
	return &fExists{tokPos(t), vars, body}, nil
}

func isCmp(t token) bool {
	if t.kind != tPunct {
		return false
	}
	switch t.text {
	case "<", "<=", ">", ">=", "=", "==", "!=":
		return true
	}
	return false
}

func (p *parser) comparison() (fNode, error) {
	c := &fCmp{}
	l, err := p.exprList()
	if err != nil {
		return nil, err
	}
	c.lists = append(c.lists, l)
	for isCmp(p.peek()) {
		c.ops = append(c.ops, p.next())
		l, err := p.exprList()
		if err != nil {
			return nil, err
		}
		c.lists = append(c.lists, l)
	}
	if len(c.ops) == 0 {
		return nil, p.errorf(p.peek(), "expected a comparison (<, <=, >, >=, =, !=) after the expression, found %s", p.peek())
	}
	return c, nil
}

func (p *parser) exprList() ([]eNode, error) {
	var list []eNode
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		list = append(list, e)
		if !p.accept(",") {
			return list, nil
		}
	}
}

func (p *parser) expr() (eNode, error) {
	l, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.is("+") || p.is("-") {
		op := p.next()
		r, err := p.term()
		if err != nil {
			return nil, err
		}
		l = &eBin{tokPos(op), op.text, l, r}
	}
	return l, nil
}

// startsFactor reports whether t can begin a factor, for implicit
// multiplication such as 2i or 2(i + 1).
func startsFactor(t token) bool {
	switch t.kind {
	case tInt:
		return true
	case tIdent:
		return !isKeyword(t.text) || t.text == "floor" || t.text == "ceil" || t.text == "min" || t.text == "max"
	}
	return t.text == "("
}

func (p *parser) term() (eNode, error) {
	l, err := p.factor()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		var op string
		switch {
		case p.is("*") || p.is("/") || p.is("%"):
			op = p.next().text
		case p.is("mod"):
			p.next()
			op = "%"
		case startsFactor(t):
			op = "*"
		default:
			return l, nil
		}
		r, err := p.factor()
		if err != nil {
			return nil, err
		}
		l = &eBin{tokPos(t), op, l, r}
	}
}

func (p *parser) factor() (eNode, error) {
	t := p.next()
	defer p.leave()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	switch {
	case t.kind == tInt:
		return &eNum{tokPos(t), t.val}, nil
	case t.text == "-" && t.kind == tPunct:
		x, err := p.factor()
		if err != nil {
			return nil, err
		}
		return &eNeg{tokPos(t), x}, nil
	case t.text == "+" && t.kind == tPunct:
		return p.factor()
	case t.text == "(" && t.kind == tPunct:
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")", "to close the parenthesised expression"); err != nil {
			return nil, err
		}
		return e, nil
	case t.kind == tIdent && (t.text == "floor" || t.text == "ceil"):
		if err := p.expect("(", "after "+t.text); err != nil {
			return nil, err
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")", "to close "+t.text+"("); err != nil {
			return nil, err
		}
		return &eFloor{tokPos(t), t.text == "ceil", e}, nil
	case t.kind == tIdent && (t.text == "min" || t.text == "max"):
		if err := p.expect("(", "after "+t.text); err != nil {
			return nil, err
		}
		args, err := p.exprList()
		if err != nil {
			return nil, err
		}
		if err := p.expect(")", "to close "+t.text+"("); err != nil {
			return nil, err
		}
		return &eMinMax{tokPos(t), t.text == "max", args}, nil
	case t.kind == tIdent && !isKeyword(t.text):
		return &eVar{tokPos(t), t.text}, nil
	}
	return nil, p.errorf(t, "expected an expression (a number, a name, \"(\", floor, ceil, min or max), found %s", t)
}

// later reports whether syntax error a points past syntax error b.
func later(a, b error) bool {
	sa, ok1 := a.(*SyntaxError)
	sb, ok2 := b.(*SyntaxError)
	if !ok1 || !ok2 {
		return false
	}
	return sa.Line > sb.Line || sa.Line == sb.Line && sa.Col > sb.Col
}
