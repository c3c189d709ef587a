package polyhedra

import (
	"fmt"
	"slices"
)

// ParseSet reads a set in isl notation, for example
//
//	[n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= i and j < m }
//
// Names that are neither declared parameters nor dimensions become
// parameters, as in isl. Errors are *SyntaxError values carrying the line
// and column.
func ParseSet(src string) (*Set, error) { return ParseSetLimits(src, Limits{}) }

// ParseSetLimits is ParseSet within l: conditions that multiply into more
// basic sets (each x != c doubles them) fail with *BudgetError.
func ParseSetLimits(src string, l Limits) (s *Set, err error) {
	defer catch(&err, "parsing set")
	ast, err := parseSetAST(src)
	if err != nil {
		return nil, err
	}
	bd := &builder{params: ast.params, work: newBudget(l)}
	s = &Set{params: ast.params}
	for i, pc := range ast.pieces {
		if i == 0 {
			s.name, s.dims = pc.name, pc.dims
		} else {
			if len(pc.dims) != len(s.dims) {
				return nil, &SyntaxError{pc.p.line, pc.p.col, fmt.Sprintf("this piece has %d dimensions, the first has %d", len(pc.dims), len(s.dims))}
			}
			if pc.name != s.name {
				return nil, &SyntaxError{pc.p.line, pc.p.col, fmt.Sprintf("tuple name %q differs from the first piece's %q", pc.name, s.name)}
			}
		}
		for _, d := range pc.dims {
			if slices.Contains(ast.params, d) {
				return nil, &SyntaxError{pc.p.line, pc.p.col, fmt.Sprintf("dimension %s has the name of a parameter", d)}
			}
		}
		if pc.cond != nil {
			bd.collectParams(pc.cond, pc.dims)
		}
	}
	s.params = bd.params
	for _, pc := range ast.pieces {
		for _, d := range pc.dims {
			if slices.Contains(bd.params, d) {
				return nil, &SyntaxError{pc.p.line, pc.p.col, fmt.Sprintf("%s is a dimension here but a parameter elsewhere", d)}
			}
		}
	}
	for _, pc := range ast.pieces {
		if n := len(bd.params) + len(pc.dims); n > MaxDims {
			return nil, dimsError(pc.p, n, "parameters and dimensions")
		}
		parts := []*bset{newBset(len(bd.params), len(pc.dims))}
		if pc.cond != nil {
			parts, err = bd.formula(pc.cond, pc.dims)
			if err != nil {
				return nil, err
			}
		}
		s.parts = append(s.parts, parts...)
	}
	s.parts = cleanParts(s.parts)
	return s, nil
}

// MaxDims bounds the parameters, dimensions and existential variables of
// a set. Counting eliminates dimensions one by one, and the work of each
// elimination grows with the constraints the earlier ones made, so a set
// of hundreds of dimensions ran for minutes and out of memory whatever the
// budgets; loop nests have a few dozen.
const MaxDims = 64

func dimsError(p pos, n int, what string) error {
	return &SyntaxError{p.line, p.col, fmt.Sprintf("the set has %d %s, more than the %d that can be counted: project dimensions out or split the set", n, what, MaxDims)}
}

// builder turns a syntax tree into basic sets over the parameters and a
// list of dimension names (the tuple followed by existential variables in
// scope, innermost last).
type builder struct {
	params []string
	work   *budget
}

// collectParams appends the free names of f to the parameters.
func (bd *builder) collectParams(f fNode, scope []string) {
	switch n := f.(type) {
	case *fAnd:
		bd.collectParams(n.l, scope)
		bd.collectParams(n.r, scope)
	case *fOr:
		bd.collectParams(n.l, scope)
		bd.collectParams(n.r, scope)
	case *fNot:
		bd.collectParams(n.x, scope)
	case *fExists:
		bd.collectParams(n.body, append(slices.Clone(scope), n.vars...))
	case *fCmp:
		for _, l := range n.lists {
			for _, e := range l {
				bd.collectExprParams(e, scope)
			}
		}
	}
}

func (bd *builder) collectExprParams(e eNode, scope []string) {
	switch n := e.(type) {
	case *eVar:
		if !slices.Contains(scope, n.name) && !slices.Contains(bd.params, n.name) {
			bd.params = append(bd.params, n.name)
		}
	case *eBin:
		bd.collectExprParams(n.l, scope)
		bd.collectExprParams(n.r, scope)
	case *eNeg:
		bd.collectExprParams(n.x, scope)
	case *eFloor:
		bd.collectExprParams(n.x, scope)
	case *eMinMax:
		for _, a := range n.args {
			bd.collectExprParams(a, scope)
		}
	}
}

