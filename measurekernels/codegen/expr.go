package codegen

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// expr renders an expression; reductions are computed into temporaries by
// statements emitted before it at depth. within lists the inames with
// values at this point.
func (e *emitter) expr(x counts.Expr, within []string, depth int) (string, error) {
	switch x := x.(type) {
	case *counts.Literal:
		return e.literal(x), nil
	case *counts.Index:
		v, err := e.affine(x.Value)
		return parenthesized(v), err
	case *counts.Access:
		return e.load(x, within, depth)
	case *counts.Neg:
		v, err := e.expr(x.X, within, depth)
		return "(-" + v + ")", err
	case *counts.BitNot:
		v, err := e.expr(x.X, within, depth)
		return "(~" + v + ")", err
	case *counts.Compare:
		return e.compare(x, within, depth)
	case *counts.Not:
		v, err := e.expr(x.X, within, depth)
		return "(!" + v + ")", err
	case *counts.Logic:
		return e.logic(x, within, depth)
	case *counts.Conditional:
		return e.conditional(x, within, depth)
	case *counts.Cast:
		v, err := e.expr(x.X, within, depth)
		if x.X.Type() == counts.F16 && x.T == counts.F32 {
			return v, err // a half's load is a float already
		}
		e.use(x.T)
		return fmt.Sprintf("((%s)%s)", e.d.ctype(x.T), v), err
	case *counts.Binary:
		return e.binary(x, within, depth)
	case *counts.Call:
		return e.call(x, within, depth)
	case *counts.Reduce:
		return e.reduce(x, within, depth)
	}
	return "", fmt.Errorf("cannot generate code for %T", x)
}

func (e *emitter) literal(l *counts.Literal) string {
	e.use(l.T)
	switch l.T {
	case counts.F32, counts.F64:
		s := strconv.FormatFloat(l.Float, 'g', -1, 64)
		if l.T == counts.F32 {
			s = strconv.FormatFloat(l.Float, 'g', -1, 32)
		}
		switch {
		case math.IsInf(l.Float, 0) || math.IsNaN(l.Float):
			s = "(" + e.d.infinity(l.T) + ")"
			if math.IsInf(l.Float, -1) {
				s = "(-" + s + ")"
			} else if math.IsNaN(l.Float) {
				s = "(" + s + " - " + s + ")"
			}
			return s
		case !strings.ContainsAny(s, ".e"):
			s += ".0"
		}
		if l.T == counts.F32 {
			s += "f"
		}
		return "(" + s + ")"
	case counts.U32:
		return "(" + strconv.FormatInt(l.Int, 10) + "u)"
	case counts.I64:
		if l.Int == math.MinInt64 { // its magnitude is no literal
			return "(-9223372036854775807" + e.d.i64Suffix + " - 1)"
		}
		return "(" + strconv.FormatInt(l.Int, 10) + e.d.i64Suffix + ")"
	default:
		if l.Int == math.MinInt32 {
			return "(-2147483647 - 1)"
		}
		return "(" + strconv.FormatInt(l.Int, 10) + ")"
	}
}

// affine renders an affine expression of inames and parameters, which
// the generated code computes in 32-bit integers; its floor divisions
// use floordiv_i32, which rounds towards negative infinity.
func (e *emitter) affine(a counts.Affine) (string, error) {
	fits := func(v int64) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }
	ok := fits(a.Const)
	for _, t := range a.Terms {
		ok = ok && fits(t.Coeff)
	}
	if !ok {
		return "", fmt.Errorf("%s has a coefficient beyond the generated code's 32-bit integers", a)
	}
	var b strings.Builder
	if rest := (counts.Affine{Terms: a.Terms, Const: a.Const}); len(a.Floors) == 0 || !rest.IsConst() || rest.Const != 0 {
		b.WriteString(e.factored(rest))
	}
	for _, f := range a.Floors {
		num, err := e.affine(f.Num)
		if err != nil {
			return "", err
		}
		if !fits(f.Coeff) || !fits(f.Den) {
			return "", fmt.Errorf("%s has a coefficient beyond the generated code's 32-bit integers", a)
		}
		e.helpers["floordiv_i32"] = true
		switch c := f.Coeff; {
		case c < 0 && b.Len() > 0:
			b.WriteString(" - ")
		case c < 0:
			b.WriteString("-")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if f.Coeff != 1 && f.Coeff != -1 {
			fmt.Fprintf(&b, "%d*", max(f.Coeff, -f.Coeff))
		}
		fmt.Fprintf(&b, "floordiv_i32(%s, %d)", num, f.Den)
	}
	return b.String(), nil
}

