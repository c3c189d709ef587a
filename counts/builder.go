package counts

// builder collects a kernel's statements; finish resolves and checks them.
type builder struct {
	file       string
	overrides  map[string]int64
	consts     []Const
	constVals  map[string]int64
	name       token
	domains    []rawDomain
	assume     dnf
	assumePos  []Pos
	arrays     []rawArray
	splits     []rawSplit
	tags       []rawTag
	statements []rawStatement
	blocks     []block        // the for and if blocks open at this point
	dataLoops  []rawDataLoop  // for j = LO .. HI max N blocks (dataloop.go)
	firstUse   map[string]Pos // names seen so far, for "const after use"
}

type rawDomain struct {
	params []token
	inames []token
	set    dnf
	pos    Pos
}

type rawArray struct {
	name     token
	dtype    DType
	space    Space
	shape    []qaff
	shapePos []Pos
	colMajor bool
	readOnly bool
	value    []token // a scalar's value: a number, after a '-' if negative
}

// rawDataLoop is a data-bounded loop as read.
type rawDataLoop struct {
	kw     token // the for
	iname  token
	lo, hi rexpr
	max    qaff
	// outer are the inames of the for blocks around it.
	outer []token
}

type rawSplit struct {
	iname        token
	factor       int64
	outer, inner string
}

// rawTag is an iname's tag; auto marks l.auto, whose axis is chosen once
// the domains are known.
type rawTag struct {
	iname token
	tag   Tag
	auto  bool
}

// rawStatement is an instruction (lhs != nil) or a barrier.
type rawStatement struct {
	pos      Pos
	lhs      rexpr
	rhs      rexpr
	declType *DType // "<f32> x = ..." declares x; nil type pointer with decl means "<>"
	decl     bool
	atomic   bool // atomic_add(lhs, rhs)
	ann      annotation
	// inames are those of the enclosing for blocks; preds the conditions
	// of the enclosing if blocks and of an "if COND:" prefix, outermost
	// first (the if= annotation's follow).
	inames []token
	preds  []rexpr
	// synthetic marks a statement the reader adds (ifonce.go), which
	// takes no number among the automatic ids insn_N; condNames are the
	// names of conditions replaced by their temporaries there, whose
	// inames the statement still runs in.
	synthetic bool
	condNames []token
}

// block is an open for or if block.
type block struct {
	kw     token   // the for or if that opened it
	inames []token // a for block's inames
	// conds are the conditions of an if block's branches so far; the
	// current branch holds where the last holds and the others fail,
	// or, after else, where all fail.
	conds    []rexpr
	elseSeen bool
	// static marks a compile-time if (staticif.go): its conditions are
	// no predicates; live says the current branch is taken, taken that
	// one so far was.
	static, live, taken bool
	// start is the index of an if block's first statement, and outer a
	// statement begun where the block opens: the inames and conditions
	// of the blocks around it (ifonce.go).
	start int
	outer rawStatement
}

// newStatement starts a statement inside the open blocks.
func (b *builder) newStatement(pos Pos) rawStatement {
	s := rawStatement{pos: pos}
	for _, bl := range b.blocks {
		s.inames = append(s.inames, bl.inames...)
		if bl.static {
			continue
		}
		for i, c := range bl.conds {
			last := i == len(bl.conds)-1 && !bl.elseSeen
			if !last {
				c = &rUnary{"not", c, c.rpos()}
			}
			s.preds = append(s.preds, c)
		}
	}
	return s
}