func semErr(p pos, format string, args ...any) error {
	return &SyntaxError{p.line, p.col, fmt.Sprintf(format, args...)}
}

func (bd *builder) formula(f fNode, scope []string) ([]*bset, error) {
	np, nd := len(bd.params), len(scope)
	switch n := f.(type) {
	case *fBool:
		if n.v {
			return []*bset{newBset(np, nd)}, nil
		}
		return nil, nil
	case *fAnd:
		return bd.conjunction(n, scope)
	case *fOr:
		return bd.disjunction(n, scope)
	case *fNot:
		x, err := bd.formula(n.x, scope)
		if err != nil {
			return nil, err
		}
		return complementParts(x, np, nd, bd.work), nil
	case *fExists:
		inner := append(slices.Clone(scope), n.vars...)
		if np+len(inner) > MaxDims {
			return nil, dimsError(n.p, np+len(inner), "parameters, dimensions and existential variables")
		}
		body, err := bd.formula(n.body, inner)
		if err != nil {
			return nil, err
		}
		out, err := projectOutTail(body, len(n.vars), bd.work)
		if ce, ok := err.(*ComplexityError); ok {
			ce.Dim = fmt.Sprintf("exists variable at %d:%d", n.p.line, n.p.col)
		}
		return out, err
	case *fCmp:
		if c := splitMinMax(n); c != nil {
			return bd.formula(c, scope)
		}
		return bd.comparison(n, scope)
	}
	panic("polyhedra: unknown formula node")
}

// conjunction builds a chain of conjuncts left to right. While both
// sides are one basic set, each conjunct's constraints join the
// accumulated set in place: the conjunction is normalised and tested for
// emptiness once, at the end, rather than after every comparison, and is
// not copied at every step.
func (bd *builder) conjunction(n *fAnd, scope []string) ([]*bset, error) {
	var acc []*bset
	for i, t := range chain(n) {
		if c, ok := t.(*fCmp); ok && (i == 0 || len(acc) == 1) && plainComparison(c) {
			if i == 0 {
				acc = []*bset{newBset(len(bd.params), len(scope))}
			}
			bd.compareInto(acc[0], c, scope)
			continue
		}
		parts, err := bd.formula(t, scope)
		if err != nil {
			return nil, err
		}
		switch {
		case i == 0:
			acc = parts
		case len(acc) == 1 && len(parts) == 1:
			acc[0].meetInto(parts[0])
		default:
			acc = intersectParts(acc, parts, bd.work)
		}
		if len(acc) == 0 {
			return nil, nil
		}
	}
	return acc, nil
}

// disjunction builds a chain of disjuncts and drops the parts another
// part contains. A conjunction of disjunctions multiplies their parts,
// so a part dropped here saves many later: the bounding box of a
// footprint is such a conjunction, its disjuncts the bounds that each
// reference gives, most of which the others' imply.
func (bd *builder) disjunction(n *fOr, scope []string) ([]*bset, error) {
	var out []*bset
	for _, t := range chain(n) {
		parts, err := bd.formula(t, scope)
		if err != nil {
			return nil, err
		}
		out = append(out, parts...)
	}
	return dropCovered(out), nil
}

// chain lists in order the operands of a left-leaning chain of the
// operator at root (and, or).
func chain(root fNode) []fNode {
	var out []fNode
	f := root
	for {
		l, r, ok := operands(f, root)
		if !ok {
			out = append(out, f)
			break
		}
		out = append(out, r)
		f = l
	}
	slices.Reverse(out)
	return out
}

// operands returns the operands of f when its operator is that of root.
func operands(f, root fNode) (l, r fNode, ok bool) {
	switch n := f.(type) {
	case *fAnd:
		_, ok = root.(*fAnd)
		return n.l, n.r, ok
	case *fOr:
		_, ok = root.(*fOr)
		return n.l, n.r, ok
	}
	return nil, nil, false
}

