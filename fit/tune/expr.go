package tune

import (
	"fmt"
	"strconv"
	"strings"
)

// Expr is a parsed expression of Kernel Tuner's Python subset: the
// restrictions and value lists of a space, and the consts that --map
// computes from tunables.
type Expr struct {
	src  string
	root *node
}

// node is an expression's syntax tree.
type node struct {
	op   string // "lit", "name", "list", "call", "comp", "not", "neg", "pos", "and", "or", "cmp", or a binary operator
	pos  int    // byte offset in the source
	val  Value
	name string
	kids []*node
	ops  []string // of a chained comparison, one per pair
}

// maxExprLen bounds an expression's source.
const maxExprLen = 1 << 16

// ParseExpr parses src, an expression of the subset of Python that
// Kernel Tuner's restrictions and parameter lists use: int, float,
// string and bool literals; names; lists and tuples; + - * / // % **;
// comparisons (chained as in Python), in and not in; and, or, not;
// x if c else y; range(), list(), min(), max() and abs(); list
// comprehensions [e for x in it]. Anything else (lambda, attributes,
// subscripts, other calls, bitwise operators) is an error that gives
// its line:col in src.
func ParseExpr(src string) (*Expr, error) {
	if len(src) > maxExprLen {
		return nil, fmt.Errorf("expression of %d bytes: at most %d", len(src), maxExprLen)
	}
	toks, err := lexExpr(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	n, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEnd {
		return nil, p.errAt(t.pos, "unexpected %s after the expression", t.describe())
	}
	return &Expr{src: src, root: n}, nil
}

// String returns the expression's source.
func (e *Expr) String() string { return e.src }

// Names lists the free names the expression reads, in order of first use.
func (e *Expr) Names() []string {
	var out []string
	seen := map[string]bool{}
	var walk func(n *node, bound map[string]bool)
	walk = func(n *node, bound map[string]bool) {
		if n.op == "name" && !bound[n.name] && !seen[n.name] {
			seen[n.name] = true
			out = append(out, n.name)
		}
		if n.op == "comp" {
			walk(n.kids[1], bound)
			inner := map[string]bool{n.name: true}
			for k := range bound {
				inner[k] = true
			}
			walk(n.kids[0], inner)
			return
		}
		for _, k := range n.kids {
			walk(k, bound)
		}
	}
	walk(e.root, map[string]bool{})
	return out
}

type tokKind uint8

const (
	tEnd tokKind = iota
	tNum
	tStr
	tName
	tOp
)

type tok struct {
	kind tokKind
	text string
	pos  int
	val  Value
}

func (t tok) describe() string {
	if t.kind == tEnd {
		return "end of expression"
	}
	return strconv.Quote(t.text)
}

// lineCol returns the 1-based line and column of byte offset pos.
func lineCol(src string, pos int) (int, int) {
	line, col := 1, 1
	for i, r := range src {
		if i >= pos {
			break
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

func posError(src string, pos int, format string, args ...any) error {
	l, c := lineCol(src, pos)
	return &ExprError{Line: l, Col: c, Msg: fmt.Sprintf(format, args...)}
}

var ops3 = []string{"**", "//", "<=", ">=", "==", "!="}

func lexExpr(src string) ([]tok, error) {
	var out []tok
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			isFloat := false
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.' || src[j] == '_' ||
				src[j] == 'e' || src[j] == 'E' || (src[j] == '+' || src[j] == '-') && (src[j-1] == 'e' || src[j-1] == 'E')) {
				if src[j] == '.' || src[j] == 'e' || src[j] == 'E' {
					isFloat = true
				}
				j++
			}
			text := strings.ReplaceAll(src[i:j], "_", "")
			t := tok{kind: tNum, text: src[i:j], pos: i}
			if isFloat {
				f, err := strconv.ParseFloat(text, 64)
				if err != nil {
					return nil, posError(src, i, "%q is not a number", src[i:j])
				}
				t.val = Value{Kind: Float, F: f}
			} else {
				v, err := strconv.ParseInt(text, 10, 64)
				if err != nil {
					return nil, posError(src, i, "%q is not a 64-bit integer", src[i:j])
				}
				t.val = IntValue(v)
			}
			out = append(out, t)
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			if w := src[i:j]; w == "lambda" || w == "def" || w == "import" {
				return nil, posError(src, i, "%s is not supported: a restriction is an expression of the tunables (comparisons, and, or, not, in, arithmetic)", w)
			}
			out = append(out, tok{kind: tName, text: src[i:j], pos: i})
			i = j
		case c == '\'' || c == '"':
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				return nil, posError(src, i, "unterminated string")
			}
			s := src[i+1 : i+1+j]
			if strings.ContainsRune(s, '\\') {
				return nil, posError(src, i, "escapes in strings are not supported")
			}
			out = append(out, tok{kind: tStr, text: src[i : i+2+j], pos: i, val: Value{Kind: String, S: s}})
			i += j + 2
		case c == '.':
			return nil, posError(src, i, "attributes are not supported: a restriction reads tunables by name")
		default:
			op := string(c)
			for _, o := range ops3 {
				if strings.HasPrefix(src[i:], o) {
					op = o
				}
			}
			if !strings.Contains("()[],+-*/%<>", op) && len(op) == 1 {
				return nil, posError(src, i, "%q is not supported: restrictions use comparisons, and, or, not, in, + - * / // %% ** and parentheses", op)
			}
			out = append(out, tok{kind: tOp, text: op, pos: i})
			i += len(op)
		}
	}
	return append(out, tok{kind: tEnd, pos: len(src)}), nil
}

