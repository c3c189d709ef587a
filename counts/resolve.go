package counts

import (
	"math"
	"strconv"
)

// funcArity lists the special functions and their number of arguments.
var funcArity = map[string]int{
	"exp": 1, "log": 1, "sqrt": 1, "rsqrt": 1, "sin": 1, "cos": 1, "fabs": 1,
	"pow": 2, "fmin": 2, "fmax": 2,
}

// weakness records whether an expression's type is still open: literals
// take the type of what they are combined with (see the package
// documentation for the typing rules).
type weakness uint8

const (
	strong weakness = iota
	weakInt
	weakFloat
)

// scope tracks iname use while one instruction is resolved.
type scope struct {
	bound   []string       // reduction inames bound around the current node
	used    map[string]Pos // inames used outside reductions that bind them
	reduced map[string]Pos // every reduction iname of the instruction
}

// resolveBailout aborts the resolution of a statement with an error.
type resolveBailout struct{ err error }

func (r *resolver) fail(pos Pos, format string, args ...any) {
	panic(resolveBailout{r.errf(pos, format, args...)})
}

func (r *resolver) statements() (err error) {
	defer func() {
		if v := recover(); v != nil {
			bo, ok := v.(resolveBailout)
			if !ok {
				panic(v)
			}
			err = bo.err
		}
	}()
	taken := map[string]Pos{}
	for _, s := range r.b.statements {
		if id := s.ann.id; id.text != "" {
			if p, dup := taken[id.text]; dup {
				r.fail(id.pos, "id %s is used twice (first at %s)", id.text, p)
			}
			taken[id.text] = id.pos
		}
	}
	for i, s := range r.b.statements {
		id := s.ann.id.text
		if id == "" {
			prefix := "insn"
			if s.lhs == nil {
				prefix = "barrier"
			}
			id = prefix + "_" + strconv.Itoa(i)
			for _, dup := taken[id]; dup; _, dup = taken[id] {
				id += "_"
			}
			taken[id] = s.pos
		}
		var deps []string
		for _, d := range s.ann.deps {
			deps = append(deps, d.text)
		}
		if s.lhs == nil {
			r.k.Statements = append(r.k.Statements, r.barrier(s, id, deps))
		} else {
			r.k.Statements = append(r.k.Statements, r.instruction(s, id, deps))
		}
	}
	return nil
}

// expandInames maps names from an annotation or reduction to inames,
// replacing split-away inames by their parts.
func (r *resolver) expandInames(toks []token, context string) []string {
	var out []string
	for _, t := range toks {
		var names []string
		switch {
		case r.k.inameIndex[t.text] != nil:
			names = []string{t.text}
		case r.splitInto[t.text] != [2]string{}:
			for _, term := range r.expand[t.text].Terms {
				names = append(names, term.Name)
			}
		default:
			panic(resolveBailout{r.unknownIname(t.pos, t.text, context)})
		}
		for _, n := range names {
			for _, o := range out {
				if o == n {
					r.fail(t.pos, "%s: iname %s is named twice", context, n)
				}
			}
			out = append(out, n)
		}
	}
	return r.k.inameOrder(out)
}

func (r *resolver) barrier(s rawStatement, id string, deps []string) *Barrier {
	inames := r.expandInames(s.ann.inames, "barrier inames")
	for _, n := range inames {
		if tag := r.k.inameIndex[n].Tag; tag.Parallel() {
			r.fail(s.pos, "barrier inside parallel iname %s (%s): every work-item must reach a barrier, so it may only be inside sequential loops", n, tag)
		}
	}
	return &Barrier{ID: id, Pos: s.pos, Inames: inames, Deps: deps}
}

