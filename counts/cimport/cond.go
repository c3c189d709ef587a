package cimport

import (
	"strconv"
	"strings"
)

// cond is a condition: "cmp" (e >= 0, e == 0 or e != 0 by rel, e
// affine), "mod" (e % mod == 0 or != 0 by rel, e affine, mod a positive
// constant), "and", "or", "not" (args), "const" (val) or "data" (text:
// a .knl condition that reads data or compares floating-point values).
type cond struct {
	op   string
	rel  string
	e    aff
	mod  int64
	args []*cond
	val  bool
	text string
}

func constCond(v bool) *cond { return &cond{op: "const", val: v} }

// compare builds the condition l REL r of affine l and r.
func compare(l aff, rel string, r aff) (*cond, bool) {
	sub := func(a, b aff, c int64) (aff, bool) {
		d, ok := a.add(b, -1)
		if !ok {
			return nil, false
		}
		return d.add(affConst(constPoly(c)), 1)
	}
	var e aff
	var ok bool
	out := &cond{op: "cmp", rel: ">="}
	switch rel {
	case "<":
		e, ok = sub(r, l, -1)
	case "<=":
		e, ok = sub(r, l, 0)
	case ">":
		e, ok = sub(l, r, -1)
	case ">=":
		e, ok = sub(l, r, 0)
	case "==", "!=":
		e, ok = sub(l, r, 0)
		out.rel = rel
	}
	if !ok {
		return nil, false
	}
	out.e = e
	if c, isConst := e.constant(); isConst {
		switch out.rel {
		case ">=":
			return constCond(c >= 0), true
		case "==":
			return constCond(c == 0), true
		}
		return constCond(c != 0), true
	}
	return out, true
}

func and(a, b *cond) *cond {
	switch {
	case a.op == "const":
		if a.val {
			return b
		}
		return a
	case b.op == "const":
		if b.val {
			return a
		}
		return b
	}
	return &cond{op: "and", args: []*cond{a, b}}
}

func or(a, b *cond) *cond {
	switch {
	case a.op == "const":
		if a.val {
			return a
		}
		return b
	case b.op == "const":
		if b.val {
			return b
		}
		return a
	}
	return &cond{op: "or", args: []*cond{a, b}}
}

// not negates c, pushing the negation into affine comparisons.
func not(c *cond) *cond {
	switch c.op {
	case "const":
		return constCond(!c.val)
	case "mod":
		rel := "=="
		if c.rel == "==" {
			rel = "!="
		}
		return &cond{op: "mod", rel: rel, e: c.e, mod: c.mod}
	case "cmp":
		switch c.rel {
		case "==":
			return &cond{op: "cmp", rel: "!=", e: c.e}
		case "!=":
			return &cond{op: "cmp", rel: "==", e: c.e}
		}
		e, _ := affConst(constPoly(-1)).add(c.e, -1) // -e - 1 >= 0; cannot overflow past what e held
		return &cond{op: "cmp", rel: ">=", e: e}
	case "and":
		return or(not(c.args[0]), not(c.args[1]))
	case "or":
		return and(not(c.args[0]), not(c.args[1]))
	case "not":
		return c.args[0]
	}
	return &cond{op: "not", args: []*cond{c}}
}

// affine reports whether c reads no data.
func (c *cond) affine() bool {
	switch c.op {
	case "data":
		return false
	case "and", "or", "not":
		for _, a := range c.args {
			if !a.affine() {
				return false
			}
		}
	}
	return true
}

// conjunction returns the comparisons of c where c is a conjunction of
// comparisons >= and == (what a domain holds).
func (c *cond) conjunction() ([]*cond, bool) {
	switch c.op {
	case "cmp":
		return []*cond{c}, c.rel != "!="
	case "and":
		a, ok1 := c.args[0].conjunction()
		b, ok2 := c.args[1].conjunction()
		return append(a, b...), ok1 && ok2
	case "const":
		return nil, c.val
	}
	return nil, false
}

// format writes c in the .knl's syntax (loopy's; a domain's constraints
// read the same).
func (c *cond) format(f func(aff) string) string {
	switch c.op {
	case "const":
		if c.val {
			return "0 == 0"
		}
		return "0 == 1"
	case "data":
		return c.text
	case "cmp":
		return cmpString(c, f)
	case "mod":
		e := f(c.e)
		if strings.ContainsAny(e[1:], "+-") {
			e = "(" + e + ")"
		}
		return e + " % " + strconv.FormatInt(c.mod, 10) + " " + c.rel + " 0"
	case "not":
		return "not (" + c.args[0].format(f) + ")"
	}
	word := " and "
	if c.op == "or" {
		word = " or "
	}
	var parts []string
	for _, a := range c.args {
		s := a.format(f)
		if a.op == "and" || a.op == "or" {
			s = "(" + s + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, word)
}

// cmpString writes e >= 0 as "lhs <= rhs" with the negative terms
// moved over: i - nx + 1 >= 0 reads "nx - 1 <= i"; the common form
// nx - i - 1 >= 0 reads "i < nx".
func cmpString(c *cond, f func(aff) string) string {
	pos, neg := aff{}, aff{}
	for k, p := range c.e {
		for m, v := range p {
			side := pos
			if v < 0 {
				side, v = neg, -v
			}
			if side[k] == nil {
				side[k] = poly{}
			}
			side[k][m] = v
		}
	}
	rel := c.rel
	if rel == ">=" {
		// neg + 1 <= pos reads neg < pos.
		if k := neg[""][""]; k > 0 {
			neg[""][""] = k - 1
			neg[""] = neg[""].trim()
			return f(neg.trim()) + " < " + f(pos.trim())
		}
		return f(neg.trim()) + " <= " + f(pos.trim())
	}
	return f(pos.trim()) + " " + rel + " " + f(neg.trim())
}
