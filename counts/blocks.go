package counts

// Loopy's block statements group instructions:
//
//	for i, j            the statements inside run in i and j too
//	  ...
//	end
//	if COND             the statements inside run where COND holds
//	  ...
//	elif COND           ... where the earlier conditions fail and COND holds
//	  ...
//	else                ... where every earlier condition fails
//	  ...
//	end
//
// and "if COND: STATEMENT" predicates one instruction. Blocks nest; each
// statement records the inames and conditions of the blocks around it.

// blockStmt reads for, elif, else and end, and refuses loopy's with.
func (b *builder) blockStmt(c *cursor, kw token) {
	switch kw.text {
	case "for":
		bl := block{kw: kw}
		if c.peekAt(1).is("=") {
			bl.inames = []token{b.dataFor(c, kw)}
			b.openBlock(c, bl)
			return
		}
		for !c.atEnd() {
			bl.inames = append(bl.inames, c.ident("an iname"))
			c.accept(",")
		}
		if len(bl.inames) == 0 {
			c.failAt(kw.pos, "for needs the inames its statements run in: for i, j")
		}
		b.openBlock(c, bl)
	case "elif", "else":
		top := b.openIf(c, kw)
		var cond rexpr
		if kw.text == "elif" {
			cond = c.parseExpr()
			top.conds = append(top.conds, cond)
		} else {
			top.elseSeen = true
		}
		if top.static {
			c.staticBranch(top, cond)
		}
	case "end":
		if len(b.blocks) == 0 {
			c.failAt(kw.pos, "end without a for or if block to close")
		}
		if top := &b.blocks[len(b.blocks)-1]; top.conds != nil {
			b.snapshotConds(top)
		}
		b.blocks = b.blocks[:len(b.blocks)-1]
	case "with":
		c.failAt(kw.pos, "loopy's with blocks are not supported: put the annotations on each instruction")
	}
}

// openIf returns the innermost block, which must be an if block still
// open for another branch.
func (b *builder) openIf(c *cursor, kw token) *block {
	if len(b.blocks) == 0 || b.blocks[len(b.blocks)-1].conds == nil {
		c.failAt(kw.pos, "%s without an if block", kw.text)
	}
	top := &b.blocks[len(b.blocks)-1]
	if top.elseSeen {
		c.failAt(kw.pos, "%s after the else of the if block opened at %s", kw.text, top.kw.pos)
	}
	return top
}

// closeBlocks reports a block left open at the end of the file.
func (b *builder) closeBlocks() error {
	if len(b.blocks) == 0 {
		return nil
	}
	open := b.blocks[len(b.blocks)-1].kw
	return errorf(b.file, open.pos, "the %s block opened here is not closed: add 'end'", open.text)
}
