package counts

import (
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

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
	ids := make([]string, len(r.b.statements))
	number := 0
	for i, s := range r.b.statements {
		ids[i] = s.ann.id.text
		if !s.synthetic {
			number++
		}
		if ids[i] == "" {
			prefix := "insn"
			if s.lhs == nil {
				prefix = "barrier"
			}
			ids[i] = prefix + "_" + strconv.Itoa(number-1)
			for _, dup := taken[ids[i]]; dup; _, dup = taken[ids[i]] {
				ids[i] += "_"
			}
			taken[ids[i]] = s.pos
		}
	}
	for i, s := range r.b.statements {
		deps := r.deps(s, i, ids)
		if s.lhs == nil {
			r.k.Statements = append(r.k.Statements, r.barrier(s, ids[i], deps))
		} else {
			r.k.Statements = append(r.k.Statements, r.instruction(s, ids[i], deps))
		}
	}
	return nil
}

// deps lists the ids a statement depends on. An id is kept as written
// (checkDeps checks it); a pattern with * stands for the ids of the
// earlier statements it matches (statements run in textual order, so only
// those can be dependencies), of which there must be one.
func (r *resolver) deps(s rawStatement, self int, ids []string) []string {
	var out []string
	for _, d := range s.ann.deps {
		if !strings.Contains(d.text, "*") {
			out = append(out, d.text)
			continue
		}
		matched := false
		for _, id := range ids[:self] {
			if ok, _ := path.Match(d.text, id); ok {
				matched = true
				out = append(out, id)
			}
		}
		if !matched {
			r.fail(d.pos, "dep=%s: no earlier statement's id matches", d.text)
		}
	}
	return out
}

// statementInames joins the inames of a statement's for blocks and of its
// inames= annotation, each once.
func statementInames(s rawStatement) []token {
	var out []token
	for _, t := range append(slices.Clone(s.inames), s.ann.inames...) {
		if !slices.ContainsFunc(out, func(u token) bool { return u.text == t.text }) {
			out = append(out, t)
		}
	}
	return out
}

func tagNames(toks []token) []string {
	var out []string
	for _, t := range toks {
		out = append(out, t.text)
	}
	return out
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
	inames := r.expandInames(statementInames(s), "barrier inames")
	for _, n := range inames {
		if tag := r.k.inameIndex[n].Tag; tag.Parallel() {
			r.fail(s.pos, "barrier inside parallel iname %s (%s): every work-item must reach a barrier, so it may only be inside sequential loops; end the for block over %s before the barrier and open it again after it (or drop %s from its inames=): the barrier then runs once on every work-item", n, tag, n, n)
		}
	}
	return &Barrier{ID: id, Pos: s.pos, Inames: inames, Deps: deps, Tags: tagNames(s.ann.tags)}
}

