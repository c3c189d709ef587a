package cimport

import (
	"slices"
	"strconv"
	"strings"
)

// aggregates lowers vector types (float2, int4) and structs of scalar
// fields of one type to scalars, as the hand ports write them: an array
// of an aggregate of N fields is a scalar array of N times its length,
// field f of element i at N*i + f; a private aggregate (or a private or
// local array of them) is one scalar (or array) per field, v_f;
// make_float2(a, b) gives each field its value. What else an aggregate
// does (a swizzle, arithmetic on whole vectors, a pointer that escapes)
// is refused where it stands.
type aggregates struct {
	vars  map[string]ctype // the aggregates in scope: pointers and privates
	names map[string]bool  // the names the function uses, which v_f must not be
}

// lowerAggregates returns k with its aggregates lowered, and its loops
// stepped by k = j++ peeled (see trailing); its device functions
// likewise, where one does not lower its error is kept for a call to
// report. The parameters keep their fields, by which setArrays scales
// an extent given in elements.
func lowerAggregates(k *kernelFunc) (*kernelFunc, error) {
	lk, err := lowerFunc(k)
	if err != nil {
		return nil, err
	}
	lk.devices = map[string]*kernelFunc{}
	for name, fn := range k.devices {
		if fn.err != nil {
			lk.devices[name] = fn
			continue
		}
		lf, err := lowerFunc(fn)
		if err != nil {
			lf = &kernelFunc{name: fn.name, p: fn.p, err: err}
		}
		lk.devices[name] = lf
	}
	return lk, nil
}

// lowerFunc lowers one function: a kernel, or a device function,
// whose aggregate parameters are pointers, as no caller can pass a
// whole aggregate.
func lowerFunc(k *kernelFunc) (*kernelFunc, error) {
	g := &aggregates{vars: map[string]ctype{}, names: map[string]bool{}}
	stmtHas(k.body, func(e *expr) bool {
		if e.op == "id" {
			g.names[e.text] = true
		}
		return false
	})
	for _, d := range k.constants {
		if d.typ.fields != nil {
			typ := d.typ
			typ.ptr = 1
			g.vars[d.name] = typ
		}
	}
	for _, p := range k.params {
		if p.typ.fields == nil {
			continue
		}
		if p.typ.ptr != 1 {
			return nil, errorAt(p.p, "parameter %s: an aggregate (%d fields) passed by value; pass its fields as scalars of their own", p.name, len(p.typ.fields))
		}
		g.vars[p.name] = p.typ
	}
	body, err := g.stmt(k.body)
	if err != nil {
		return nil, err
	}
	lk := *k
	lk.body = body
	return &lk, nil
}

// stmt lowers one statement.
func (g *aggregates) stmt(s *stmt) (*stmt, error) {
	if s == nil {
		return nil, nil
	}
	if _, _, ok := trailing(s); ok && s.kind == "for" {
		ps, err := peelTrailing(s)
		if err != nil {
			return nil, err
		}
		return g.stmt(ps)
	}
	ls := *s
	var err error
	if s.kind == "expr" && s.e != nil && s.e.op == "assign" && g.whole(s.e.args[0]) {
		return g.assign(s)
	}
	if s.kind == "decl" {
		ls.decls = nil
		for _, d := range s.decls {
			ds, err := g.decl(d)
			if err != nil {
				return nil, err
			}
			ls.decls = append(ls.decls, ds...)
		}
		return &ls, nil
	}
	if ls.e, err = g.expr(s.e); err != nil {
		return nil, err
	}
	if ls.step, err = g.expr(s.step); err != nil {
		return nil, err
	}
	for _, sub := range []**stmt{&ls.init, &ls.then, &ls.els} {
		if *sub, err = g.stmt(*sub); err != nil {
			return nil, err
		}
	}
	ls.body = make([]*stmt, len(s.body))
	for i, b := range s.body {
		if ls.body[i], err = g.stmt(b); err != nil {
			return nil, err
		}
	}
	return &ls, nil
}

// decl lowers a declaration: a private aggregate becomes one variable a
// field, each initialized with its field of the initializer; a pointer
// to aggregates stays a pointer, into the scalar array.
func (g *aggregates) decl(d decl) ([]decl, error) {
	var err error
	if d.typ.fields == nil {
		delete(g.vars, d.name)
		d.init, err = g.expr(d.init)
		return []decl{d}, err
	}
	g.vars[d.name] = d.typ
	if d.typ.ptr > 0 {
		d.init, err = g.expr(d.init)
		return []decl{d}, err
	}
	ds := make([]decl, len(d.typ.fields))
	for f, name := range d.typ.fields {
		fd := d
		fd.name = d.name + "_" + name
		if g.names[fd.name] {
			return nil, errorAt(d.p, "%s: its field %s would be the variable %s, a name the kernel uses already; rename one", d.name, name, fd.name)
		}
		fd.typ.fields = nil
		if d.init != nil {
			if fd.init, err = g.field(d.init, f, d.typ); err != nil {
				return nil, err
			}
		}
		ds[f] = fd
	}
	return ds, nil
}

// assign lowers the assignment of a whole aggregate to one assignment a
// field.
func (g *aggregates) assign(s *stmt) (*stmt, error) {
	lhs, rhs := s.e.args[0], s.e.args[1]
	typ := g.typeOf(lhs)
	if s.e.text != "=" {
		return nil, errorAt(s.e.p, "%s on a whole %s: write it for each field (v.x %s ...)", s.e.text, typeName(typ), s.e.text)
	}
	b := &stmt{kind: "block", p: s.p}
	for f := range typ.fields {
		l, err := g.field(lhs, f, typ)
		if err != nil {
			return nil, err
		}
		r, err := g.field(rhs, f, typ)
		if err != nil {
			return nil, err
		}
		b.body = append(b.body, &stmt{kind: "expr", p: s.p, e: &expr{op: "assign", text: "=", args: []*expr{l, r}, p: s.e.p}})
	}
	return b, nil
}