func (r *resolver) instruction(s rawStatement, id string, deps []string) *Instruction {
	sc := &scope{used: map[string]Pos{}, reduced: map[string]Pos{}}
	var lhs *Access
	if !s.decl {
		lhs = r.access(s.lhs, sc, "assignment")
	} else if sub, ok := s.lhs.(*rSub); ok {
		r.fail(sub.t.pos, "a declared temporary (<> %s) must be a scalar", sub.t.text)
	}
	rhs, w := r.typeExpr(s.rhs, sc)
	if s.decl {
		name := s.lhs.(*rName).t
		if r.k.arrayIndex[name.text] != nil || r.k.inameIndex[name.text] != nil || r.isParam[name.text] {
			r.fail(name.pos, "%s is already declared; '<>' declares a new temporary", name.text)
		}
		dt := rhs.Type()
		switch {
		case s.declType != nil:
			dt = *s.declType
		case w == weakInt:
			dt = I32
		case w == weakFloat:
			dt = F64
		}
		a := &Array{Name: name.text, DType: dt, Space: Private, Pos: name.pos}
		r.k.Arrays = append(r.k.Arrays, a)
		r.k.arrayIndex[a.Name] = a
		lhs = &Access{Array: a, At: name.pos}
	}
	rhs = r.coerce(rhs, w, lhs.Type())
	for n, p := range sc.reduced {
		if _, ok := sc.used[n]; ok {
			r.fail(p, "iname %s is reduced over but also used outside the reduction", n)
		}
	}
	within := r.expandInames(s.ann.inames, "inames annotation")
	for n := range sc.used {
		if !containsString(within, n) {
			within = append(within, n)
		}
	}
	byTag := map[Tag]string{}
	for _, n := range r.k.inameOrder(within) {
		tag := r.k.inameIndex[n].Tag
		if !tag.Parallel() {
			continue
		}
		if other, clash := byTag[tag]; clash {
			r.fail(s.pos, "instruction uses inames %s and %s, which are both tagged %s", other, n, tag)
		}
		byTag[tag] = n
	}
	within = r.addDomainParallel(s.pos, within, byTag)
	return &Instruction{ID: id, Pos: s.pos, LHS: lhs, RHS: rhs, Within: r.k.inameOrder(within), Deps: deps}
}