func (r *resolver) instruction(s rawStatement, id string, deps []string) *Instruction {
	sc := &scope{used: map[string]Pos{}, reduced: map[string]Pos{}}
	r.cur = &s
	var lhs *Access
	if !s.decl {
		lhs = r.access(s.lhs, sc, "assignment")
		if a := lhs.Array; a.Space == Argument {
			r.fail(lhs.At, "scalar %s is a kernel argument and cannot be assigned: copy it into a temporary (<> t = %s) and assign that", a.Name, a.Name)
		} else if a.ReadOnly {
			r.fail(lhs.At, "array %s is declared readonly and cannot be stored to: drop readonly from its declaration at %s, or store into another array", a.Name, a.Pos)
		}
		if s.atomic {
			r.checkAtomic(lhs)
		}
	}
	var pred Expr
	for _, p := range s.preds {
		c := r.cond(p, sc)
		if pred == nil {
			pred = c
		} else {
			pred = &Logic{X: pred, Y: c, At: c.Pos()}
		}
	}
	rhs, w := r.value(s.rhs, sc)
	if s.decl {
		lhs = r.declare(s, rhs.Type(), w, sc)
		r.noteAffineTemp(s, lhs)
	}
	rhs = r.fold(r.coerce(rhs, w, storedType(lhs.Type(), rhs, w)))
	if pred != nil {
		pred = r.fold(pred)
	}
	for n, p := range sc.reduced {
		if _, ok := sc.used[n]; ok {
			r.fail(p, "iname %s is reduced over but also used outside the reduction, where it has no value: reduce over an iname of its own (domain { [%s2] : ... }, then sum(%s2, ...)), or move the use into the reduction", n, n, n)
		}
	}
	within := r.expandInames(statementInames(s), "inames annotation")
	for n, p := range sc.reduced {
		if slices.Contains(within, n) {
			r.fail(p, "iname %s is reduced over but is also an iname of the instruction (inames= or a for block): reduce over another iname, or leave %s out", n, n)
		}
	}
	for n := range sc.used {
		if !slices.Contains(within, n) {
			within = append(within, n)
		}
	}
	for _, t := range s.condNames {
		if r.k.inameIndex[t.text] == nil && r.splitInto[t.text] == [2]string{} {
			continue
		}
		for _, n := range r.expandInames([]token{t}, "condition") {
			if !slices.Contains(within, n) {
				within = append(within, n)
			}
		}
	}
	byTag := map[Tag]string{}
	for _, n := range r.k.inameOrder(within) {
		tag := r.k.inameIndex[n].Tag
		if !tag.Parallel() {
			continue
		}
		if other, clash := byTag[tag]; clash {
			r.fail(s.pos, "instruction uses inames %s and %s, which are both tagged %s: a work-item has one index along an axis, so use one of them here, or tag the other with another axis", other, n, tag)
		}
		byTag[tag] = n
	}
	within = r.addDomainParallel(s.pos, within, byTag)
	if c, ok := rhs.(*Conditional); ok && s.synthetic {
		if r.held == nil {
			r.held = map[*Array]Expr{}
		}
		r.held[lhs.Array] = c.Cond
	}
	if pred != nil {
		Walk(pred, func(e Expr) bool {
			if a, ok := e.(*Access); ok {
				a.held = r.held[a.Array]
			}
			return true
		})
	}
	return &Instruction{ID: id, Pos: s.pos, LHS: lhs, RHS: rhs, Pred: pred, Within: r.k.inameOrder(within), Deps: deps,
		Tags: tagNames(s.ann.tags), Atomic: s.atomic}
}

// maxDeclaredElements bounds the size of a temporary array declared by
// "<> NAME[I, ...]", which lives in each work-item's registers.
const maxDeclaredElements = 1 << 16

// synthetic reports whether name is a temporary the reader declares
// (ifonce.go).
func (r *resolver) synthetic(name string) bool {
	return slices.ContainsFunc(r.b.statements, func(s rawStatement) bool {
		l, ok := s.lhs.(*rName)
		return s.synthetic && ok && l.t.text == name
	})
}

