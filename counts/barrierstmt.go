package counts

// barrierStmt reads a barrier's annotation. A barrier inside a for block
// runs in its inames; one inside an if block would not be reached by
// every work-item.
func (b *builder) barrierStmt(c *cursor, kw token) {
	s := b.newStatement(kw.pos)
	if len(s.preds) > 0 {
		c.failAt(kw.pos, "a barrier inside an if block on a run-time condition: every work-item must reach a barrier, so it cannot be conditional. End the if block before the barrier and open it again after it, or, for a tunable, make it a compile-time if, whose condition names only constants (if BS > 16)")
	}
	s.ann = c.parseAnnotation()
	if len(s.ann.conds) > 0 {
		c.failAt(s.ann.condPos, "a barrier cannot be conditional (if=): every work-item must reach it. Drop if=; for a tunable, make it a compile-time if, whose condition names only constants (if BS > 16: barrier)")
	}
	b.statements = append(b.statements, s)
}

// staticBarrier reads "if COND: barrier ...", which only a compile-time
// condition allows.
func (b *builder) staticBarrier(c *cursor, kw token, static, holds bool) {
	if !static {
		c.failAt(kw.pos, "a barrier cannot be conditional: every work-item must reach it. Only a compile-time condition, which names constants alone (if BS > 16: barrier), may stand before one; for a run-time condition, put it on the instructions around the barrier")
	}
	n := len(b.statements)
	c.next()
	if kw.is("...") {
		if t := c.ident("lbarrier"); t.text != "lbarrier" {
			c.failAt(t.pos, "only local barriers are supported: expected 'lbarrier', found %s", t.describe())
		}
	}
	b.barrierStmt(c, kw)
	c.expectEnd()
	if !holds {
		b.statements = b.statements[:n]
	}
}