// splitMinMax rewrites a comparison with a minimum on the larger side or
// a maximum on the smaller side as a conjunction, x <= min(a, b) as
// x <= a and x <= b, which is one basic set where evaluating the minimum
// would give one per argument. It returns nil when there is nothing to
// split.
func splitMinMax(c *fCmp) fNode {
	type pair struct {
		x, y eNode
		op   token
	}
	var pairs []pair
	for i, op := range c.ops {
		for _, x := range c.lists[i] {
			for _, y := range c.lists[i+1] {
				pairs = append(pairs, pair{x, y, op})
			}
		}
	}
	split := false
	for k := 0; k < len(pairs); k++ {
		p := pairs[k]
		less := p.op.text == "<" || p.op.text == "<="
		more := p.op.text == ">" || p.op.text == ">="
		var args []eNode
		var left bool
		if m, ok := p.y.(*eMinMax); ok && (less && !m.max || more && m.max) {
			args = m.args
		} else if m, ok := p.x.(*eMinMax); ok && (less && m.max || more && !m.max) {
			args, left = m.args, true
		} else {
			continue
		}
		split = true
		pairs = slices.Delete(pairs, k, k+1)
		for _, a := range args {
			q := pair{p.x, a, p.op}
			if left {
				q = pair{a, p.y, p.op}
			}
			pairs = append(pairs, q)
		}
		k--
	}
	if !split {
		return nil
	}
	var f fNode
	for _, p := range pairs {
		var cmp fNode = &fCmp{lists: [][]eNode{{p.x}, {p.y}}, ops: []token{p.op}}
		if f == nil {
			f = cmp
		} else {
			f = &fAnd{f, cmp}
		}
	}
	return f
}

// A qaff is the rational affine value row/den (den > 0) over the columns
// of the bset in which it was built; a qcase is one case of a piecewise
// value (min, max): the value holds where the rows cond are >= 0.
type qaff struct {
	row []int64
	den int64
}

type qcase struct {
	cond [][]int64
	val  qaff
}

func (q qaff) isConst() bool { return isZeroRow(q.row[1:]) }