// declare creates the private temporary that "<TYPE> NAME = ..." or
// "<> NAME[I, J] = ..." declares, as loopy does: a scalar, or an array
// whose subscripts are inames with constant bounds, each extent running
// from 0 to the iname's greatest value. t and w are the type and
// weakness of the right-hand side, which "<>" adopts.
func (r *resolver) declare(s rawStatement, t DType, w weakness, sc *scope) *Access {
	var name token
	var idx []rexpr
	switch l := s.lhs.(type) {
	case *rName:
		name = l.t
	case *rSub:
		name, idx = l.t, l.idx
	}
	if a := r.k.arrayIndex[name.text]; a != nil && (s.synthetic || r.synthetic(name.text)) {
		block, yours := a.Pos, name.pos
		if s.synthetic {
			block, yours = name.pos, a.Pos
		}
		r.fail(yours, "%s names the temporary that holds the condition of the if block at %s, which is tested once where the block starts (docs/kernel-language.md, if blocks): give yours another name", name.text, block)
	}
	switch a := r.k.arrayIndex[name.text]; {
	case a != nil && a.Space == Private:
		r.fail(name.pos, "%s is already declared; '<>' declares a new temporary: assign the one declared with %s = ..., or give the new one another name", name.text, name.text)
	case a != nil || r.k.inameIndex[name.text] != nil || r.isParam[name.text]:
		kind := "a size parameter"
		switch {
		case a != nil:
			kind = "an array"
		case r.k.inameIndex[name.text] != nil:
			kind = "an iname"
		}
		r.fail(name.pos, "%s is already declared, as %s; '<>' declares a new temporary: give it another name", name.text, kind)
	}
	if reservedName(name.text) {
		r.fail(name.pos, "%q is reserved and cannot name a temporary", name.text)
	}
	switch {
	case s.declType != nil:
		t = *s.declType
	case w == weakInt:
		t = I32
	case w == weakFloat:
		t = F64
	case t == F16:
		t = F32 // a half is loaded as a float
	}
	a := &Array{Name: name.text, DType: t, Space: Private, Pos: name.pos}
	size := int64(1)
	for _, x := range idx {
		n, ok := x.(*rName)
		if !ok || r.k.inameIndex[n.t.text] == nil {
			if ok && r.splitInto[n.t.text] != [2]string{} {
				panic(resolveBailout{r.unknownIname(n.t.pos, n.t.text, "declared temporary "+name.text)})
			}
			r.fail(x.rpos(), "the subscripts of a declared temporary array are inames, from whose bounds its shape follows; declare other arrays with 'private %s %s [EXTENT, ...]'", name.text, t)
		}
		lo, hi, ok := r.k.ConstantRange(n.t.text)
		if ext, _, param := r.k.parametricExtent(n.t.text); !ok && param {
			// loopy's global temporary: its extent depends on the
			// parameters, so it cannot live in registers.
			a.Space = Global
			a.Shape = append(a.Shape, ext)
			continue
		}
		switch {
		case ok && hi < lo:
			r.fail(n.t.pos, "iname %s takes no values, so %s would be empty", n.t.text, name.text)
		case !ok:
			r.fail(n.t.pos, "the bounds of iname %s are neither constants nor a constant lower bound and one upper bound in the parameters alone (0 <= %s < n), so the shape of %s does not follow from them; declare it with 'private %s %s [EXTENT, ...]' or 'array %s %s [EXTENT, ...]'", n.t.text, n.t.text, name.text, name.text, t, name.text, t)
		case lo < 0:
			r.fail(n.t.pos, "iname %s takes negative values (from %d), which cannot subscript %s; declare it with 'private' and shift the subscript", n.t.text, lo, name.text)
		case hi >= maxDeclaredElements || size*(hi+1) > maxDeclaredElements:
			r.fail(n.t.pos, "temporary %s would have more than %d elements, too many for a work-item's registers: declare it 'local' (one copy per work-group) or 'array' (global memory) with its extent", name.text, maxDeclaredElements)
		}
		size *= hi + 1
		a.Shape = append(a.Shape, Affine{Const: hi + 1})
	}
	r.k.Arrays = append(r.k.Arrays, a)
	r.k.arrayIndex[a.Name] = a
	return r.access(s.lhs, sc, "assignment")
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

// access resolves an array or temporary reference.
func (r *resolver) access(e rexpr, sc *scope, context string) *Access {
	var name, tag token
	var idx []rexpr
	switch e := e.(type) {
	case *rName:
		name, tag = e.t, e.tag
	case *rSub:
		name, tag, idx = e.t, e.tag, e.idx
	}
	a := r.k.arrayIndex[name.text]
	if a == nil {
		switch {
		case r.k.inameIndex[name.text] != nil || r.splitInto[name.text] != [2]string{}:
			r.fail(name.pos, "%s: %s is an iname, not an array", context, name.text)
		case r.isParam[name.text]:
			r.fail(name.pos, "%s: %s is a parameter, not an array", context, name.text)
		}
		r.fail(name.pos, "undeclared array %s: declare it (array %s f32 [n], or local or private), or make it a private temporary where it is first assigned (<> %s = ..., <f32> %s = ...)", name.text, name.text, name.text, name.text)
	}
	if len(idx) != len(a.Shape) {
		r.fail(name.pos, "%s has %d dimension(s) but is used with %d subscript(s)", a.Name, len(a.Shape), len(idx))
	}
	acc := &Access{Array: a, Tag: tag.text, At: name.pos}
	if slices.ContainsFunc(idx, r.readsData) {
		return r.indirect(acc, idx, sc)
	}
	for _, x := range idx {
		acc.Index = append(acc.Index, r.affine(x, sc))
	}
	if slices.ContainsFunc(idx, r.namesAffineTemp) {
		outer := r.inCond
		r.inCond = false
		acc.Written = r.integers(a, idx, sc)
		r.inCond = outer
	}
	return acc
}

// viaTemporary ends the refusal of a non-affine subscript with what C
// code that needs one can write: the value computed into a temporary
// subscripts as data does, an indirect access, whose cells the counts
// bound rather than know.
const viaTemporary = "; where the original needs it, compute the subscript into an integer temporary first (<i32> t = ..., then a[t]): the access then counts as an indirect one, whose cells are data to the counts"

// inamesOf returns the inames among a term's factors.
func (r *resolver) inamesOf(t Term) []string {
	var out []string
	for _, f := range t.Factors() {
		if r.k.inameIndex[f] != nil {
			out = append(out, f)
		}
	}
	return out
}

// affine converts a subscript or iname-valued expression to an Affine,
// affine in the inames with coefficients that may be products of
// parameters (a flattened index i*n + j).
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
		if e.t.kind == tUint {
			r.fail(e.t.pos, "a subscript is affine arithmetic on inames and parameters, not u32 arithmetic: write %s without its u", e.t.text)
		}
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
		if e.tag.text != "" && r.k.arrayIndex[n] == nil {
			r.fail(e.tag.pos, "%s$%s: only arrays and temporaries carry tags", n, e.tag.text)
		}
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
		case r.affineAt(n) != nil:
			return r.affine(r.affineTemps[n].value, sc) // as if written in place
		case r.k.arrayIndex[n] != nil && r.k.arrayIndex[n].Space == Argument:
			r.fail(e.t.pos, "data-dependent subscript: %s is a scalar argument, whose value the counts do not know; an integer that subscripts must be a size parameter (leave out 'scalar %s' and use %s as a parameter)", n, n, n)
		case r.k.arrayIndex[n] != nil:
			// Not reached from what a user writes: access and tryAffine
			// send a subscript that reads an array (readsData) to the
			// indirect path before resolving it here.
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
			p, err := x.mul(y)
			if errors.Is(err, errFloorProduct) {
				r.fail(e.at, "non-affine subscript: %v%s", err, viaTemporary)
			}
			p = arith(e.at)(p, err)
			for _, t := range p.Terms {
				if n := r.inamesOf(t); len(n) > 1 {
					r.fail(e.at, "non-affine subscript: (%s)*(%s) multiplies inames %s and %s; a subscript may multiply an iname by parameters and constants only%s", x, y, n[0], n[1], viaTemporary)
				}
			}
			return p
		case "//", "%":
			if !y.IsConst() || y.Const <= 0 {
				r.fail(e.at, "non-affine subscript: %s by %s; subscripts may divide by positive constants only (a literal or a const)%s", e.op, y, viaTemporary)
			}
			f, err := floorOfAffine(x, y.Const)
			if err != nil {
				r.fail(e.at, "non-affine subscript: %v%s", err, viaTemporary)
			}
			if e.op == "//" {
				return f
			}
			return arith(e.at)(x.addScaled(f, -y.Const)) // x - d*floor(x/d)
		}
		r.fail(e.at, "non-affine subscript: operator %s is not allowed in subscripts (+, -, * by parameters and constants, // and %% by constants are)%s", e.op, viaTemporary)
	case *rSub:
		// Not reached, as above.
		r.fail(e.t.pos, "data-dependent subscript: %s is an array; subscripts must be affine in inames and parameters", e.t.text)
	}
	r.fail(e.rpos(), "non-affine subscript: subscripts must be affine in inames and parameters%s", viaTemporary)
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
		if t := r.affineAt(n); t != nil && r.inCond {
			acc := r.access(e, sc, "reference")
			v := r.affine(t.value, sc)
			acc.holds = &v
			return acc, strong
		}
		if r.k.arrayIndex[n] != nil {
			return r.access(e, sc, "reference"), strong
		}
		return &Index{Value: r.affine(e, sc), At: e.t.pos}, strong
	case *rSub:
		return r.access(e, sc, "reference"), strong
	case *rNeg:
		x, w := r.value(e.x, sc)
		if lit, ok := x.(*Literal); ok {
			lit.Int, lit.Float, lit.At = -lit.Int, -lit.Float, e.at
			if lit.T == U32 {
				lit.Int = wrapU32(lit.Int)
			}
			return lit, w
		}
		return &Neg{X: promoted(x), At: e.at}, w
	case *rUnary:
		if e.op == "not" {
			return &Not{X: r.cond(e.x, sc), At: e.at}, strong
		}
		x, w := r.value(e.x, sc)
		if x.Type().IsFloat() || w == weakFloat {
			r.fail(e.at, "operator ~ needs an integer operand, but %s is %s", x, x.Type())
		}
		return &BitNot{X: promoted(x), At: e.at}, w
	case *rBin:
		return r.binary(e, sc)
	case *rCall:
		return r.call(e, sc)
	case *rCast:
		return r.cast(e, sc), strong
	case *rReduce:
		if n := e.inames[0].text; binaryReduction(e.t.text) && len(e.inames) == 1 && r.k.inameIndex[n] == nil && r.splitInto[n] == [2]string{} &&
			(r.k.arrayIndex[n] != nil || r.isParam[n]) {
			// max(x, y) of a value x that is no iname: C's max.
			return r.call(&rCall{e.t, []rexpr{&rName{t: e.inames[0]}, e.body}}, sc)
		}
		return r.reduce(e, sc)
	}
	r.fail(e.rpos(), "unsupported expression")
	return nil, strong
}