// factored renders an expression without floors with the terms that
// share a pitch of parameters gathered, as a person writes a flattened
// subscript: (8*i_out + i_in + 1)*n + j rather than
// n + 8*i_out*n + i_in*n + j.
func (e *emitter) factored(a counts.Affine) string {
	params := map[string]bool{}
	for _, p := range e.k.Params {
		params[p] = true
	}
	pitch := make([]string, len(a.Terms)) // the parameters of each term
	inner := make([]string, len(a.Terms)) // the rest ("" for none)
	count := map[string]int{}
	for i, t := range a.Terms {
		var ps, rest []string
		for _, f := range t.Factors() {
			if params[f] {
				ps = append(ps, f)
			} else {
				rest = append(rest, f)
			}
		}
		if len(ps) > 0 && len(rest) <= 1 {
			pitch[i], inner[i] = strings.Join(ps, "*"), strings.Join(rest, "*")
			count[pitch[i]]++
		}
	}
	var out counts.Affine
	var groups []string
	done := map[string]bool{}
	for i, t := range a.Terms {
		p := pitch[i]
		if p == "" || count[p] < 2 {
			out.Terms = append(out.Terms, t)
			continue
		}
		if done[p] {
			continue
		}
		done[p] = true
		var g counts.Affine
		for j, u := range a.Terms {
			switch {
			case pitch[j] != p:
			case inner[j] == "":
				g.Const += u.Coeff
			default:
				g.Terms = append(g.Terms, counts.Term{Name: inner[j], Coeff: u.Coeff})
			}
		}
		groups = append(groups, "("+g.String()+")*"+p)
	}
	s := strings.Join(groups, " + ")
	if len(out.Terms) > 0 || out.Const != 0 || a.Const != 0 || s == "" {
		out.Const = a.Const
		if rest := out.String(); s == "" {
			s = rest
		} else if rest != "0" {
			s += plus(rest)
		}
	}
	return s
}

// load renders a read of an array element or a temporary: in CUDA C, an
// element of a readonly array is read with __ldg, through the read-only
// data cache, gathers included (OpenCL C has no such call: its const
// restrict pointer is the hint). A half is read as a float (half.go).
func (e *emitter) load(a *counts.Access, within []string, depth int) (string, error) {
	s, err := e.subscripted(a, within, depth)
	ldg := a.Array.ReadOnly && e.d.ldg && (a.IsIndirect() || len(a.Index) > 0)
	switch {
	case err != nil:
		return "", err
	case a.Array.DType == counts.F16:
		return e.halfLoad(a, s, ldg), nil
	case ldg:
		return "__ldg(&" + s + ")", nil
	}
	return s, nil
}

// access renders an array element or a temporary. Global arrays are
// pointers, indexed by the flattened row-major (or column-major) offset;
// local and private arrays are C arrays.
func (e *emitter) access(a *counts.Access) (string, error) {
	arr := a.Array
	e.use(arr.DType)
	if len(a.Index) != len(arr.Shape) {
		return "", fmt.Errorf("%s has %d subscripts, its shape %d", arr.Name, len(a.Index), len(arr.Shape))
	}
	if len(a.Index) == 0 {
		return arr.Name, nil
	}
	if arr.Space != counts.Global {
		var b strings.Builder
		b.WriteString(arr.Name)
		for _, ix := range a.Index {
			s, err := e.affine(ix)
			if err != nil {
				return "", err
			}
			b.WriteString("[" + s + "]")
		}
		return b.String(), nil
	}
	dims := make([]int, len(a.Index))
	for i := range dims {
		dims[i] = i
		if arr.ColMajor {
			dims[i] = len(dims) - 1 - i
		}
	}
	if flat, ok := flatOffset(a.Index, arr.Shape, dims); ok {
		off, err := e.affine(flat)
		return arr.Name + "[" + off + "]", err
	}
	off := ""
	for j, d := range dims {
		ix, err := e.affine(a.Index[d])
		if err != nil {
			return "", err
		}
		if j == 0 {
			off = ix
			continue
		}
		ext, err := e.affine(arr.Shape[d])
		if err != nil {
			return "", err
		}
		off = parenthesized(off) + "*" + parenthesized(ext) + plus(ix)
	}
	return arr.Name + "[" + off + "]", nil
}

