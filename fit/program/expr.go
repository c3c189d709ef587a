package program

import (
	"fmt"
	"strconv"
)

// expr is an integer expression of a program file: decimal integers, names
// of lets, + - * /, unary minus and parentheses. Division must be exact.
type expr interface {
	eval(vars map[string]int64) (int64, error)
	names(visit func(string))
}

type num int64
type name string
type unary struct{ x expr }
type binary struct {
	op   byte
	x, y expr
}

func (n num) eval(map[string]int64) (int64, error) { return int64(n), nil }
func (n num) names(func(string))                   {}

func (n name) eval(vars map[string]int64) (int64, error) {
	v, ok := vars[string(n)]
	if !ok {
		return 0, fmt.Errorf("%s has no value", string(n))
	}
	return v, nil
}
func (n name) names(visit func(string)) { visit(string(n)) }

func (u unary) eval(vars map[string]int64) (int64, error) {
	v, err := u.x.eval(vars)
	if err != nil {
		return 0, err
	}
	if v == -v && v != 0 {
		return 0, fmt.Errorf("-(%d) overflows", v)
	}
	return -v, nil
}
func (u unary) names(visit func(string)) { u.x.names(visit) }

func (b binary) eval(vars map[string]int64) (int64, error) {
	x, err := b.x.eval(vars)
	if err != nil {
		return 0, err
	}
	y, err := b.y.eval(vars)
	if err != nil {
		return 0, err
	}
	switch b.op {
	case '+':
		if s := x + y; (s > x) != (y > 0) {
			return 0, fmt.Errorf("%d + %d overflows", x, y)
		}
		return x + y, nil
	case '-':
		if s := x - y; (s < x) != (y > 0) {
			return 0, fmt.Errorf("%d - %d overflows", x, y)
		}
		return x - y, nil
	case '*':
		if x == 0 || y == 0 {
			return 0, nil
		}
		p := x * y
		if p/y != x || (x == -1 && y == -1<<63) || (y == -1 && x == -1<<63) {
			return 0, fmt.Errorf("%d * %d overflows", x, y)
		}
		return p, nil
	}
	if y == 0 || x%y != 0 {
		return 0, fmt.Errorf("%d/%d is not an exact integer division", x, y)
	}
	return x / y, nil
}

func (b binary) names(visit func(string)) {
	b.x.names(visit)
	b.y.names(visit)
}

// parseExpr parses src as a whole expression.
func parseExpr(src string) (expr, error) {
	p := &exprParser{src: src}
	e, err := p.sum()
	if err == nil && p.peek() != 0 {
		err = fmt.Errorf("unexpected %s", excerpt(p.src[p.pos:]))
	}
	if err != nil {
		return nil, fmt.Errorf("expression %s, at byte %d: %w", excerpt(src), p.pos+1, err)
	}
	return e, nil
}

// excerpt quotes src, or its first 40 bytes and its length where it is
// longer: a line may be 64 KiB, too long to repeat in a message.
func excerpt(src string) string {
	const most = 40
	if len(src) <= most {
		return strconv.Quote(src)
	}
	return fmt.Sprintf("%q... (%d bytes)", src[:most], len(src))
}

type exprParser struct {
	src   string
	pos   int
	depth int
}

func (p *exprParser) peek() byte {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
	if p.pos == len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *exprParser) sum() (expr, error) {
	e, err := p.product()
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			break
		}
		p.pos++
		var y expr
		if y, err = p.product(); err == nil {
			e = binary{op, e, y}
		}
	}
	return e, err
}

func (p *exprParser) product() (expr, error) {
	e, err := p.unary()
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' {
			break
		}
		p.pos++
		var y expr
		if y, err = p.unary(); err == nil {
			e = binary{op, e, y}
		}
	}
	return e, err
}

// maxDepth bounds nesting (parentheses, unary minus), so that a hostile
// file cannot exhaust the stack; the .knl and set parsers allow as many.
const maxDepth = 256

func (p *exprParser) unary() (expr, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, fmt.Errorf("nested more than %d levels deep", maxDepth)
	}
	switch c := p.peek(); {
	case c == '-':
		p.pos++
		x, err := p.unary()
		return unary{x}, err
	case c == '(':
		p.pos++
		e, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("missing )")
		}
		p.pos++
		return e, nil
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		v, err := strconv.ParseInt(p.src[start:p.pos], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s does not fit in 64 bits", p.src[start:p.pos])
		}
		return num(v), nil
	case isNameStart(c):
		start := p.pos
		for p.pos < len(p.src) && isNameByte(p.src[p.pos]) {
			p.pos++
		}
		return name(p.src[start:p.pos]), nil
	case c == 0:
		return nil, fmt.Errorf("unexpected end")
	default:
		return nil, fmt.Errorf("unexpected %q", c)
	}
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameByte(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

// isName reports whether s is an identifier.
func isName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}
