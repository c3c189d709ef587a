package cimport

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
type ctype struct {
	base     string // float, double, char, uchar, short, ushort, int, unsigned, long, ulong, bool, void, group (a cooperative group)
	ptr      int
	space    string // global, local, constant or "" (private; CUDA pointers are global)
	cnst     bool
	restrict bool
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
// that named it: the parameter is bound to that value.
type param struct {
	name  string
	typ   ctype
	p     pos
	value []token
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
	if e.op == "id" && e.text == name {
		return true
	}
	for _, a := range e.args {
		if a != nil && mentions(a, name) {
			return true
		}
	}
	return false
}

// hasCall reports whether e calls a function.
func hasCall(e *expr) bool {
	if e == nil {
		return false
	}
	if e.op == "call" {
		return true
	}
	for _, a := range e.args {
		if hasCall(a) {
			return true
		}
	}
	return false
}
