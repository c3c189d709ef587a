package counts

import (
	"slices"
	"strconv"
)

// ParseKernel parses a .knl kernel. consts overrides the values of the
// file's "const" declarations (an override naming no declared constant is
// an error). Errors are *Error values naming the file, line and column.
func ParseKernel(filename string, src []byte, consts map[string]int64) (*Kernel, error) {
	t, err := LexKernel(filename, src)
	if err != nil {
		return nil, err
	}
	return t.Parse(consts)
}

// Parse parses the kernel as ParseKernel parses its text, with consts
// overriding its constants.
func (t *KernelText) Parse(consts map[string]int64) (*Kernel, error) {
	b := &builder{file: t.file, overrides: consts, constVals: map[string]int64{}}
	for _, stmt := range t.statements {
		if err := b.statement(stmt); err != nil {
			return nil, err
		}
	}
	if err := b.closeBlocks(); err != nil {
		return nil, err
	}
	return b.finish()
}

// statement parses one statement, substituting constants first.
func (b *builder) statement(toks []token) (err error) {
	var refs []string
	var constText string
	if toks[0].isWord("const") {
		refs, constText = b.constRefs(toks)
	}
	toks = b.substConsts(toks)
	c := &cursor{file: b.file, toks: toks}
	defer b.noteNames(toks)
	defer func() {
		if r := recover(); r != nil {
			bo, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			err = bo.err
		}
	}()
	if b.dead() {
		n := len(b.statements)
		defer func() { b.statements = b.statements[:n] }()
	}
	first := c.peek()
	if b.name.text == "" && !first.isWord("kernel") && !first.isWord("const") {
		c.failAt(first.pos, "expected 'kernel NAME' before anything else, found %s", first.describe())
	}
	if first.kind == tIdent && slices.Contains(statementKeywords, first.text) && !nameEnd(c) {
		c.next()
		if len(b.blocks) > 0 && slices.Contains(declarationKeywords, first.text) {
			open := b.blocks[len(b.blocks)-1].kw
			choose := ""
			if open.text == "if" {
				choose = " (where a compile-time if would choose between two declarations, declare one whose extent computes the choice from the constants: local t f32 [LX + PAD])"
			}
			c.failAt(first.pos, "'%s' inside the %s block opened at %s: declarations go outside for and if blocks; declare it above the block%s", first.text, open.text, open.pos, choose)
		}
		switch first.text {
		case "kernel":
			b.kernelStmt(c, first)
		case "const":
			b.constStmt(c, refs, constText)
		case "domain":
			params, inames, set := c.parseDomainSet()
			b.domains = append(b.domains, rawDomain{params, inames, set, first.pos})
		case "assume":
			b.assumePos = append(b.assumePos, c.peek().pos)
			d := c.parseOr()
			if b.assume == nil {
				b.assume = dnf{conj{}}
			}
			if len(b.assume)*len(d) > maxDisjuncts {
				c.failAt(first.pos, "assumptions too complex: more than %d disjuncts", maxDisjuncts)
			}
			b.assume = b.assume.and(d)
		case "array", "local", "private":
			b.arrayStmt(c, first.text)
		case "scalar":
			b.scalarStmt(c)
		case "split":
			b.splitStmt(c)
		case "tag":
			b.tagStmt(c)
		case "barrier":
			b.barrierStmt(c, first)
		case "if":
			b.ifStmt(c, first)
			return nil
		case "for", "elif", "else", "end", "with":
			b.blockStmt(c, first)
		}
		c.expectEnd()
		return nil
	}
	if first.is("...") {
		c.next()
		t := c.ident("lbarrier")
		if t.text != "lbarrier" {
			c.failAt(t.pos, "only local barriers are supported: expected 'lbarrier', found %s", t.describe())
		}
		b.barrierStmt(c, first)
		c.expectEnd()
		return nil
	}
	b.instructionStmt(c, nil)
	return nil
}

func (b *builder) substConsts(toks []token) []token {
	out := make([]token, len(toks))
	copy(out, toks)
	for i, t := range out {
		if t.kind != tIdent {
			continue
		}
		if i == 1 && out[0].isWord("const") {
			continue
		}
		if v, ok := b.constVals[t.text]; ok {
			out[i] = intToken(v, t.pos)
		}
	}
	return out
}