// comparison builds the parts of a comparison chain: every expression is
// evaluated into one shared bset b (so that divs are shared), then every
// combination of the expressions' cases yields one part.
func (bd *builder) comparison(c *fCmp, scope []string) ([]*bset, error) {
	b := newBset(len(bd.params), len(scope))
	vals := make([][][]qcase, len(c.lists))
	for i, l := range c.lists {
		for _, e := range l {
			v, err := bd.expr(b, e, scope)
			if err != nil {
				return nil, err
			}
			vals[i] = append(vals[i], v)
		}
	}
	// choose one case per expression
	var flat [][]qcase
	for _, l := range vals {
		flat = append(flat, l...)
	}
	var out []*bset
	var rec func(k int, cur *bset, picked []qaff) error
	rec = func(k int, cur *bset, picked []qaff) error {
		if k == len(flat) {
			parts := []*bset{cur}
			idx := 0
			lists := make([][]qaff, len(vals))
			for i, l := range vals {
				lists[i] = picked[idx : idx+len(l)]
				idx += len(l)
			}
			for i, op := range c.ops {
				for _, x := range lists[i] {
					for _, y := range lists[i+1] {
						parts = compare(parts, x, y, op.text)
					}
				}
			}
			out = append(out, parts...)
			return nil
		}
		for _, cs := range flat[k] {
			next := cur
			if len(flat[k]) > 1 { // cur serves the other cases too
				next = cur.clone()
			}
			for _, r := range cs.cond {
				// The cases of one expression share their condition
				// rows, and normalising a part rewrites its rows.
				next.addIneq(copyRow(r))
			}
			if err := rec(k+1, next, append(picked, cs.val)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rec(0, b, nil); err != nil {
		return nil, err
	}
	if len(out) == 1 {
		// The conjunction a comparison joins is normalised and tested
		// once it is complete; here only a constant row can be false.
		if out[0].constantlyFalse() {
			return nil, nil
		}
		return out, nil
	}
	return cleanParts(out), nil
}

// plainComparison reports whether every side of c is an integer affine
// expression (sums of variables and constants, and products with a
// constant factor) and c has no !=: such a comparison is a list of rows
// over the columns a set already has.
func plainComparison(c *fCmp) bool {
	for _, op := range c.ops {
		if op.text == "!=" {
			return false
		}
	}
	for _, l := range c.lists {
		for _, e := range l {
			if !linearExpr(e) {
				return false
			}
		}
	}
	return true
}

func linearExpr(e eNode) bool {
	switch n := e.(type) {
	case *eNum, *eVar:
		return true
	case *eNeg:
		return linearExpr(n.x)
	case *eBin:
		switch n.op {
		case "+", "-":
			return linearExpr(n.l) && linearExpr(n.r)
		case "*":
			return linearExpr(n.l) && linearExpr(n.r) && (constExpr(n.l) || constExpr(n.r))
		}
	}
	return false
}

func constExpr(e eNode) bool {
	switch n := e.(type) {
	case *eNum:
		return true
	case *eNeg:
		return constExpr(n.x)
	case *eBin:
		return (n.op == "+" || n.op == "-" || n.op == "*") && constExpr(n.l) && constExpr(n.r)
	}
	return false
}

// compareInto adds the rows of a plain comparison (see plainComparison)
// to b, sparing the set of its own that comparison builds, the merge of
// that set into b and a row for every term.
func (bd *builder) compareInto(b *bset, c *fCmp, scope []string) {
	for i, op := range c.ops {
		for _, x := range c.lists[i] {
			for _, y := range c.lists[i+1] {
				diff := b.newRow()
				bd.addLinear(b, diff, x, 1, scope)
				bd.addLinear(b, diff, y, -1, scope)
				addComparison(b, diff, op.text)
			}
		}
	}
}

// addLinear adds k times the value of the linear expression e (see
// linearExpr) to row.
func (bd *builder) addLinear(b *bset, row []int64, e eNode, k int64, scope []string) {
	switch n := e.(type) {
	case *eNum:
		row[0] = add64(row[0], mul64(k, n.v))
	case *eVar:
		c := bd.resolve(b, n, scope)
		row[c] = add64(row[c], k)
	case *eNeg:
		bd.addLinear(b, row, n.x, neg64(k), scope)
	case *eBin:
		switch {
		case n.op == "+":
			bd.addLinear(b, row, n.l, k, scope)
			bd.addLinear(b, row, n.r, k, scope)
		case n.op == "-":
			bd.addLinear(b, row, n.l, k, scope)
			bd.addLinear(b, row, n.r, neg64(k), scope)
		case constExpr(n.l):
			bd.addLinear(b, row, n.r, mul64(k, constValue(n.l)), scope)
		default:
			bd.addLinear(b, row, n.l, mul64(k, constValue(n.r)), scope)
		}
	}
}

// constValue returns the value of a constant expression (see constExpr).
func constValue(e eNode) int64 {
	switch n := e.(type) {
	case *eNum:
		return n.v
	case *eNeg:
		return neg64(constValue(n.x))
	}
	n := e.(*eBin)
	l, r := constValue(n.l), constValue(n.r)
	switch n.op {
	case "+":
		return add64(l, r)
	case "-":
		return sub64(l, r)
	}
	return mul64(l, r)
}

// compare adds x op y to every part.
func compare(parts []*bset, x, y qaff, op string) []*bset {
	var out []*bset
	for _, p := range parts {
		// diff = x - y scaled by the positive x.den*y.den
		diff := p.newRow()
		addScaled(diff, y.den, x.row)
		addScaled(diff, neg64(x.den), y.row)
		if q := addComparison(p, diff, op); q != nil {
			out = append(out, q)
		}
		out = append(out, p)
	}
	return out
}

// addComparison adds x op y to p, given diff = x - y (a row of p, which
// it takes over). For != it adds x > y and returns a copy of p with
// x < y instead.
func addComparison(p *bset, diff []int64, op string) (other *bset) {
	switch op {
	case "<=", "<":
		for j, v := range diff {
			diff[j] = neg64(v)
		}
	case "!=":
		other = p.clone()
		r := negRow(diff)
		r[0] = sub64(r[0], 1)
		other.addIneq(r)
	}
	switch op {
	case "<", ">", "!=":
		diff[0] = sub64(diff[0], 1)
	}
	if op == "=" || op == "==" {
		p.addEq(diff)
	} else {
		p.addIneq(diff)
	}
	return other
}

func (bd *builder) resolve(b *bset, n *eVar, scope []string) int {
	for i := len(scope) - 1; i >= 0; i-- {
		if scope[i] == n.name {
			return b.firstDim() + i
		}
	}
	return 1 + slices.Index(bd.params, n.name)
}

func (bd *builder) expr(b *bset, e eNode, scope []string) ([]qcase, error) {
	one := func(row []int64, den int64) []qcase { return []qcase{{val: qaff{row, den}}} }
	switch n := e.(type) {
	case *eNum:
		return one(b.unit(0, n.v), 1), nil
	case *eVar:
		return one(b.unit(bd.resolve(b, n, scope), 1), 1), nil
	case *eNeg:
		x, err := bd.expr(b, n.x, scope)
		if err != nil {
			return nil, err
		}
		for i := range x {
			x[i].val.row = negRow(x[i].val.row)
		}
		return x, nil
	case *eFloor:
		x, err := bd.expr(b, n.x, scope)
		if err != nil {
			return nil, err
		}
		for i, c := range x {
			x[i].val = qaff{floorOf(b, c.val, n.ceil), 1}
		}
		return x, nil
	case *eMinMax:
		return bd.minMax(b, n, scope)
	case *eBin:
		l, err := bd.expr(b, n.l, scope)
		if err != nil {
			return nil, err
		}
		r, err := bd.expr(b, n.r, scope)
		if err != nil {
			return nil, err
		}
		var out []qcase
		for _, x := range l {
			for _, y := range r {
				v, err := binOp(b, n, x.val, y.val)
				if err != nil {
					return nil, err
				}
				out = append(out, qcase{append(slices.Clone(x.cond), y.cond...), v})
			}
		}
		return out, nil
	}
	panic("polyhedra: unknown expression node")
}

// floorOf returns floor(v) (or ceil(v)) as an integer row of b.
func floorOf(b *bset, v qaff, ceil bool) []int64 {
	if ceil {
		return negRow(b.floorExpr(negRow(b.fit(v.row)), v.den))
	}
	return b.floorExpr(b.fit(v.row), v.den)
}

func binOp(b *bset, n *eBin, x, y qaff) (qaff, error) {
	x.row, y.row = b.fit(x.row), b.fit(y.row)
	switch n.op {
	case "+", "-":
		k := int64(1)
		if n.op == "-" {
			k = -1
		}
		row := b.newRow()
		addScaled(row, y.den, x.row)
		addScaled(row, mul64(k, x.den), y.row)
		return reduce(qaff{row, mul64(x.den, y.den)}), nil
	case "*":
		switch {
		case x.isConst():
			x, y = y, x
		case !y.isConst():
			return qaff{}, semErr(n.p, "non-affine expression: both factors of the product depend on variables")
		}
		row := b.newRow()
		addScaled(row, y.row[0], x.row)
		return reduce(qaff{row, mul64(x.den, y.den)}), nil
	case "/":
		if !y.isConst() {
			return qaff{}, semErr(n.p, "non-affine expression: the divisor depends on variables")
		}
		if y.row[0] == 0 {
			return qaff{}, semErr(n.p, "division by zero")
		}
		// (x.row/x.den) / (y0/y.den) = x.row*y.den / (x.den*y0)
		row := b.newRow()
		num, den := y.den, y.row[0]
		if den < 0 {
			num, den = neg64(num), neg64(den)
		}
		addScaled(row, num, x.row)
		return reduce(qaff{row, mul64(x.den, den)}), nil
	case "%":
		if !y.isConst() || y.den != 1 || y.row[0] <= 0 {
			return qaff{}, semErr(n.p, "the modulus must be a positive integer constant")
		}
		m := y.row[0]
		// x - m*floor(x/m)
		fl := b.floorExpr(x.row, mul64(x.den, m))
		row := b.newRow()
		addScaled(row, 1, x.row)
		addScaled(row, neg64(mul64(m, x.den)), fl)
		return reduce(qaff{row, x.den}), nil
	}
	panic("polyhedra: unknown operator " + n.op)
}

func reduce(q qaff) qaff {
	g := gcd64(gcd64(rowGCD(q.row), q.row[0]), q.den)
	if g > 1 {
		for j := range q.row {
			q.row[j] /= g
		}
		q.den /= g
	}
	return q
}

// minMax evaluates min(a, b, ...) as cases: argument i wins where it is <=
// every later argument and < every earlier one (>= and > for max).
func (bd *builder) minMax(b *bset, n *eMinMax, scope []string) ([]qcase, error) {
	args := make([][]qcase, len(n.args))
	for i, a := range n.args {
		v, err := bd.expr(b, a, scope)
		if err != nil {
			return nil, err
		}
		args[i] = v
	}
	var out []qcase
	var rec func(k int, cond [][]int64, picked []qaff)
	rec = func(k int, cond [][]int64, picked []qaff) {
		if k < len(args) {
			for _, c := range args[k] {
				rec(k+1, append(slices.Clone(cond), c.cond...), append(slices.Clone(picked), c.val))
			}
			return
		}
		for i, w := range picked {
			cs := slices.Clone(cond)
			for j, o := range picked {
				if j == i {
					continue
				}
				// w <= o (min) or w >= o (max): sign*(o - w) >= 0, strict for j < i
				r := b.newRow()
				addScaled(r, w.den, b.fit(o.row))
				addScaled(r, neg64(o.den), b.fit(w.row))
				if n.max {
					r = negRow(r)
				}
				if j < i {
					r[0] = sub64(r[0], 1)
				}
				cs = append(cs, r)
			}
			out = append(out, qcase{cs, w})
		}
	}
	rec(0, nil, nil)
	return out, nil
}