// flatOffset is the row-major offset of subscripts index (dimensions in
// the order dims, the last fastest) as one affine expression, where the
// extents are constants and the subscripts have no floor divisions: the
// 3*i + 2 a person writes rather than (i)*(3) + (2).
func flatOffset(index, shape []counts.Affine, dims []int) (counts.Affine, bool) {
	var flat counts.Affine
	for j, d := range dims {
		ix := index[d]
		if len(ix.Floors) > 0 || j > 0 && (!shape[d].IsConst() || !fits32(shape[d].Const)) ||
			!fits32(ix.Const) || slices.ContainsFunc(ix.Terms, func(t counts.Term) bool { return !fits32(t.Coeff) }) {
			return counts.Affine{}, false
		}
		if j > 0 {
			k := shape[d].Const
			if k < 1 {
				return counts.Affine{}, false
			}
			flat.Const *= k
			for i := range flat.Terms {
				flat.Terms[i].Coeff *= k
			}
		}
		flat.Const += ix.Const
		for _, t := range ix.Terms {
			if i := slices.IndexFunc(flat.Terms, func(u counts.Term) bool { return u.Name == t.Name }); i >= 0 {
				flat.Terms[i].Coeff += t.Coeff
			} else {
				flat.Terms = append(flat.Terms, t)
			}
		}
		// Every partial sum within 32 bits keeps the products above exact.
		if !fits32(flat.Const) || slices.ContainsFunc(flat.Terms, func(t counts.Term) bool { return !fits32(t.Coeff) }) {
			return counts.Affine{}, false
		}
	}
	flat.Terms = slices.DeleteFunc(flat.Terms, func(t counts.Term) bool { return t.Coeff == 0 })
	return flat, true
}

func fits32(v int64) bool { return v >= math.MinInt32 && v <= math.MaxInt32 }

// parenthesized wraps an expression in parentheses unless it is a name
// or a non-negative number.
func parenthesized(s string) string {
	if isAtom(s) {
		return s
	}
	return "(" + s + ")"
}

func isAtom(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !identStart(s[i]) && !(s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}

// plus renders " + s", or " - t" for s = "-t".
func plus(s string) string {
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		return " - " + rest
	}
	return " + " + s
}

// operands renders the two operands of a binary operator or comparison.
func (e *emitter) operands(x, y counts.Expr, within []string, depth int) (string, string, error) {
	l, err := e.expr(x, within, depth)
	if err != nil {
		return "", "", err
	}
	r, err := e.expr(y, within, depth)
	return l, r, err
}

// binary renders a binary operator. A chain of them down the left
// operands, as a long sum a + b + c + ... parses, is rendered in one pass
// into one builder: every operator's prefixes, the innermost left
// operand, then each right operand with its operator's closing text.
// Rendering each operator as "(" + left + op + right + ")" copied the
// growing left operand once per operator, quadratic in the expression's
// length (a 100,000-term sum took 50 s).
func (e *emitter) binary(x *counts.Binary, within []string, depth int) (string, error) {
	spine := []*counts.Binary{x}
	for {
		l, ok := spine[len(spine)-1].X.(*counts.Binary)
		if !ok {
			break
		}
		spine = append(spine, l)
	}
	leaf, err := e.expr(spine[len(spine)-1].X, within, depth)
	if err != nil {
		return "", err
	}
	pre := make([]string, len(spine))
	post := make([]string, len(spine))
	for i := len(spine) - 1; i >= 0; i-- {
		r, err := e.right(spine[i], within, depth)
		if err != nil {
			return "", err
		}
		p, infix, suffix, err := e.binaryForm(spine[i])
		if err != nil {
			return "", err
		}
		pre[i], post[i] = p, infix+r+suffix
	}
	var b strings.Builder
	for _, p := range pre {
		b.WriteString(p)
	}
	b.WriteString(leaf)
	for i := len(post) - 1; i >= 0; i-- {
		b.WriteString(post[i])
	}
	return b.String(), nil
}

// right is the text of x's right operand. Rounding towards negative
// infinity, // 2^k is an arithmetic shift by k and % 2^k an AND with
// 2^k - 1, as the counts price them, so there the operand is k or the mask.
func (e *emitter) right(x *counts.Binary, within []string, depth int) (string, error) {
	if k, ok := counts.PowerOfTwoDivisor(x); ok {
		if x.Op == counts.OpFloorDiv {
			return strconv.Itoa(k), nil
		}
		return e.literal(&counts.Literal{Int: x.Y.(*counts.Literal).Int - 1, T: x.T}), nil
	}
	return e.expr(x.Y, within, depth)
}

