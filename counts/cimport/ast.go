package cimport

import "slices"

// expr is a C expression. op says what it is: "id" (text: the name,
// with :: kept: cg::sync), "num" (text: the literal), "str", "call"
// (args[0] the callee), "index" (args: array, subscript), "member"
// (text: the field; args[0] the object), "unary" (text: - + ! ~ * &),
// "pre" and "post" (text: ++ or --), "binary" (text: the operator),
// "assign" (text: = += -= ...), "cond" (args: condition, then, else),
// "cast" (typ: the type), and, built by the translation, "val" (val:
// a value computed before, a pointer's offset).
type expr struct {
	op   string
	text string
	args []*expr
	typ  ctype
	p    pos
	val  *value
}

// ctype is a C type, as much of it as kernels use: a base type, pointer
// depth and address space, and whether the elements a pointer points to
// are const and the pointer restrict (const float *__restrict__ a).
// An aggregate (float2, or a struct of scalar fields of one type) has
// its fields' names in fields and their type in base.
type ctype struct {
	base     string // float, double, char, uchar, short, ushort, int, unsigned, long, ulong, bool, void, group (a cooperative group)
	ptr      int
	space    string // global, local, constant or "" (private; CUDA pointers are global)
	cnst     bool
	restrict bool
	fields   []string
}

// stmt is a C statement. kind: "block" (body), "decl" (decls), "expr"
// (e), "if" (e, then, els), "for" (init, e, step, then), "return",
// "break", "continue" and "goto" (refused by the translation), "empty".
type stmt struct {
	kind      string
	body      []*stmt
	decls     []decl
	e, step   *expr
	init      *stmt
	then, els *stmt
	p         pos
	while     bool // a for loop read from a while loop (whileStmt)
}

// decl declares one variable: its type, array extents and initializer.
type decl struct {
	name   string
	typ    ctype
	shared bool // __shared__ or __local
	extern bool
	dims   []*expr
	init   *expr
	p      pos
}

// param is a parameter of the kernel. value holds the tokens of a -D
// that named it: the parameter is bound to that value. ref marks a
// device function's reference parameter (float &x).
type param struct {
	name  string
	typ   ctype
	p     pos
	value []token
	ref   bool
}

// kernelFunc is a kernel function definition.
type kernelFunc struct {
	name      string
	params    []param
	body      *stmt
	p         pos
	err       error  // why it does not parse, if it does not
	constants []decl // the file's __constant__ arrays
	devices   map[string]*kernelFunc
	ret       ctype // a device function's return type
}

// mentions reports whether e reads the variable name.
func mentions(e *expr, name string) bool {
	return exprHas(e, func(x *expr) bool { return x.op == "id" && x.text == name })
}

// hasCall reports whether e calls a function.
func hasCall(e *expr) bool {
	return exprHas(e, func(x *expr) bool { return x.op == "call" })
}

// exprHas reports whether f holds for e or an expression inside it.
func exprHas(e *expr, f func(*expr) bool) bool {
	if e == nil {
		return false
	}
	if f(e) {
		return true
	}
	return slices.ContainsFunc(e.args, func(a *expr) bool { return exprHas(a, f) })
}

// stmtHas reports whether f holds for an expression of s (its
// conditions, steps, initializers and array extents) or of a statement
// inside it.
func stmtHas(s *stmt, f func(*expr) bool) bool {
	if s == nil {
		return false
	}
	if exprHas(s.e, f) || exprHas(s.step, f) {
		return true
	}
	for _, d := range s.decls {
		if exprHas(d.init, f) || slices.ContainsFunc(d.dims, func(e *expr) bool { return exprHas(e, f) }) {
			return true
		}
	}
	return slices.ContainsFunc(append([]*stmt{s.init, s.then, s.els}, s.body...), func(b *stmt) bool { return stmtHas(b, f) })
}
