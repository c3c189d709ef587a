package suite

import (
	"fmt"
	"strconv"
	"strings"
)

// evalExpr evaluates an integer expression of the suite format: decimal
// integers, variables, + - * /, unary minus and parentheses. Division must
// be exact, so that a shape such as N/2 never silently rounds, and every
// step is checked for overflow.
func evalExpr(src string, vars map[string]int64) (int64, error) {
	p := &exprParser{src: src, vars: vars}
	v, err := p.sum()
	// peek returns 0 at the end, and for a NUL byte too: "0\x000" was 0.
	if p.peek(); err == nil && p.pos != len(p.src) {
		err = fmt.Errorf("unexpected %q", p.src[p.pos:])
	}
	if err != nil {
		return 0, fmt.Errorf("expression %q: %w", src, err)
	}
	return v, nil
}

type exprParser struct {
	src  string
	pos  int
	vars map[string]int64
}

func (p *exprParser) peek() byte {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	if p.pos == len(p.src) {
		return 0
	}
	return p.src[p.pos]
}

func (p *exprParser) sum() (int64, error) {
	v, err := p.product()
	for err == nil {
		op := p.peek()
		if op != '+' && op != '-' {
			break
		}
		p.pos++
		var w int64
		if w, err = p.product(); err == nil {
			if op == '-' {
				w, err = neg(w)
			}
			if err == nil {
				v, err = add(v, w)
			}
		}
	}
	return v, err
}

func (p *exprParser) product() (int64, error) {
	v, err := p.unary()
	for err == nil {
		op := p.peek()
		if op != '*' && op != '/' {
			break
		}
		p.pos++
		var w int64
		if w, err = p.unary(); err != nil {
			break
		}
		if op == '*' {
			v, err = mul(v, w)
		} else if w == 0 || v%w != 0 {
			err = fmt.Errorf("%d/%d is not an exact integer division", v, w)
		} else {
			v /= w
		}
	}
	return v, err
}

func (p *exprParser) unary() (int64, error) {
	switch c := p.peek(); {
	case c == '-':
		p.pos++
		v, err := p.unary()
		if err != nil {
			return 0, err
		}
		return neg(v)
	case c == '(':
		p.pos++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		if p.peek() != ')' {
			return 0, fmt.Errorf("missing )")
		}
		p.pos++
		return v, nil
	case c >= '0' && c <= '9':
		start := p.pos
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
		}
		return strconv.ParseInt(p.src[start:p.pos], 10, 64)
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		start := p.pos
		for p.pos < len(p.src) && strings.ContainsRune("_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", rune(p.src[p.pos])) {
			p.pos++
		}
		name := p.src[start:p.pos]
		v, ok := p.vars[name]
		if !ok {
			return 0, fmt.Errorf("unknown variable %s", name)
		}
		return v, nil
	case c == 0:
		return 0, fmt.Errorf("unexpected end")
	default:
		return 0, fmt.Errorf("unexpected %q", c)
	}
}

func add(a, b int64) (int64, error) {
	s := a + b
	if (s > a) != (b > 0) {
		return 0, fmt.Errorf("%d + %d overflows", a, b)
	}
	return s, nil
}

func neg(a int64) (int64, error) {
	if a == -a && a != 0 {
		return 0, fmt.Errorf("-(%d) overflows", a)
	}
	return -a, nil
}

func mul(a, b int64) (int64, error) {
	if a == 0 || b == 0 {
		return 0, nil
	}
	p := a * b
	if p/b != a || (a == -1 && b == -1<<63) || (b == -1 && a == -1<<63) {
		return 0, fmt.Errorf("%d * %d overflows", a, b)
	}
	return p, nil
}
