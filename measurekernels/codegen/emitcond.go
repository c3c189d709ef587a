package codegen

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// This file emits conditions and conditional values. A condition is a C
// int, 1 where it holds. C's &&, || and ?: evaluate their operands as the
// kernel language does; where an operand that may not be evaluated needs
// statements of its own (a reduction), the construct becomes an if
// statement around them.

func (e *emitter) compare(x *counts.Compare, within []string, depth int) (string, error) {
	l, r, err := e.operands(x.X, x.Y, within, depth)
	return "(" + l + " " + x.Op.String() + " " + r + ")", err
}

// branch renders x as at depth, returning the statements it needs
// separately instead of writing them.
func (e *emitter) branch(x counts.Expr, within []string, depth int) (v, stmts string, err error) {
	saved := e.b
	e.b = &strings.Builder{}
	v, err = e.expr(x, within, depth)
	stmts, e.b = e.b.String(), saved
	return v, stmts, err
}

// logic emits X and Y, X or Y: Y only where X does not decide.
func (e *emitter) logic(x *counts.Logic, within []string, depth int) (string, error) {
	l, err := e.expr(x.X, within, depth)
	if err != nil {
		return "", err
	}
	r, stmts, err := e.branch(x.Y, within, depth+1)
	if err != nil {
		return "", err
	}
	op, test := " && ", "%s"
	if x.Or {
		op, test = " || ", "!%s"
	}
	if stmts == "" {
		return "(" + l + op + r + ")", nil
	}
	t := e.temporary("cnd", counts.Bool, l, depth)
	e.line(depth, "if ("+test+") {", t)
	e.b.WriteString(stmts)
	e.line(depth+1, "%s = %s;", t, r)
	e.line(depth, "}")
	return t, nil
}

// conditional emits if(c, a, b), which evaluates one branch, and
// select(b, a, c), which evaluates both into temporaries first.
func (e *emitter) conditional(x *counts.Conditional, within []string, depth int) (string, error) {
	if x.Eager {
		b, err := e.expr(x.Else, within, depth)
		if err != nil {
			return "", err
		}
		tb := e.temporary("sel", x.T, b, depth)
		a, err := e.expr(x.Then, within, depth)
		if err != nil {
			return "", err
		}
		ta := e.temporary("sel", x.T, a, depth)
		c, err := e.expr(x.Cond, within, depth)
		if err != nil {
			return "", err
		}
		return "(" + c + " ? " + ta + " : " + tb + ")", nil
	}
	c, err := e.expr(x.Cond, within, depth)
	if err != nil {
		return "", err
	}
	a, as, err := e.branch(x.Then, within, depth+1)
	if err != nil {
		return "", err
	}
	b, bs, err := e.branch(x.Else, within, depth+1)
	if err != nil {
		return "", err
	}
	if as == "" && bs == "" {
		return "(" + c + " ? " + a + " : " + b + ")", nil
	}
	e.use(x.T)
	name := fmt.Sprintf("cnd%d", e.temp)
	e.temp++
	e.line(depth, "%s %s;", e.d.ctype(x.T), name)
	e.line(depth, "if (%s) {", unwrapped(c))
	e.b.WriteString(as)
	e.line(depth+1, "%s = %s;", name, a)
	e.line(depth, "} else {")
	e.b.WriteString(bs)
	e.line(depth+1, "%s = %s;", name, b)
	e.line(depth, "}")
	return name, nil
}
