package counts

// maxNesting bounds how deeply a kernel's expressions, domain constraints
// and for/if blocks nest. Every pass over a kernel walks its expressions
// recursively and a statement runs under the conditions of every block
// around it, so unbounded nesting means unbounded stack and work (200,000
// parentheses overflowed the stack); hand-written kernels nest a few
// levels, generated ones a few dozen.
const maxNesting = 256

// enter counts one more level of nesting at pos, refusing the statement
// past maxNesting; leave undoes it.
func (c *cursor) enter(pos Pos) {
	c.depth++
	if c.depth > maxNesting {
		c.failAt(pos, "expression nested more than %d levels deep (parentheses, brackets, calls, unary operators and conditionals count): split it with temporaries", maxNesting)
	}
}

func (c *cursor) leave() { c.depth-- }

// openBlock opens a for or if block, refusing one past maxNesting.
func (b *builder) openBlock(c *cursor, bl block) {
	if len(b.blocks) == maxNesting {
		c.failAt(bl.kw.pos, "for and if blocks nested more than %d deep: close some with 'end' or merge their conditions", maxNesting)
	}
	b.blocks = append(b.blocks, bl)
}