type parser struct {
	src  string
	toks []tok
	i    int
}

func (p *parser) peek() tok { return p.toks[p.i] }
func (p *parser) next() tok {
	t := p.toks[p.i]
	if t.kind != tEnd {
		p.i++
	}
	return t
}

func (p *parser) is(kind tokKind, text string) bool {
	t := p.peek()
	return t.kind == kind && t.text == text
}

func (p *parser) errAt(pos int, format string, args ...any) error {
	return posError(p.src, pos, format, args...)
}

func (p *parser) expect(text string) error {
	if t := p.peek(); t.kind != tOp || t.text != text {
		return p.errAt(t.pos, "expected %q, found %s", text, t.describe())
	}
	p.next()
	return nil
}

// ternary: or_expr [if or_expr else ternary]
func (p *parser) ternary() (*node, error) {
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	if !p.is(tName, "if") {
		return n, nil
	}
	pos := p.next().pos
	cond, err := p.or()
	if err != nil {
		return nil, err
	}
	if !p.is(tName, "else") {
		return nil, p.errAt(p.peek().pos, "expected else, found %s", p.peek().describe())
	}
	p.next()
	other, err := p.ternary()
	if err != nil {
		return nil, err
	}
	return &node{op: "ifelse", pos: pos, kids: []*node{n, cond, other}}, nil
}

func (p *parser) or() (*node, error)  { return p.logical("or", p.and) }
func (p *parser) and() (*node, error) { return p.logical("and", p.not) }

func (p *parser) logical(op string, sub func() (*node, error)) (*node, error) {
	n, err := sub()
	if err != nil {
		return nil, err
	}
	for p.is(tName, op) {
		pos := p.next().pos
		r, err := sub()
		if err != nil {
			return nil, err
		}
		n = &node{op: op, pos: pos, kids: []*node{n, r}}
	}
	return n, nil
}

func (p *parser) not() (*node, error) {
	if p.is(tName, "not") {
		pos := p.next().pos
		n, err := p.not()
		if err != nil {
			return nil, err
		}
		return &node{op: "not", pos: pos, kids: []*node{n}}, nil
	}
	return p.comparison()
}

var cmpOps = map[string]bool{"<": true, "<=": true, ">": true, ">=": true, "==": true, "!=": true}

func (p *parser) comparison() (*node, error) {
	n, err := p.arith()
	if err != nil {
		return nil, err
	}
	c := &node{op: "cmp", pos: n.pos, kids: []*node{n}}
	for {
		t := p.peek()
		var op string
		switch {
		case t.kind == tOp && cmpOps[t.text]:
			op = t.text
			p.next()
		case t.kind == tName && t.text == "in":
			op = "in"
			p.next()
		case t.kind == tName && t.text == "not" && p.toks[p.i+1].kind == tName && p.toks[p.i+1].text == "in":
			op = "not in"
			p.next()
			p.next()
		case t.kind == tName && t.text == "is":
			return nil, p.errAt(t.pos, "'is' is not supported: write == or !=")
		default:
			if len(c.ops) == 0 {
				return n, nil
			}
			return c, nil
		}
		r, err := p.arith()
		if err != nil {
			return nil, err
		}
		c.ops = append(c.ops, op)
		c.kids = append(c.kids, r)
	}
}

func (p *parser) arith() (*node, error) {
	return p.binary([]string{"+", "-"}, p.term)
}

func (p *parser) term() (*node, error) {
	return p.binary([]string{"*", "/", "//", "%"}, p.unary)
}

func (p *parser) binary(ops []string, sub func() (*node, error)) (*node, error) {
	n, err := sub()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		if t.kind != tOp || !contains(ops, t.text) {
			return n, nil
		}
		p.next()
		r, err := sub()
		if err != nil {
			return nil, err
		}
		n = &node{op: t.text, pos: t.pos, kids: []*node{n, r}}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) unary() (*node, error) {
	if t := p.peek(); t.kind == tOp && (t.text == "-" || t.text == "+") {
		p.next()
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		op := "neg"
		if t.text == "+" {
			op = "pos"
		}
		return &node{op: op, pos: t.pos, kids: []*node{n}}, nil
	}
	return p.power()
}