// binaryForm returns the text of x around its operands: prefix LEFT infix
// RIGHT suffix.
func (e *emitter) binaryForm(x *counts.Binary) (prefix, infix, suffix string, err error) {
	e.use(x.T)
	switch x.Op {
	case counts.OpAdd, counts.OpSub, counts.OpMul, counts.OpDiv,
		counts.OpBitAnd, counts.OpBitOr, counts.OpBitXor, counts.OpShr:
		return "(", " " + x.Op.String() + " ", ")", nil
	case counts.OpShl:
		if x.T == counts.U32 {
			return "(", " << ", ")", nil
		}
		// C leaves the left shift of a negative value undefined; the
		// interpreter shifts two's-complement bits, as unsigned types do.
		t := e.d.ctype(x.T)
		return "((" + t + ")((unsigned " + t + ")", " << ", "))", nil
	case counts.OpPow:
		return e.d.function("pow", x.T) + "(", ", ", ")", nil
	case counts.OpMod:
		if x.T.IsFloat() {
			return e.d.function("fmod", x.T) + "(", ", ", ")", nil
		}
		fallthrough
	case counts.OpFloorDiv:
		if _, ok := counts.PowerOfTwoDivisor(x); ok {
			if x.Op == counts.OpFloorDiv {
				return "(", " >> ", ")", nil
			}
			return "(", " & ", ")", nil
		}
		if x.T == counts.U32 {
			// C's unsigned / and % round as // and % do.
			return "(", " " + map[counts.BinOp]string{counts.OpFloorDiv: "/", counts.OpMod: "%"}[x.Op] + " ", ")", nil
		}
		name := map[counts.BinOp]string{counts.OpFloorDiv: "floordiv", counts.OpMod: "floormod"}[x.Op] + "_" + x.T.String()
		e.helpers[name] = true
		return name + "(", ", ", ")", nil
	}
	return "", "", "", fmt.Errorf("operator %s", x.Op)
}

func (e *emitter) call(x *counts.Call, within []string, depth int) (string, error) {
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		var err error
		if args[i], err = e.expr(a, within, depth); err != nil {
			return "", err
		}
	}
	e.use(x.T)
	switch x.Func {
	case "exp", "log", "sqrt", "rsqrt", "sin", "cos", "fabs", "pow", "fmin", "fmax", "fmod":
		return e.d.function(x.Func, x.T) + "(" + strings.Join(args, ", ") + ")", nil
	case "max", "min":
		if x.T.IsFloat() {
			return e.d.function("f"+x.Func, x.T) + "(" + strings.Join(args, ", ") + ")", nil
		}
		return x.Func + "(" + strings.Join(args, ", ") + ")", nil
	}
	return "", fmt.Errorf("function %s", x.Func)
}

// reduce emits the reduction as nested loops over its inames that
// accumulate into a fresh temporary, and returns the temporary. The loops
// visit exactly the domain projected onto within and the reduction's
// inames, so the body needs no guard of its own.
func (e *emitter) reduce(x *counts.Reduce, within []string, depth int) (string, error) {
	e.use(x.T)
	t := e.d.ctype(x.T)
	acc := e.fresh("red")
	e.line(depth, "%s %s = %s;", t, acc, e.neutral(x.Op, x.T))
	fixed := slices.Clone(within)
	body := depth
	var closers []func()
	for _, r := range x.Inames {
		lb, err := e.dom.loop(r, fixed, nil)
		if err != nil {
			return "", fmt.Errorf("reduction over %s: %w", r, err)
		}
		var closeLoop func()
		body, closeLoop = e.openLoop(r, lb, body)
		closers = append(closers, closeLoop)
		fixed = append(fixed, r)
	}
	v, err := e.expr(x.Body, fixed, body)
	if err != nil {
		return "", err
	}
	switch x.Op {
	case counts.RedSum:
		e.line(body, "%s = %s + %s;", acc, acc, v)
	case counts.RedProduct:
		e.line(body, "%s = %s * %s;", acc, acc, v)
	case counts.RedMax, counts.RedMin:
		f := map[counts.ReduceOp]string{counts.RedMax: "max", counts.RedMin: "min"}[x.Op]
		if x.T.IsFloat() {
			f = e.d.function("f"+f, x.T)
		}
		e.line(body, "%s = %s(%s, %s);", acc, f, acc, v)
	default:
		return "", fmt.Errorf("reduction %s", x.Op)
	}
	for i := len(closers) - 1; i >= 0; i-- {
		closers[i]()
	}
	return acc, nil
}

