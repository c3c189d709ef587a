package counts

import "slices"

// Compile-time if: an if block (or "if COND: STATEMENT") whose condition
// names only constants and literals, once the constants are substituted,
// is resolved while the file is read, as C's #if on a tunable is by the
// preprocessor. Only the taken branch enters the kernel: it is counted,
// interpreted and generated, and the others are read for their syntax
// and dropped. Such a block adds no predicate, so barriers may stand
// inside it, and a --const override that changes the condition's value
// takes the other branch.

// staticCond reports whether cond names no iname, parameter, array or
// function, so that it is resolved now, and if so its value.
func (c *cursor) staticCond(cond rexpr) (static, holds bool) {
	if !literalOnly(cond) {
		return false, false
	}
	return true, c.staticValue(cond) != 0
}

// literalOnly reports whether e is built of literals and operators alone.
func literalOnly(e rexpr) bool {
	switch e := e.(type) {
	case *rNum:
		return true
	case *rNeg:
		return literalOnly(e.x)
	case *rUnary:
		return literalOnly(e.x)
	case *rBin:
		return literalOnly(e.x) && literalOnly(e.y)
	}
	return false
}

// staticValue evaluates a compile-time condition as C's #if does: integer
// arithmetic, exactly; a comparison, and, or and not are 1 or 0. and and
// or evaluate their right operand only where it decides the value.
func (c *cursor) staticValue(e rexpr) int64 {
	switch e := e.(type) {
	case *rNum:
		if e.t.kind == tUint {
			c.failAt(e.t.pos, "a compile-time condition is integer arithmetic over constants, computed exactly: write %s without its u", e.t.text)
		}
		if e.t.kind != tInt {
			c.failAt(e.t.pos, "a compile-time condition is integer arithmetic over constants, and %s is not an integer: compare integers (scale both sides), or test the value at run time with a scalar argument", e.t.text)
		}
		v, ok := parseInt(e.t.text, false)
		if !ok {
			c.failAt(e.t.pos, "integer %s does not fit in 64 bits", e.t.text)
		}
		return v
	case *rNeg:
		x := c.staticValue(e.x)
		v, err := mulInt(x, -1)
		if err != nil {
			c.failAt(e.at, "compile-time condition: integer overflow (-(%d))", x)
		}
		return v
	case *rUnary:
		x := c.staticValue(e.x)
		if e.op == "~" {
			return ^x
		}
		return truth(x == 0)
	case *rBin:
		return c.staticBinary(e)
	}
	// Not reached: staticCond evaluates only what literalOnly admits, and
	// a condition naming anything else is a run-time one
	// (TestParseErrors, "barrier in an if on a parameter").
	c.failAt(e.rpos(), "a compile-time condition holds only constants and literals")
	return 0
}

func (c *cursor) staticBinary(e *rBin) int64 {
	x := c.staticValue(e.x)
	switch e.op {
	case "and":
		return truth(x != 0 && c.staticValue(e.y) != 0)
	case "or":
		return truth(x != 0 || c.staticValue(e.y) != 0)
	}
	y := c.staticValue(e.y)
	switch e.op {
	case "<":
		return truth(x < y)
	case "<=":
		return truth(x <= y)
	case ">":
		return truth(x > y)
	case ">=":
		return truth(x >= y)
	case "==":
		return truth(x == y)
	case "!=":
		return truth(x != y)
	case "/":
		c.failAt(e.at, "compile-time condition: '/' on integers: write // for floor division")
	case "**":
		c.failAt(e.at, "compile-time condition: '**' is not integer arithmetic: write the product out")
	}
	v, msg := intBinary(binOps[e.op], x, y, I64)
	if msg != "" {
		c.failAt(e.at, "compile-time condition: %s (%d %s %d)", msg, x, e.op, y)
	}
	return v
}

// staticBranch moves a compile-time if block to its next branch: elif
// COND (cond non-nil) or else. The branch is live where no earlier one
// was taken and its condition holds.
func (c *cursor) staticBranch(top *block, cond rexpr) {
	holds := true
	if cond != nil {
		static, v := c.staticCond(cond)
		if !static {
			c.failAt(cond.rpos(), "elif of the compile-time if at %s names more than constants: a compile-time if's branches are chosen when the kernel is read, so every condition names only constants; for a run-time condition, nest an if block inside the else branch", top.kw.pos)
		}
		holds = v
	}
	top.live = !top.taken && holds
	top.taken = top.taken || holds
}

// dead reports whether the statement being read lies in a branch of a
// compile-time if that is not taken.
func (b *builder) dead() bool {
	return slices.ContainsFunc(b.blocks, func(bl block) bool { return bl.static && !bl.live })
}