// whole reports whether e is a whole aggregate that may be assigned: a
// private one, or an element of an array of them.
func (g *aggregates) whole(e *expr) bool {
	if e.op == "index" {
		e = e.args[0]
	}
	if e.op == "unary" && e.text == "*" {
		e = e.args[0]
	}
	_, ok := g.vars[e.text]
	return e.op == "id" && ok
}

// typeOf is the aggregate type of a whole (see whole).
func (g *aggregates) typeOf(e *expr) ctype {
	for e.op != "id" {
		e = e.args[0]
	}
	return g.vars[e.text]
}

// field is field f of the aggregate value e, of type want: of a
// private, an element, *p, or make_float2's argument.
func (g *aggregates) field(e *expr, f int, want ctype) (*expr, error) {
	if e.op == "call" && e.args[0].op == "id" && strings.HasPrefix(e.args[0].text, "make_") {
		if len(e.args)-1 != len(want.fields) {
			return nil, errorAt(e.p, "%s with %d arguments for %d fields", e.args[0].text, len(e.args)-1, len(want.fields))
		}
		return g.expr(e.args[1+f])
	}
	if !g.whole(e) {
		return nil, errorAt(e.p, "a %s value that is no variable, element or make_%s(...): assign it field by field", typeName(want), typeName(want))
	}
	if typ := g.typeOf(e); len(typ.fields) != len(want.fields) || typ.base != want.base {
		return nil, errorAt(e.p, "a %s assigned to a %s: assign it field by field", typeName(typ), typeName(want))
	}
	return g.member(e, f)
}

// member is field f of the whole aggregate e.
func (g *aggregates) member(e *expr, f int) (*expr, error) {
	typ := g.typeOf(e)
	num := func(n int) *expr { return &expr{op: "num", text: strconv.Itoa(n), p: e.p} }
	switch {
	case e.op == "id" && typ.ptr > 0:
		return &expr{op: "index", args: []*expr{e, num(f)}, p: e.p}, nil
	case e.op == "id":
		return &expr{op: "id", text: e.text + "_" + typ.fields[f], p: e.p}, nil
	case e.op == "unary":
		return &expr{op: "index", args: []*expr{e.args[0], num(f)}, p: e.p}, nil
	}
	i, err := g.expr(e.args[1])
	if err != nil {
		return nil, err
	}
	arr := e.args[0]
	if typ.ptr == 0 {
		return &expr{op: "index", args: []*expr{{op: "id", text: arr.text + "_" + typ.fields[f], p: arr.p}, i}, p: e.p}, nil
	}
	n := len(typ.fields)
	sub := &expr{op: "binary", text: "+", args: []*expr{{op: "binary", text: "*", args: []*expr{num(n), i}, p: e.p}, num(f)}, p: e.p}
	return &expr{op: "index", args: []*expr{arr, sub}, p: e.p}, nil
}

// expr lowers the fields of aggregates in e (v.x, p[i].lat, q->lng)
// and the pointer arithmetic on pointers to them (p + i is p + N*i).
func (g *aggregates) expr(e *expr) (*expr, error) {
	if e == nil {
		return nil, nil
	}
	switch {
	case e.op == "member" && g.whole(e.args[0]):
		typ := g.typeOf(e.args[0])
		f := slices.Index(typ.fields, e.text)
		if f < 0 {
			return nil, errorAt(e.p, "%s has no field %s (its fields: %s); a swizzle (v.xy) is not translated: take its fields one by one", typeName(typ), e.text, strings.Join(typ.fields, ", "))
		}
		return g.member(e.args[0], f)
	case e.op == "binary" && (e.text == "+" || e.text == "-") && g.pointer(e.args[0]) && !g.pointer(e.args[1]):
		i, err := g.expr(e.args[1])
		if err != nil {
			return nil, err
		}
		n := &expr{op: "num", text: strconv.Itoa(len(g.typeOf(e.args[0]).fields)), p: e.p}
		return &expr{op: "binary", text: e.text, args: []*expr{e.args[0], {op: "binary", text: "*", args: []*expr{n, i}, p: e.p}}, p: e.p}, nil
	case e.op == "id":
		if typ, ok := g.vars[e.text]; ok {
			return nil, errorAt(e.p, "%s, a %s, used whole: only its fields (%s.%s), element-wise assignment (v = p[i], v = make_%s(...)) and pointer offsets (p + i) are translated; write the arithmetic on each field", e.text, typeName(typ), e.text, typ.fields[0], typeName(typ))
		}
		return e, nil
	}
	le := *e
	le.args = make([]*expr, len(e.args))
	for i, a := range e.args {
		if e.op == "call" && i > 0 && g.pointer(a) {
			// An array of aggregates passed to a device function,
			// whose parameter is lowered alike.
			le.args[i] = a
			continue
		}
		var err error
		if le.args[i], err = g.expr(a); err != nil {
			return nil, err
		}
	}
	return &le, nil
}

// pointer reports whether e names a pointer to aggregates.
func (g *aggregates) pointer(e *expr) bool {
	typ, ok := g.vars[e.text]
	return e.op == "id" && ok && typ.ptr > 0
}

// typeName names an aggregate type for messages: float2, or a struct
// of its field count.
func typeName(t ctype) string {
	if slices.Equal(t.fields, vectorFields("float"+strconv.Itoa(len(t.fields)))) {
		return t.base + strconv.Itoa(len(t.fields))
	}
	return "struct of " + strconv.Itoa(len(t.fields)) + " " + t.base
}