// value resolves an expression that must be a number.
func (r *resolver) value(e rexpr, sc *scope) (Expr, weakness) {
	x, w := r.typeExpr(e, sc)
	if x.Type() == Bool {
		r.fail(e.rpos(), "a condition is not a number: write if(%s, 1, 0)", x)
	}
	return x, w
}

// cond resolves a condition. A number is a condition too, as in C: it
// holds where the number is not zero.
func (r *resolver) cond(e rexpr, sc *scope) Expr {
	outer := r.inCond
	r.inCond = true
	defer func() { r.inCond = outer }()
	x, w := r.typeExpr(e, sc)
	if x.Type() == Bool {
		return x
	}
	if x.Type() == F16 {
		x = promoted(x)
	}
	x = r.coerce(x, w, x.Type())
	return &Compare{Op: CmpNE, X: x, Y: &Literal{T: x.Type(), At: x.Pos()}, At: e.rpos()}
}

var cmpOpsByText = map[string]CmpOp{"<": CmpLT, "<=": CmpLE, ">": CmpGT, ">=": CmpGE, "==": CmpEQ, "!=": CmpNE}

// compare resolves a comparison: both operands take their common type.
func (r *resolver) compare(e *rBin, sc *scope) Expr {
	x, wx := r.value(e.x, sc)
	y, wy := r.value(e.y, sc)
	t, w := combine(x.Type(), wx, y.Type(), wy)
	if w != strong {
		wx, wy = strong, strong
		x, y = r.settle(x, t), r.settle(y, t)
	}
	return &Compare{Op: cmpOpsByText[e.op], X: r.coerce(x, wx, t), Y: r.coerce(y, wy, t), At: e.at}
}

