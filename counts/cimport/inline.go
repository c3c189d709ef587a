package cimport

import "slices"

// A call of a __device__ function is inlined: its parameters take the
// arguments' values (an affine integer stays affine, data that is no
// lone name is read into a temporary, as C evaluates an argument once,
// an array is the array), its body is translated where the call
// stands, and what it returns is a private temporary that each return
// stores (a body of one return is its expression itself). Recursion is
// refused, and so are returns other than at the end, in both branches
// of a final if/else, or as "if (C) return X;" before the rest.

// maxInline bounds the depth of inlined calls.
const maxInline = 16

// inline translates a call of the device function fn.
func (t *translator) inline(fn *kernelFunc, args []*expr, p pos) (*value, error) {
	switch {
	case fn.err != nil:
		return nil, errorAt(p, "a call to %s, whose definition is not understood: %v", fn.name, fn.err)
	case slices.ContainsFunc(t.fns, func(f *fnFrame) bool { return f.name == fn.name }):
		return nil, errorAt(p, "%s calls itself: recursion has no bounded depth to count; write it as a loop", fn.name)
	case len(t.fns) == maxInline:
		return nil, errorAt(p, "calls of device functions nested more than %d deep; inline the innermost by hand (or write them as macros)", maxInline)
	case len(args) != len(fn.params):
		return nil, errorAt(p, "%s takes %d arguments, called with %d", fn.name, len(fn.params), len(args))
	case !returnsOK(fn.body.body):
		return nil, errorAt(fn.p, "%s returns inside a loop or before statements that follow: only a return at the end, in both branches of a final if/else, or if (C) return X; before the rest is inlined", fn.name)
	}
	scope := map[string]*variable{}
	for i, prm := range fn.params {
		v, err := t.bindParam(fn, prm, args[i])
		if err != nil {
			return nil, err
		}
		scope[prm.name] = v
	}
	body := fn.body.body
	single := len(body) == 1 && body[0].kind == "return" && body[0].e != nil
	var ret *array
	if fn.ret.base != "void" && !single {
		dtype, err := elemType(fn.ret, fn.p, fn.name)
		if err != nil {
			return nil, err
		}
		ret = &array{name: t.unique(fn.name), cname: fn.name, dtype: dtype, space: "private", p: p}
		t.privs = append(t.privs, ret)
	}
	t.fns = append(t.fns, &fnFrame{name: fn.name, base: len(t.scopes), ret: ret})
	t.scopes = append(t.scopes, scope)
	defer func() {
		t.fns = t.fns[:len(t.fns)-1]
		t.scopes = t.scopes[:len(t.scopes)-1]
	}()
	if single {
		return t.eval(body[0].e)
	}
	if err := t.sequence(body); err != nil {
		return nil, err
	}
	if ret == nil {
		return nil, nil
	}
	return &value{kind: vData, text: ret.name, prec: precAtom, dtype: ret.dtype}, nil
}

// bindParam gives the parameter prm of fn the value of the argument a.
func (t *translator) bindParam(fn *kernelFunc, prm param, a *expr) (*variable, error) {
	if prm.ref {
		// A reference is the caller's variable itself: what the body
		// stores through it the caller reads after the call.
		if v := t.lookup(a.text); a.op == "id" && v != nil && (v.kind == "data" || v.kind == "undef") {
			return v, nil
		}
		return nil, errorAt(a.p, "argument %s of %s, a reference: pass a local variable of the caller (a float declared in the kernel), and copy an element into or out of it", prm.name, fn.name)
	}
	if prm.typ.ptr > 0 {
		v, ok, err := t.pointer(a)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errorAt(a.p, "argument %s of %s: pass an array (an argument of the kernel or a __shared__ array), or a pointer into one (s + off, &s[off])", prm.name, fn.name)
		}
		return v, nil
	}
	v, err := t.eval(a)
	if err != nil {
		return nil, err
	}
	if prm.typ.base == "bool" || v.kind == vCond {
		return &variable{kind: "cond", c: valueCond(v), scope: -2}, nil
	}
	dtype, err := elemType(prm.typ, prm.p, prm.name)
	if err != nil {
		return nil, err
	}
	if v.kind == vInt && isIntType(dtype) {
		return &variable{kind: "int", val: v.a, scope: t.scope}, nil
	}
	text, err := t.dataText(v, a.p)
	if err != nil {
		return nil, err
	}
	if isIdent(text) && promote(v.dtype) == promote(dtype) && assignments(fn.body, prm.name) == 0 {
		return &variable{kind: "data", name: text, dtype: dtype}, nil
	}
	tmp := &array{name: t.unique(prm.name), cname: prm.name, dtype: dtype, space: "private", p: a.p}
	t.privs = append(t.privs, tmp)
	if err := t.storeValue(tmp.name, dtype, "=", v, a.p); err != nil {
		return nil, err
	}
	return &variable{kind: "data", name: tmp.name, dtype: dtype}, nil
}

// returnsOK reports whether every return of ss stands where inlining
// can say it: last, in both branches of a final if/else (each again so),
// or as if (C) return X; followed by the rest, which is the else.
func returnsOK(ss []*stmt) bool {
	for i, s := range ss {
		last := i == len(ss)-1
		switch {
		case s.kind == "return":
			return last
		case s.kind == "if" && s.els == nil && isReturn(s.then):
			return returnsOK(ss[i+1:])
		case !containsReturn(s):
			continue
		case !last:
			return false
		case s.kind == "block":
			return returnsOK(s.body)
		case s.kind == "if":
			return returnsOK(branch(s.then)) && (s.els == nil || returnsOK(branch(s.els)))
		default:
			return false
		}
	}
	return true
}

// branch is the statements of an if's branch.
func branch(s *stmt) []*stmt {
	if s.kind == "block" {
		return s.body
	}
	return []*stmt{s}
}

// containsReturn reports a return anywhere in s.
func containsReturn(s *stmt) bool {
	if s == nil {
		return false
	}
	if s.kind == "return" {
		return true
	}
	return slices.ContainsFunc(append([]*stmt{s.init, s.then, s.els}, s.body...), containsReturn)
}