// neutral is the reduction's starting value.
func (e *emitter) neutral(op counts.ReduceOp, t counts.DType) string {
	switch op {
	case counts.RedSum:
		return e.literal(&counts.Literal{T: t})
	case counts.RedProduct:
		return e.literal(&counts.Literal{T: t, Int: 1, Float: 1})
	}
	if t.IsFloat() {
		inf := e.d.infinity(t)
		if op == counts.RedMax {
			return "(-" + inf + ")"
		}
		return inf
	}
	lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
	switch t {
	case counts.I64:
		lo, hi = math.MinInt64, math.MaxInt64
	case counts.U32:
		lo, hi = 0, math.MaxUint32
	}
	if op == counts.RedMax {
		return e.literal(&counts.Literal{T: t, Int: lo})
	}
	return e.literal(&counts.Literal{T: t, Int: hi})
}

// Conditions and conditional values. A condition is a C
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

// logic emits X and Y, X or Y: Y only where X does not decide. A chain of
// one operator, ((X op Y) op Z) ..., is emitted operand by operand into one
// builder, so that its length is linear in the chain's (rendering each
// level around the one inside it copied the chain at every operator).
func (e *emitter) logic(x *counts.Logic, within []string, depth int) (string, error) {
	first, rest := counts.Expr(x), []counts.Expr{}
	for {
		l, ok := first.(*counts.Logic)
		if !ok || l.Or != x.Or {
			break
		}
		first, rest = l.X, append(rest, l.Y)
	}
	slices.Reverse(rest)
	v, err := e.expr(first, within, depth)
	if err != nil {
		return "", err
	}
	op, test := " && ", "%s"
	if x.Or {
		op, test = " || ", "!%s"
	}
	// The chain so far is opens parentheses, then b.
	var b strings.Builder
	b.WriteString(v)
	opens := 0
	for _, y := range rest {
		r, stmts, err := e.branch(y, within, depth+1)
		if err != nil {
			return "", err
		}
		if stmts == "" {
			opens++
			b.WriteString(op)
			b.WriteString(r)
			b.WriteString(")")
			continue
		}
		t := e.temporary("cnd", counts.Bool, strings.Repeat("(", opens)+b.String(), depth)
		e.line(depth, "if ("+test+") {", t)
		e.b.WriteString(stmts)
		e.line(depth+1, "%s = %s;", t, r)
		e.line(depth, "}")
		b.Reset()
		b.WriteString(t)
		opens = 0
	}
	return strings.Repeat("(", opens) + b.String(), nil
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
	name := e.fresh("cnd")
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

// subscripted renders an array element or a temporary: its subscripts
// as written where they read data or name temporaries that hold affine
// values, from their affine form elsewhere.
func (e *emitter) subscripted(a *counts.Access, within []string, depth int) (string, error) {
	switch {
	case a.IsIndirect():
		return e.indirect(a, a.Indirect, within, depth)
	case a.Written != nil:
		return e.indirect(a, a.Written, within, depth)
	}
	return e.access(a)
}

// indirect renders an access by its subscripts xs, integer values
// computed where the access is (x[col[j]], val[ind]), flattened like
// affine ones for a global array.
func (e *emitter) indirect(a *counts.Access, xs []counts.Expr, within []string, depth int) (string, error) {
	arr := a.Array
	subs := make([]string, len(xs))
	for d, x := range xs {
		s, err := e.expr(x, within, depth)
		if err != nil {
			return "", err
		}
		subs[d] = unwrapped(s)
	}
	if arr.Space != counts.Global {
		return arr.Name + "[" + strings.Join(subs, "][") + "]", nil
	}
	off := ""
	for j := range subs {
		d := j
		if arr.ColMajor {
			d = len(subs) - 1 - j
		}
		if j == 0 {
			off = subs[d]
			continue
		}
		ext, err := e.affine(arr.Shape[d])
		if err != nil {
			return "", err
		}
		off = parenthesized(off) + "*" + parenthesized(ext) + " + " + parenthesized(subs[d])
	}
	return arr.Name + "[" + off + "]", nil
}