// conditional resolves if(COND, THEN, ELSE) and select(ELSE, THEN, COND).
func (r *resolver) conditional(e *rCall, sc *scope) (Expr, weakness) {
	name := e.t.text
	if len(e.args) != 3 {
		form := map[string]string{"if": "if(COND, THEN, ELSE)", "select": "select(ELSE, THEN, COND), OpenCL's order"}[name]
		r.fail(e.t.pos, "%s takes 3 arguments, not %d: write %s", name, len(e.args), form)
	}
	c, th, el := e.args[0], e.args[1], e.args[2]
	eager := name == "select"
	if eager {
		c, el = el, c
	}
	cond := r.cond(c, sc)
	x, wx := r.value(th, sc)
	y, wy := r.value(el, sc)
	t, w := combine(x.Type(), wx, y.Type(), wy)
	if w != strong {
		return &Conditional{Cond: cond, Then: x, Else: y, Eager: eager, T: t, At: e.t.pos}, w
	}
	return &Conditional{Cond: cond, Then: r.coerce(x, wx, t), Else: r.coerce(y, wy, t), Eager: eager, T: t, At: e.t.pos}, strong
}

func (r *resolver) literal(t token) (Expr, weakness) {
	if t.kind == tUint {
		v, ok := parseInt(t.text[:len(t.text)-1], false)
		if !ok || v > math.MaxUint32 {
			r.fail(t.pos, "unsigned literal %s is out of range for u32 (0 to 4294967295u)", t.text)
		}
		return &Literal{Int: v, T: U32, At: t.pos}, strong
	}
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
			r.fail(t.pos, "literal %s is out of range for f32: where it meets an f64 value, write it without its f (an unsuffixed literal is a double), or write a value within f32's range (3.4028235e38)", t.text)
		}
		return &Literal{Float: float64(f), T: F32, At: t.pos}, strong
	}
	return &Literal{Float: v, T: F64, At: t.pos}, weakFloat
}

// combine applies the promotion rules to two operand types, C's integer
// promotion of 8- and 16-bit integers to i32 included.
func combine(x DType, wx weakness, y DType, wy weakness) (DType, weakness) {
	t, w := combineTypes(x, wx, y, wy)
	return promote(t), w
}