// intToken makes a literal token for a substituted constant; negative
// values become "-" and the magnitude, which the cursor's intLit accepts.
func intToken(v int64, pos Pos) token {
	return token{kind: tInt, text: strconv.FormatInt(v, 10), pos: pos}
}

// noteNames records where names are first used, so that a constant
// declared after a use of its name is caught.
func (b *builder) noteNames(toks []token) {
	if b.firstUse == nil {
		b.firstUse = map[string]Pos{}
	}
	for i, t := range toks {
		if t.kind != tIdent || (i == 1 && toks[0].isWord("const")) {
			continue
		}
		if _, seen := b.firstUse[t.text]; !seen {
			b.firstUse[t.text] = t.pos
		}
	}
}

func (b *builder) kernelStmt(c *cursor, kw token) {
	if b.name.text != "" {
		c.failAt(kw.pos, "second 'kernel' statement (the first is at %s)", b.name.pos)
	}
	b.name = c.ident("the kernel name")
}

func (b *builder) arrayStmt(c *cursor, kw string) {
	a := rawArray{name: c.ident("an array name"), space: map[string]Space{"array": Global, "local": Local, "private": Private}[kw]}
	if reservedName(a.name.text) {
		c.failAt(a.name.pos, "%q is reserved and cannot name an array", a.name.text)
	}
	dtPos := c.peek().pos
	a.dtype = c.elementType("an element type")
	if a.space == Private {
		c.checkHalfScalar(a.dtype, dtPos, "a private array")
	}
	if c.accept("[") {
		for {
			a.shapePos = append(a.shapePos, c.peek().pos)
			a.shape = append(a.shape, c.parseExtent(a.name.text))
			if c.accept("]") {
				break
			}
			c.expect(",")
		}
	}
	for !c.atEnd() {
		b.arrayAttribute(c, &a)
	}
	b.arrays = append(b.arrays, a)
}

// scalarStmt reads "scalar NAME DTYPE [= VALUE]", a scalar kernel
// argument.
func (b *builder) scalarStmt(c *cursor) {
	a := rawArray{name: c.ident("a scalar argument's name"), space: Argument}
	if reservedName(a.name.text) {
		c.failAt(a.name.pos, "%q is reserved and cannot name a scalar argument", a.name.text)
	}
	dtPos := c.peek().pos
	a.dtype = c.elementType("a type")
	if a.dtype.Narrow() {
		c.failAt(dtPos, "a scalar argument of type %s: declare it i32 (C promotes a %s argument to int before any arithmetic)", a.dtype, a.dtype)
	}
	c.checkHalfScalar(a.dtype, dtPos, "a scalar argument")
	if c.peek().is("[") {
		c.failAt(c.peek().pos, "a scalar argument has no shape: declare an array with 'array %s %s [EXTENT, ...]'", a.name.text, a.dtype)
	}
	if c.accept("=") {
		if t := c.peek(); t.is("-") {
			a.value = append(a.value, c.next())
		}
		if t := c.peek(); t.kind != tInt && t.kind != tFloat {
			c.expected("a number, the value of " + a.name.text)
		}
		a.value = append(a.value, c.next())
	}
	b.arrays = append(b.arrays, a)
}

func (b *builder) splitStmt(c *cursor) {
	s := rawSplit{iname: c.ident("the iname to split")}
	if t := c.peek(); t.kind == tIdent {
		c.failAt(t.pos, "split factor %s is not a constant: a split's factor is an integer or a const (const LX = 256, then split %s LX), which fixes the work-group's size when the kernel is compiled", t.text, s.iname.text)
	}
	f, fpos := c.intLit("a positive split factor")
	if f <= 0 {
		c.failAt(fpos, "split factor must be positive, not %d", f)
	}
	s.factor = f
	s.outer, s.inner = s.iname.text+"_outer", s.iname.text+"_inner"
	if !c.atEnd() {
		s.outer = c.ident("the outer iname's name").text
		s.inner = c.ident("the inner iname's name").text
	}
	b.splits = append(b.splits, s)
}