func (p *parser) power() (*node, error) {
	n, err := p.atom()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind == tOp && t.text == "**" {
		p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &node{op: "**", pos: t.pos, kids: []*node{n, r}}, nil
	}
	return n, nil
}

// functions are the calls an expression may make, with their arities.
var functions = map[string][2]int{"range": {1, 3}, "list": {1, 1}, "min": {1, 8}, "max": {1, 8}, "abs": {1, 1}}

var keywords = map[string]bool{"and": true, "or": true, "not": true, "in": true, "is": true, "if": true, "else": true,
	"for": true, "lambda": true, "None": true, "def": true, "import": true, "yield": true}

func (p *parser) atom() (*node, error) {
	t := p.next()
	var n *node
	switch {
	case t.kind == tNum || t.kind == tStr:
		n = &node{op: "lit", pos: t.pos, val: t.val}
	case t.kind == tName && (t.text == "True" || t.text == "False"):
		n = &node{op: "lit", pos: t.pos, val: boolValue(t.text == "True")}
	case t.kind == tName && keywords[t.text]:
		return nil, p.errAt(t.pos, "%q is not supported here: restrictions use comparisons, and, or, not, in and arithmetic", t.text)
	case t.kind == tName:
		if p.is(tOp, "(") {
			return p.call(t)
		}
		n = &node{op: "name", pos: t.pos, name: t.text}
	case t.kind == tOp && t.text == "(":
		return p.parenthesized(t)
	case t.kind == tOp && t.text == "[":
		return p.list(t)
	default:
		return nil, p.errAt(t.pos, "unexpected %s", t.describe())
	}
	if u := p.peek(); u.kind == tOp && u.text == "[" || u.kind == tOp && u.text == "(" {
		return nil, p.errAt(u.pos, "subscripts and calls of values are not supported")
	}
	if u := p.peek(); u.kind == tNum && strings.HasPrefix(u.text, ".") || u.kind == tOp && u.text == "." {
		return nil, p.errAt(u.pos, "attributes are not supported")
	}
	return n, nil
}

func (p *parser) call(name tok) (*node, error) {
	arity, ok := functions[name.text]
	if !ok {
		return nil, p.errAt(name.pos, "function %s is not supported: only range, list, min, max and abs", name.text)
	}
	p.next()
	args, err := p.items(")")
	if err != nil {
		return nil, err
	}
	if len(args) < arity[0] || len(args) > arity[1] {
		return nil, p.errAt(name.pos, "%s takes %d to %d arguments, not %d", name.text, arity[0], arity[1], len(args))
	}
	return &node{op: "call", pos: name.pos, name: name.text, kids: args}, nil
}

// items parses comma-separated expressions up to the closing bracket.
func (p *parser) items(closing string) ([]*node, error) {
	var out []*node
	for !p.is(tOp, closing) {
		n, err := p.ternary()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if !p.is(tOp, ",") {
			break
		}
		p.next()
	}
	return out, p.expect(closing)
}

func (p *parser) parenthesized(open tok) (*node, error) {
	if p.is(tOp, ")") {
		p.next()
		return &node{op: "list", pos: open.pos}, nil
	}
	n, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if p.is(tOp, ")") {
		p.next()
		return n, nil
	}
	if err := p.expect(","); err != nil {
		return nil, err
	}
	rest, err := p.items(")")
	if err != nil {
		return nil, err
	}
	return &node{op: "list", pos: open.pos, kids: append([]*node{n}, rest...)}, nil
}

func (p *parser) list(open tok) (*node, error) {
	if p.is(tOp, "]") {
		p.next()
		return &node{op: "list", pos: open.pos}, nil
	}
	first, err := p.ternary()
	if err != nil {
		return nil, err
	}
	if p.is(tName, "for") {
		p.next()
		v := p.next()
		if v.kind != tName || keywords[v.text] {
			return nil, p.errAt(v.pos, "expected a loop variable, found %s", v.describe())
		}
		if !p.is(tName, "in") {
			return nil, p.errAt(p.peek().pos, "expected in, found %s", p.peek().describe())
		}
		p.next()
		it, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.is(tName, "if") || p.is(tName, "for") {
			return nil, p.errAt(p.peek().pos, "comprehensions with if or a second for are not supported")
		}
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return &node{op: "comp", pos: open.pos, name: v.text, kids: []*node{first, it}}, nil
	}
	if p.is(tOp, "]") {
		p.next()
		return &node{op: "list", pos: open.pos, kids: []*node{first}}, nil
	}
	if err := p.expect(","); err != nil {
		return nil, err
	}
	rest, err := p.items("]")
	if err != nil {
		return nil, err
	}
	return &node{op: "list", pos: open.pos, kids: append([]*node{first}, rest...)}, nil
}