func combineTypes(x DType, wx weakness, y DType, wy weakness) (DType, weakness) {
	switch {
	case wx != strong && wy != strong:
		if wx == weakFloat || wy == weakFloat {
			return F64, weakFloat
		}
		return I32, weakInt
	case wx != strong:
		x, y, wy = y, x, wx
		fallthrough
	case wy != strong:
		if wy == weakFloat {
			// C's double promotion: 0.5 is a double, so 0.5*x of an f32
			// x is an f64 operation (0.5f*x is f32).
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
	if y.Size() > x.Size() || (y.Size() == x.Size() && y == U32) {
		// C's usual arithmetic conversions: of two integers of one
		// width, the unsigned one's type.
		return y, strong
	}
	return x, strong
}

var binOps = map[string]BinOp{"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "//": OpFloorDiv, "%": OpMod, "**": OpPow,
	"&": OpBitAnd, "|": OpBitOr, "^": OpBitXor, "<<": OpShl, ">>": OpShr}

// intOnly reports whether an operator takes integers only.
func intOnly(op BinOp) bool {
	return op == OpFloorDiv || op >= OpBitAnd
}

func (r *resolver) binary(e *rBin, sc *scope) (Expr, weakness) {
	switch e.op {
	case "and", "or":
		return &Logic{Or: e.op == "or", X: r.cond(e.x, sc), Y: r.cond(e.y, sc), At: e.at}, strong
	case "<", "<=", ">", ">=", "==", "!=":
		return r.compare(e, sc), strong
	}
	x, wx := r.value(e.x, sc)
	y, wy := r.value(e.y, sc)
	op := binOps[e.op]
	if intOnly(op) {
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
	if (op == OpShl || op == OpShr) && w == strong {
		// C's shift has its left operand's promoted type whatever its
		// count's: k >> s of an i32 k and a u32 s is an arithmetic shift,
		// a u32 shifted by an i64 stays u32, and a plain literal on the
		// left is an i32. The count is converted on its own.
		t = I32
		if wx == strong {
			t = promote(x.Type())
		}
	}
	isInt := !t.IsFloat()
	switch {
	case op == OpDiv && isInt:
		r.fail(e.at, "'/' on integers: write // for floor division, or make an operand floating-point (in a comparison, multiply out: k/2 == n is k == 2*n)")
	case op == OpPow && isInt:
		r.fail(e.at, "'**' needs a floating-point operand; integer powers are not supported: write the product (x*x), or convert an operand, ((float)x) ** 2")
	}
	if w != strong {
		return &Binary{Op: op, X: x, Y: y, T: t, At: e.at}, w
	}
	if lit, ok := y.(*Literal); ok && (op == OpShl || op == OpShr) && (lit.Int < 0 || lit.Int >= int64(8*t.Size())) {
		r.fail(e.at, "shift count %d is out of range for %s (0 to %d)", lit.Int, t, 8*t.Size()-1)
	}
	return &Binary{Op: op, X: r.coerce(x, wx, t), Y: r.coerce(y, wy, t), T: t, At: e.at}, strong
}

func (r *resolver) call(e *rCall, sc *scope) (Expr, weakness) {
	name := e.t.text
	if name == "if" || name == "select" {
		return r.conditional(e, sc)
	}
	if binaryReduction(name) {
		return r.minMax(e, sc)
	}
	arity, ok := funcArity[name]
	if !ok {
		if reduceNames[name] != 0 {
			r.fail(e.t.pos, "%s is a reduction: write %s(iname, expr)", name, name)
		}
		if knl, ok := CFunction(name); ok {
			r.fail(e.t.pos, "%s is a C, CUDA or OpenCL C spelling of .knl's %s: write %s, which computes in its argument's type (%s of an f32 value is f32)", name, knl, knl, knl)
		}
		r.fail(e.t.pos, "unknown function %s (known: exp, log, sqrt, rsqrt, sin, cos, fabs, pow, fmin, fmax, fmod, max, min, if, select; the reductions sum, product, max, min)", name)
	}
	if len(e.args) != arity {
		r.fail(e.t.pos, "%s takes %d argument(s), not %d", name, arity, len(e.args))
	}
	args := make([]Expr, arity)
	ws := make([]weakness, arity)
	for i, a := range e.args {
		args[i], ws[i] = r.value(a, sc)
	}
	t, w := args[0].Type(), ws[0]
	if t == F16 {
		t = F32 // a half is loaded as a float
	}
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
		hint := ""
		if name == "fmax" || name == "fmin" {
			hint = fmt.Sprintf(" (write %s(a, b) for the %s of integers)", name[1:], name[1:])
		}
		r.fail(e.t.pos, "%s needs floating-point arguments, not %s%s", name, t, hint)
	}
	if w == strong {
		for i := range args {
			args[i] = r.coerce(args[i], ws[i], t)
		}
	}
	return &Call{Func: name, Args: args, T: t, At: e.t.pos}, w
}

// cast resolves C's cast (T)x: a conversion where x's type is not T
// (nothing where it is), and a literal of type T where x is literals
// only, which a compiler converts at compile time.
func (r *resolver) cast(e *rCast, sc *scope) Expr {
	x, w := r.value(e.x, sc)
	if w != strong {
		return r.settle(x, e.to)
	}
	if x.Type() == e.to {
		return x
	}
	return &Cast{X: x, T: e.to}
}

// minMax resolves C's max(x, y) and min(x, y) of two values: integer
// max and min, or fmax and fmin of floating-point values.
func (r *resolver) minMax(e *rCall, sc *scope) (Expr, weakness) {
	name := e.t.text
	if len(e.args) != 2 {
		r.fail(e.t.pos, "%s takes 2 arguments, not %d: write %s(x, y), or %s(iname, expr) for a reduction", name, len(e.args), name, name)
	}
	x, wx := r.value(e.args[0], sc)
	y, wy := r.value(e.args[1], sc)
	t, w := combine(x.Type(), wx, y.Type(), wy)
	if w == strong {
		x, y = r.coerce(x, wx, t), r.coerce(y, wy, t)
	}
	return &Call{Func: name, Args: []Expr{x, y}, T: t, At: e.t.pos}, w
}

func (r *resolver) reduce(e *rReduce, sc *scope) (Expr, weakness) {
	inames := r.expandInames(e.inames, e.t.text+" reduction")
	for _, n := range inames {
		if tag := r.k.inameIndex[n].Tag; tag.Parallel() {
			r.fail(e.t.pos, "reduction over parallel iname %s (%s) is not supported: work-items reduce through local memory, as C does; store each one's value into a local array, then add halves after barriers (if %s < 32: s[%s] += s[%s + 32], as examples/reduction.knl), or sum over the array in one work-item", n, tag, n, n, n)
		}
		for _, b := range sc.bound {
			if b == n {
				r.fail(e.t.pos, "nested reductions over the same iname %s: reduce the inner one over an iname of its own (domain { [%s2] : ... }, then sum(%s2, ...))", n, n, n)
			}
		}
		if _, again := sc.reduced[n]; again {
			r.fail(e.t.pos, "iname %s is reduced over twice in one instruction: compute each reduction into a temporary of its own (<> s1 = sum(%s, ...)) and combine those", n, n)
		}
		sc.reduced[n] = e.t.pos
	}
	sc.bound = append(sc.bound, inames...)
	body, w := r.value(e.body, sc)
	sc.bound = sc.bound[:len(sc.bound)-len(inames)]
	body = promoted(body)
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
		case !e.T.IsFloat() && t == U32:
			e.Int = r.unsignedLiteral(e)
		case !e.T.IsFloat() && !t.IsFloat():
			if !inRange(t, e.Int) {
				r.fail(e.At, "literal %d is out of range for %s: declare what takes it with a type that holds it (i32, or i64 past i32's range: array x i64 [n], <i64> t = ...), or cast the other operand ((i64)x)", e.Int, t)
			}
		default:
			return &Cast{X: e, T: t}
		}
		if t == F32 {
			f := float32(e.Float)
			if math.IsInf(float64(f), 0) && !math.IsInf(e.Float, 0) {
				r.fail(e.At, "literal %g is out of range for f32, the type it is used as here: give what takes it type f64 (array x f64 [n], <f64> t = ...), or write a value within f32's range (3.4028235e38)", e.Float)
			}
			e.Float = float64(f)
		}
		e.T = t
	case *Binary:
		if (intOnly(e.Op) || e.Op == OpMod) && !e.T.IsFloat() && t.IsFloat() {
			// Integer arithmetic of literals stays integer arithmetic.
			return &Cast{X: r.settle(e, I32), T: t}
		}
		e.T, e.X, e.Y = t, r.settle(e.X, t), r.settle(e.Y, t)
	case *Neg:
		e.X = r.settle(e.X, t)
	case *BitNot:
		if t.IsFloat() {
			return &Cast{X: r.settle(e, I32), T: t}
		}
		e.X = r.settle(e.X, t)
	case *Conditional:
		e.T, e.Then, e.Else = t, r.settle(e.Then, t), r.settle(e.Else, t)
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

// readsData reports whether a subscript reads an array or a temporary,
// so that its value is known only when the kernel runs. Scalar arguments
// are left to the affine path, which says to make them size parameters.
func (r *resolver) readsData(e rexpr) bool {
	switch e := e.(type) {
	case *rSub:
		return true
	case *rName:
		a := r.k.arrayIndex[e.t.text]
		return a != nil && a.Space != Argument && r.affineAt(e.t.text) == nil
	case *rBin:
		return r.readsData(e.x) || r.readsData(e.y)
	case *rNeg:
		return r.readsData(e.x)
	case *rUnary:
		return r.readsData(e.x)
	case *rCast:
		return r.readsData(e.x)
	case *rCall:
		for _, a := range e.args {
			if r.readsData(a) {
				return true
			}
		}
	case *rReduce:
		return r.readsData(e.body)
	}
	return false
}

// indirect resolves the subscripts of an indirect access: each is an
// integer value, an affine one included, evaluated where the access is.
func (r *resolver) indirect(acc *Access, idx []rexpr, sc *scope) *Access {
	a := acc.Array
	if a.Space == Private {
		r.fail(acc.At, "%s is a private array, whose elements live in registers and take constant or affine subscripts; a subscript that reads data needs memory: declare %s with 'local' (one copy per work-group) or 'array'", a.Name, a.Name)
	}
	acc.Indirect = r.integers(a, idx, sc)
	return acc
}

// integers resolves the subscripts idx of array a as integer values,
// evaluated where the access is.
func (r *resolver) integers(a *Array, idx []rexpr, sc *scope) []Expr {
	var out []Expr
	for _, x := range idx {
		v, w := r.value(x, sc)
		if w == weakInt {
			v = r.coerce(v, w, I32)
		}
		if v.Type().IsFloat() {
			r.fail(x.rpos(), "subscript %s of %s is %s: subscripts are integers; convert it with (int)(...), which truncates as C does", v, a.Name, v.Type())
		}
		out = append(out, r.fold(v))
	}
	return out
}

// storedType is the type of the value an instruction stores into an
// array of type t: the value itself for every type but f16, into which
// an f64 value is rounded directly and any other as f32 (a literal is an
// f32 literal), as vstore_half and __float2half_rn take it.
func storedType(t DType, value Expr, w weakness) DType {
	if t != F16 {
		return t
	}
	if w == strong && value.Type() == F64 {
		return F64
	}
	return F32
}

// noteAffineTemp records the temporary that statement s declares, where
// it holds an affine value.
func (r *resolver) noteAffineTemp(s rawStatement, lhs *Access) {
	name, ok := s.lhs.(*rName)
	a := lhs.Array
	if !ok || s.synthetic || s.atomic || a.Space != Private || len(a.Shape) > 0 || (a.DType != I32 && a.DType != I64) {
		return
	}
	assigned := 0
	for _, o := range r.b.statements {
		if assigns(o, name.t.text) {
			assigned++
		}
	}
	if assigned != 1 {
		return
	}
	v, ok := r.tryAffine(s.rhs)
	if !ok {
		return
	}
	if r.affineTemps == nil {
		r.affineTemps = map[string]*affineTemp{}
	}
	r.affineTemps[a.Name] = &affineTemp{value: s.rhs, inames: r.inamesIn(v), loops: s.inames, preds: s.preds, t: a.DType}
}

// tryAffine resolves e as a subscript would be, or returns false where e
// reads data or is not affine.
func (r *resolver) tryAffine(e rexpr) (a Affine, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			if _, bailed := v.(resolveBailout); !bailed {
				panic(v)
			}
			ok = false
		}
	}()
	if r.readsData(e) {
		return Affine{}, false
	}
	return r.affine(e, &scope{used: map[string]Pos{}, reduced: map[string]Pos{}}), true
}

// inamesIn returns the inames an affine value names, its floor divisions'
// included.
func (r *resolver) inamesIn(a Affine) []string {
	var out []string
	for _, t := range a.Terms {
		out = append(out, r.inamesOf(t)...)
	}
	for _, f := range a.Floors {
		out = append(out, r.inamesIn(f.Num)...)
	}
	return out
}