// addDomainParallel adds to an instruction's inames the parallel inames
// of its domain on hardware axes it does not use itself: the instruction
// then runs only on the work-items and groups whose indices lie in its
// domain, so that guards where splits do not divide follow from the
// domain. Two such inames on one axis would be ambiguous and are an
// error.
func (r *resolver) addDomainParallel(pos Pos, within []string, byTag map[Tag]string) []string {
	added := map[Tag]string{}
	var order []Tag
	for _, di := range r.k.relevantDomains(within) {
		for _, n := range r.k.Domains[di].Inames {
			tag := r.k.inameIndex[n].Tag
			if !tag.Parallel() {
				continue
			}
			if _, used := byTag[tag]; used {
				continue
			}
			if other, dup := added[tag]; dup {
				r.fail(pos, "instruction uses no iname tagged %s, and its domain has two (%s and %s); name the one it runs in with inames=", tag, other, n)
			}
			added[tag] = n
			order = append(order, tag)
		}
	}
	for _, tag := range order {
		within = append(within, added[tag])
	}
	return within
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// access resolves an array or temporary reference.
func (r *resolver) access(e rexpr, sc *scope, context string) *Access {
	var name token
	var idx []rexpr
	switch e := e.(type) {
	case *rName:
		name = e.t
	case *rSub:
		name, idx = e.t, e.idx
	}
	a := r.k.arrayIndex[name.text]
	if a == nil {
		switch {
		case r.k.inameIndex[name.text] != nil || r.splitInto[name.text] != [2]string{}:
			r.fail(name.pos, "%s: %s is an iname, not an array", context, name.text)
		case r.isParam[name.text]:
			r.fail(name.pos, "%s: %s is a parameter, not an array", context, name.text)
		}
		r.fail(name.pos, "undeclared array %s", name.text)
	}
	if len(idx) != len(a.Shape) {
		r.fail(name.pos, "%s has %d dimension(s) but is used with %d subscript(s)", a.Name, len(a.Shape), len(idx))
	}
	acc := &Access{Array: a, At: name.pos}
	for _, x := range idx {
		acc.Index = append(acc.Index, r.affine(x, sc))
	}
	return acc
}

// affine converts a subscript or iname-valued expression to an Affine.
func (r *resolver) affine(e rexpr, sc *scope) Affine {
	arith := func(pos Pos) func(Affine, error) Affine {
		return func(a Affine, err error) Affine {
			if err != nil {
				r.fail(pos, "subscript coefficients overflow 64-bit integers")
			}
			return a
		}
	}
	switch e := e.(type) {
	case *rNum:
		if e.t.kind != tInt {
			r.fail(e.t.pos, "subscripts are integers, not %s", e.t.text)
		}
		v, ok := parseInt(e.t.text, false)
		if !ok {
			r.fail(e.t.pos, "integer %s does not fit in 64 bits", e.t.text)
		}
		return Affine{Const: v}
	case *rName:
		n := e.t.text
		switch {
		case r.k.inameIndex[n] != nil:
			r.noteUse(sc, n, e.t.pos)
			return Affine{Terms: []Term{{n, 1}}}
		case r.splitInto[n] != [2]string{}:
			a := r.expand[n]
			for _, t := range a.Terms {
				r.noteUse(sc, t.Name, e.t.pos)
			}
			return a
		case r.isParam[n]:
			return Affine{Terms: []Term{{n, 1}}}
		case r.k.arrayIndex[n] != nil:
			r.fail(e.t.pos, "data-dependent subscript: %s is an array; subscripts must be affine in inames and parameters", n)
		}
		r.fail(e.t.pos, "undeclared name %s (not an iname, parameter or array)", n)
	case *rNeg:
		a := r.affine(e.x, sc)
		return arith(e.at)(Affine{}.addScaled(a, -1))
	case *rBin:
		x, y := r.affine(e.x, sc), r.affine(e.y, sc)
		switch e.op {
		case "+":
			return arith(e.at)(x.addScaled(y, 1))
		case "-":
			return arith(e.at)(x.addScaled(y, -1))
		case "*":
			switch {
			case x.IsConst():
				return arith(e.at)(Affine{}.addScaled(y, x.Const))
			case y.IsConst():
				return arith(e.at)(Affine{}.addScaled(x, y.Const))
			}
			r.fail(e.at, "non-affine subscript: (%s)*(%s) multiplies two non-constants", x, y)
		}
		r.fail(e.at, "non-affine subscript: operator %s is not allowed in subscripts", e.op)
	case *rSub:
		r.fail(e.t.pos, "data-dependent subscript: %s is an array; subscripts must be affine in inames and parameters", e.t.text)
	}
	r.fail(e.rpos(), "non-affine subscript: subscripts must be affine in inames and parameters")
	return Affine{}
}

func (r *resolver) noteUse(sc *scope, name string, pos Pos) {
	for _, b := range sc.bound {
		if b == name {
			return
		}
	}
	if _, seen := sc.used[name]; !seen {
		sc.used[name] = pos
	}
}

// typeExpr resolves names in e and infers types bottom-up. A weak result
// still has a provisional type (I32 or F64) that coerce or settle fixes.
func (r *resolver) typeExpr(e rexpr, sc *scope) (Expr, weakness) {
	switch e := e.(type) {
	case *rNum:
		return r.literal(e.t)
	case *rName:
		n := e.t.text
		if r.k.arrayIndex[n] != nil {
			return r.access(e, sc, "reference"), strong
		}
		return &Index{Value: r.affine(e, sc), At: e.t.pos}, strong
	case *rSub:
		return r.access(e, sc, "reference"), strong
	case *rNeg:
		x, w := r.typeExpr(e.x, sc)
		if lit, ok := x.(*Literal); ok {
			lit.Int, lit.Float, lit.At = -lit.Int, -lit.Float, e.at
			return lit, w
		}
		return &Neg{X: x, At: e.at}, w
	case *rBin:
		return r.binary(e, sc)
	case *rCall:
		return r.call(e, sc)
	case *rReduce:
		return r.reduce(e, sc)
	}
	r.fail(e.rpos(), "unsupported expression")
	return nil, strong
}

func (r *resolver) literal(t token) (Expr, weakness) {
	if t.kind == tInt {
		v, ok := parseInt(t.text, false)
		if !ok {
			r.fail(t.pos, "integer %s does not fit in 64 bits", t.text)
		}
		return &Literal{Int: v, T: I32, At: t.pos}, weakInt
	}
	text := t.text
	single := text[len(text)-1] == 'f' || text[len(text)-1] == 'F'
	if single {
		text = text[:len(text)-1]
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		r.fail(t.pos, "floating-point literal %s is out of range", t.text)
	}
	if single {
		f := float32(v)
		if math.IsInf(float64(f), 0) {
			r.fail(t.pos, "literal %s is out of range for f32", t.text)
		}
		return &Literal{Float: float64(f), T: F32, At: t.pos}, strong
	}
	return &Literal{Float: v, T: F64, At: t.pos}, weakFloat
}

// combine applies the promotion rules to two operand types.
func combine(x DType, wx weakness, y DType, wy weakness) (DType, weakness) {
	switch {
	case wx != strong && wy != strong:
		if wx == weakFloat || wy == weakFloat {
			return F64, weakFloat
		}
		return I32, weakInt
	case wx != strong:
		x, y, wx = y, x, wy
		fallthrough
	case wy != strong:
		if wy == weakFloat && !x.IsFloat() {
			return F64, strong
		}
		return x, strong
	}
	if x.IsFloat() != y.IsFloat() {
		if x.IsFloat() {
			return x, strong
		}
		return y, strong
	}
	if y.Size() > x.Size() {
		return y, strong
	}
	return x, strong
}

var binOps = map[string]BinOp{"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "//": OpFloorDiv, "%": OpMod, "**": OpPow}

func (r *resolver) binary(e *rBin, sc *scope) (Expr, weakness) {
	x, wx := r.typeExpr(e.x, sc)
	y, wy := r.typeExpr(e.y, sc)
	op := binOps[e.op]
	if op == OpFloorDiv || op == OpMod {
		for _, o := range []struct {
			e Expr
			w weakness
		}{{x, wx}, {y, wy}} {
			if o.w == weakFloat || (o.w == strong && o.e.Type().IsFloat()) {
				r.fail(e.at, "operator %s needs integer operands, but %s is %s", e.op, o.e, o.e.Type())
			}
		}
	}
	t, w := combine(x.Type(), wx, y.Type(), wy)
	isInt := !t.IsFloat()
	switch {
	case op == OpDiv && isInt:
		r.fail(e.at, "'/' on integers: write // for floor division, or make an operand floating-point")
	case op == OpPow && isInt:
		r.fail(e.at, "'**' needs a floating-point operand; integer powers are not supported")
	}
	if w != strong {
		return &Binary{Op: op, X: x, Y: y, T: t, At: e.at}, w
	}
	return &Binary{Op: op, X: r.coerce(x, wx, t), Y: r.coerce(y, wy, t), T: t, At: e.at}, strong
}

func (r *resolver) call(e *rCall, sc *scope) (Expr, weakness) {
	name := e.t.text
	arity, ok := funcArity[name]
	if !ok {
		if reduceNames[name] != 0 {
			r.fail(e.t.pos, "%s is a reduction: write %s(iname, expr)", name, name)
		}
		r.fail(e.t.pos, "unknown function %s (known: exp, log, sqrt, rsqrt, sin, cos, fabs, pow, fmin, fmax)", name)
	}
	if len(e.args) != arity {
		r.fail(e.t.pos, "%s takes %d argument(s), not %d", name, arity, len(e.args))
	}
	args := make([]Expr, arity)
	ws := make([]weakness, arity)
	for i, a := range e.args {
		args[i], ws[i] = r.typeExpr(a, sc)
	}
	t, w := args[0].Type(), ws[0]
	if arity == 2 {
		t, w = combine(args[0].Type(), ws[0], args[1].Type(), ws[1])
	}
	if w == weakInt {
		t, w = F64, weakFloat
		for i := range args {
			if ws[i] == weakInt {
				args[i] = r.settle(args[i], F64)
				ws[i] = weakFloat
			}
		}
	}
	if !t.IsFloat() {
		r.fail(e.t.pos, "%s needs floating-point arguments, not %s", name, t)
	}
	if w == strong {
		for i := range args {
			args[i] = r.coerce(args[i], ws[i], t)
		}
	}
	return &Call{Func: name, Args: args, T: t, At: e.t.pos}, w
}

func (r *resolver) reduce(e *rReduce, sc *scope) (Expr, weakness) {
	inames := r.expandInames(e.inames, e.t.text+" reduction")
	for _, n := range inames {
		if tag := r.k.inameIndex[n].Tag; tag.Parallel() {
			r.fail(e.t.pos, "reduction over parallel iname %s (%s) is not supported", n, tag)
		}
		for _, b := range sc.bound {
			if b == n {
				r.fail(e.t.pos, "nested reductions over the same iname %s", n)
			}
		}
		if _, again := sc.reduced[n]; again {
			r.fail(e.t.pos, "iname %s is reduced over twice in one instruction", n)
		}
		sc.reduced[n] = e.t.pos
	}
	sc.bound = append(sc.bound, inames...)
	body, w := r.typeExpr(e.body, sc)
	sc.bound = sc.bound[:len(sc.bound)-len(inames)]
	return &Reduce{Op: reduceNames[e.t.text], Inames: inames, Body: body, T: body.Type(), At: e.t.pos}, w
}

// coerce fixes a weak expression's type to the context type t and
// converts a strong one with a Cast where its type differs.
func (r *resolver) coerce(e Expr, w weakness, t DType) Expr {
	switch w {
	case weakInt:
		return r.settle(e, t)
	case weakFloat:
		if t.IsFloat() {
			return r.settle(e, t)
		}
		e = r.settle(e, F64)
	}
	if e.Type() != t {
		return &Cast{X: e, T: t}
	}
	return e
}

// settle gives a weak expression (made only of literals) the type t.
func (r *resolver) settle(e Expr, t DType) Expr {
	switch e := e.(type) {
	case *Literal:
		switch {
		case e.T.IsFloat() && t.IsFloat():
		case !e.T.IsFloat() && t.IsFloat():
			e.Float = float64(e.Int)
		case !e.T.IsFloat() && !t.IsFloat():
			if t == I32 && (e.Int < math.MinInt32 || e.Int > math.MaxInt32) {
				r.fail(e.At, "literal %d is out of range for i32", e.Int)
			}
		default:
			return &Cast{X: e, T: t}
		}
		if t == F32 {
			f := float32(e.Float)
			if math.IsInf(float64(f), 0) && !math.IsInf(e.Float, 0) {
				r.fail(e.At, "literal %g is out of range for f32", e.Float)
			}
			e.Float = float64(f)
		}
		e.T = t
	case *Binary:
		e.T, e.X, e.Y = t, r.settle(e.X, t), r.settle(e.Y, t)
	case *Neg:
		e.X = r.settle(e.X, t)
	case *Call:
		e.T = t
		for i := range e.Args {
			e.Args[i] = r.settle(e.Args[i], t)
		}
	case *Reduce:
		e.T, e.Body = t, r.settle(e.Body, t)
	default:
		if e.Type() != t {
			return &Cast{X: e, T: t}
		}
	}
	return e
}