func (b *builder) tagStmt(c *cursor) {
	for {
		t := rawTag{iname: c.ident("an iname")}
		tg := c.ident("a tag (g.N, l.N, l.auto, unr, ilp, seq or down)")
		switch tg.text {
		case "g", "l":
			c.expect(".")
			t.tag.Kind = Group
			if tg.text == "l" {
				t.tag.Kind = LocalID
				if c.acceptWord("auto") {
					t.auto = true
					break
				}
			}
			axis, apos := c.intLit("a hardware axis 0, 1 or 2")
			if axis < 0 || axis > 2 {
				c.failAt(apos, "tag %s.%d is out of range: hardware axes are 0, 1 and 2", tg.text, axis)
			}
			t.tag.Axis = int(axis)
		case "unr":
			t.tag.Kind = Unroll
		case "ilp":
			t.tag.Kind = ILP
			if c.accept(".") {
				if v := c.ident("unr or seq"); v.text != "unr" && v.text != "seq" {
					c.failAt(v.pos, "unknown tag ilp.%s (want ilp, ilp.unr or ilp.seq)", v.text)
				}
			}
		case "seq", "for", "ord":
			t.tag.Kind = Seq
		case "down":
			t.tag.Kind = Down
		default:
			c.failAt(tg.pos, "unknown tag %q (want g.0-2, l.0-2, l.auto, unr, ilp, seq or down)", tg.text)
		}
		b.tags = append(b.tags, t)
		if !c.accept(",") {
			return
		}
	}
}

// compoundOps are the operators of compound assignments, LHS += EXPR.
var compoundOps = []string{"+", "-", "*", "/"}

// instructionStmt reads "[<TYPE>] LHS = EXPR [{ANNOTATIONS}]" or "LHS
// OP= EXPR"; pred is the condition of an "if COND:" prefix, or nil.
func (b *builder) instructionStmt(c *cursor, pred rexpr) {
	s := b.newStatement(c.peek().pos)
	if pred != nil {
		s.preds = append(s.preds, pred)
	}
	if c.accept("<") {
		s.decl = true
		if !c.peek().is(">") {
			dtPos := c.peek().pos
			t := c.elementType("an element type or '>'")
			c.checkHalfScalar(t, dtPos, "a temporary")
			s.declType = &t
		}
		c.expect(">")
	}
	name := c.ident("an instruction (NAME = EXPR) or a statement keyword")
	if name.text == atomicAdd && c.peek().is("(") && !s.decl {
		b.atomicStmt(c, s)
		return
	}
	tag := c.parseTag(name)
	s.lhs = &rName{name, tag}
	if c.accept("[") {
		s.lhs = &rSub{name, tag, c.parseExprs("]")}
	}
	if op := c.peek(); slices.Contains(compoundOps, op.text) && c.peekAt(1).is("=") {
		// loopy's a[i] += x is a[i] = a[i] + x: a load, the operation
		// and a store.
		c.next()
		c.next()
		if s.decl {
			c.failAt(op.pos, "%s= declares %s and reads it at once: write <> %s = EXPR", op.text, name.text, name.text)
		}
		s.rhs = &rBin{op.text, s.lhs, c.parseExpr(), op.pos}
	} else {
		if t := c.peek(); slices.Contains(puncts, t.text) && !t.is("=") && c.peekAt(1).is("=") {
			c.failAt(t.pos, "%s= is not an assignment (write =, +=, -=, *= or /=)", t.text)
		}
		c.expect("=")
		s.rhs = c.parseExpr()
	}
	s.ann = c.parseAnnotation()
	s.preds = append(s.preds, s.ann.conds...)
	c.expectEnd()
	b.statements = append(b.statements, s)
}

// ifStmt reads "if COND: INSTRUCTION" or, when the line ends after COND,
// opens an if block.
func (b *builder) ifStmt(c *cursor, kw token) {
	cond := c.parseExpr()
	static, holds := c.staticCond(cond)
	if c.atEnd() {
		b.openBlock(c, block{kw: kw, conds: []rexpr{cond}, static: static, live: holds, taken: holds,
			start: len(b.statements), outer: b.newStatement(kw.pos)})
		return
	}
	if !c.accept(":") {
		c.expected("':' and an instruction, or the end of the line that opens an if block")
	}
	if t := c.peek(); t.is("...") || t.isWord("barrier") {
		b.staticBarrier(c, t, static, holds)
		return
	}
	if !static {
		b.instructionStmt(c, cond)
		return
	}
	n := len(b.statements)
	b.instructionStmt(c, nil)
	if !holds {
		b.statements = b.statements[:n]
	}
}
