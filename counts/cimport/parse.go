package cimport

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxDepth bounds the nesting of expressions and statements, so that a
// hostile input ends in an error rather than a stack overflow.
const maxDepth = 200

// parser reads the preprocessed tokens of a CUDA or OpenCL C source.
type parser struct {
	toks     []token
	i        int
	cuda     bool
	typedefs map[string]ctype
	// refusedTypes says why a struct typedef has no translation.
	refusedTypes map[string]string
	depth        int
	constants    []decl                 // CUDA's __constant__ arrays of the file scope
	devices      map[string]*kernelFunc // CUDA's __device__ functions, by name
	inDevice     bool                   // parsing a device function, whose return may carry a value
}

func (ps *parser) peek() token { return ps.toks[ps.i] }
func (ps *parser) peekAt(k int) token {
	if ps.i+k >= len(ps.toks) {
		return ps.toks[len(ps.toks)-1]
	}
	return ps.toks[ps.i+k]
}
func (ps *parser) next() token {
	t := ps.toks[ps.i]
	if t.kind != tEOF {
		ps.i++
	}
	return t
}
func (ps *parser) is(text string) bool { t := ps.peek(); return t.text == text && t.kind != tString }
func (ps *parser) accept(text string) bool {
	if ps.is(text) {
		ps.next()
		return true
	}
	return false
}
func (ps *parser) expect(text string) (token, error) {
	t := ps.peek()
	if !ps.is(text) {
		return t, errorAt(t.p, "expected %q, found %s", text, describe(t))
	}
	return ps.next(), nil
}

func describe(t token) string {
	if t.kind == tEOF {
		return "the end of the file"
	}
	return strconv.Quote(t.text)
}

func (ps *parser) enter(p pos) error {
	ps.depth++
	if ps.depth > maxDepth {
		return errorAt(p, "nested more than %d deep", maxDepth)
	}
	return nil
}

// kernels finds the kernel functions of the file (CUDA __global__,
// OpenCL __kernel) and parses them; everything else at file scope
// (host code, device functions, structs) is skipped, but typedefs are
// kept. A kernel that does not parse is kept with its error, which is
// reported only where it is the kernel imported.
func (ps *parser) kernels() ([]*kernelFunc, error) {
	var ks []*kernelFunc
	for ps.peek().kind != tEOF {
		t := ps.peek()
		switch {
		case t.text == "typedef":
			if err := ps.typedef(); err != nil {
				return nil, err
			}
		case t.text == "struct" && ps.peekAt(2).text == "{" && ps.structDef():
		case ps.cuda && t.text == "__global__" || !ps.cuda && (t.text == "__kernel" || t.text == "kernel"):
			start := ps.i
			k, err := ps.function(false)
			if err != nil {
				ps.i = start
				k = &kernelFunc{name: ps.kernelName(), p: t.p, err: err}
				if err := ps.skipFunction(); err != nil {
					return nil, err
				}
			}
			if k != nil {
				ks = append(ks, k)
			}
		case t.text == "{":
			if err := ps.skipBalanced(); err != nil {
				return nil, err
			}
		case ps.cuda && t.text == "__constant__" && ps.depth == 0:
			ps.constant()
		case ps.cuda && t.text == "__device__" || !ps.cuda && ps.depth == 0 && ps.functionAhead():
			// OpenCL C has no __device__: a function defined at file
			// scope that is not a kernel is a helper, inlined as CUDA's.
			ps.device()
		default:
			ps.next()
		}
	}
	for _, k := range ks {
		k.constants, k.devices = ps.constants, ps.devices
	}
	return ks, nil
}

// device reads a __device__ function definition, which a kernel's call
// inlines; what is no function definition (a __device__ variable, a
// prototype) is skipped. A function that does not parse is kept with
// its error, reported where a kernel calls it.
func (ps *parser) device() {
	start := ps.i
	k, err := ps.function(true)
	switch {
	case err != nil:
		ps.i = start
		name := ps.kernelName()
		if err := ps.skipFunction(); err != nil || name == "" {
			ps.i = start + 1
			return
		}
		k = &kernelFunc{name: name, p: ps.toks[start].p, err: err}
	case k == nil:
		return
	}
	if ps.devices == nil {
		ps.devices = map[string]*kernelFunc{}
	}
	ps.devices[k.name] = k
}

// functionAhead reports whether a function definition starts here: a
// type's words (float, inline, unsigned int, a typedef's name) and a
// name, then a parenthesized list and a body.
func (ps *parser) functionAhead() bool {
	k := ps.i
	for ; ps.toks[k].kind == tIdent || ps.toks[k].text == "*"; k++ {
		if ps.toks[k].text == "typedef" || ps.toks[k].text == "struct" {
			return false
		}
	}
	if k == ps.i || ps.toks[k].text != "(" || ps.toks[k-1].kind != tIdent || k-ps.i < 2 {
		return false
	}
	for depth := 0; ps.toks[k].kind != tEOF; k++ {
		switch ps.toks[k].text {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth == 0 {
			return ps.toks[k+1].text == "{"
		}
	}
	return false
}

// constant reads a file-scope __constant__ declaration; one that does
// not parse as an array (a struct, an initializer list) is skipped, and
// a kernel that reads it is refused as reading an undeclared name.
func (ps *parser) constant() {
	start := ps.i
	s, err := ps.declaration()
	if err != nil {
		ps.i = start + 1
		return
	}
	for _, d := range s.decls {
		if len(d.dims) > 0 && d.init == nil {
			ps.constants = append(ps.constants, d)
		}
	}
}

// kernelName finds the name of the function that starts here: the
// identifier before the first '('.
func (ps *parser) kernelName() string {
	for k := ps.i; ps.toks[k].kind != tEOF; k++ {
		if ps.toks[k].text == "(" && k > ps.i && ps.toks[k-1].kind == tIdent {
			return ps.toks[k-1].text
		}
	}
	return ""
}

// skipFunction skips a function definition from its start to the end
// of its body.
func (ps *parser) skipFunction() error {
	for ps.peek().kind != tEOF && !ps.is("{") && !ps.is(";") {
		if ps.is("(") {
			if err := ps.skipBalanced(); err != nil {
				return err
			}
			continue
		}
		ps.next()
	}
	if ps.is("{") {
		return ps.skipBalanced()
	}
	ps.next()
	return nil
}

// skipBalanced skips a bracketed group starting at the current token.
func (ps *parser) skipBalanced() error {
	open := ps.next()
	depth := 1
	for depth > 0 {
		t := ps.next()
		switch {
		case t.kind == tEOF:
			return errorAt(open.p, "%q is not closed", open.text)
		case t.text == "{" || t.text == "(" || t.text == "[":
			depth++
		case t.text == "}" || t.text == ")" || t.text == "]":
			depth--
		}
	}
	return nil
}

// typedef reads "typedef TYPE NAME;" (other typedefs are skipped).
func (ps *parser) typedef() error {
	ps.next()
	start := ps.i
	if ps.is("struct") {
		ok, err := ps.structTypedef()
		if ok || err != nil {
			return err
		}
		ps.i = start
	}
	typ, ok, err := ps.specifiers()
	if err != nil || !ok || ps.peek().kind != tIdent || ps.peekAt(1).text != ";" {
		ps.i = start
		for ps.peek().kind != tEOF && !ps.is(";") {
			if ps.is("{") {
				if err := ps.skipBalanced(); err != nil {
					return err
				}
				continue
			}
			ps.next()
		}
		ps.accept(";")
		return nil
	}
	for ps.accept("*") {
		typ.ptr++
	}
	ps.typedefs[ps.next().text] = typ
	ps.next()
	return nil
}

// structTypedef reads "typedef struct [TAG] { T f; T g, h; } NAME;",
// whose fields are scalars of one type T: an aggregate, which
// translates as float2 does, under NAME and struct TAG. A struct of
// mixed or pointer fields is noted in refusedTypes; ok is false where
// the text is no such typedef.
func (ps *parser) structTypedef() (bool, error) {
	tag, agg, why, ok := ps.structBody()
	if !ok {
		return false, nil
	}
	name := ps.next()
	if name.kind != tIdent || !ps.accept(";") {
		return false, nil
	}
	ps.defineStruct(name.text, agg, why)
	if tag != "" {
		ps.defineStruct("struct "+tag, agg, why)
	}
	return true, nil
}

// structDef reads "struct TAG { ... };" at file scope, defining struct
// TAG as structTypedef does; ok is false where the text is no such
// definition (the parser is then where it started).
func (ps *parser) structDef() bool {
	start := ps.i
	tag, agg, why, ok := ps.structBody()
	if !ok || tag == "" || !ps.accept(";") {
		ps.i = start
		return false
	}
	ps.defineStruct("struct "+tag, agg, why)
	if ps.cuda {
		// In C++ (CUDA) the tag names the type itself.
		ps.defineStruct(tag, agg, why)
	}
	return true
}

func (ps *parser) defineStruct(name string, agg ctype, why string) {
	if why != "" {
		if ps.refusedTypes == nil {
			ps.refusedTypes = map[string]string{}
		}
		ps.refusedTypes[name] = why
		return
	}
	ps.typedefs[name] = agg
}

// structBody reads "struct [TAG] { T f; T g, h; }": its tag, the
// aggregate of its fields, or why it is none.
func (ps *parser) structBody() (tag string, agg ctype, why string, ok bool) {
	ps.next()
	if ps.peek().kind == tIdent {
		tag = ps.next().text
	}
	if !ps.accept("{") {
		return "", agg, "", false
	}
	for !ps.accept("}") {
		typ, ok, err := ps.specifiers()
		if err != nil || !ok || typ.base == "" {
			return "", agg, "", false
		}
		for {
			ptr := 0
			for ps.accept("*") {
				ptr++
			}
			n := ps.next()
			if n.kind != tIdent {
				return "", agg, "", false
			}
			switch {
			case ptr > 0 || typ.fields != nil || ps.is("["):
				why = "a struct with a pointer, array or vector field, which .knl has no type for; pass each field as an array of its own"
			case agg.base != "" && agg.base != typ.base:
				why = fmt.Sprintf("a struct of fields of different types (%s and %s), which .knl has no type for; pass each field as an array of its own", agg.base, typ.base)
			}
			agg.base = typ.base
			agg.fields = append(agg.fields, n.text)
			for ps.peek().kind != tEOF && !ps.is(",") && !ps.is(";") {
				ps.next()
			}
			if !ps.accept(",") {
				break
			}
		}
		if !ps.accept(";") {
			return "", agg, "", false
		}
	}
	return tag, agg, why, len(agg.fields) > 0
}

var baseTypes = map[string]string{
	"float": "float", "double": "double", "int": "int", "unsigned": "unsigned", "signed": "int",
	"long": "long", "short": "short", "char": "char", "bool": "bool", "_Bool": "bool", "void": "void",
	"size_t": "ulong", "uint": "unsigned", "ulong": "ulong", "int32_t": "int", "uint32_t": "unsigned",
	"int64_t": "long", "uint64_t": "ulong", "half": "half", "__half": "half", "uchar": "uchar", "ushort": "ushort",
	"int8_t": "char", "uint8_t": "uchar", "int16_t": "short", "uint16_t": "ushort",
}

var qualifiers = map[string]string{
	"const": "", "volatile": "", "restrict": "", "__restrict__": "", "__restrict": "",
	"static": "", "inline": "", "__inline__": "", "__forceinline__": "", "__device__": "", "__host__": "", "register": "", "auto": "",
	"__global": "global", "global": "global", "__local": "local", "local": "local",
	"__constant": "constant", "constant": "constant", "__constant__": "constant", "__private": "", "private": "",
	"__shared__": "shared", "extern": "extern", "__kernel": "", "kernel": "", "__global__": "",
}

// isVectorType reports CUDA's and OpenCL C's vector types: float2,
// int4, uchar4, double2, ...
func isVectorType(name string) bool {
	base := strings.TrimRight(name, "0123456789")
	n := name[len(base):]
	return (n == "2" || n == "3" || n == "4" || n == "8" || n == "16") && (baseTypes[base] != "" && base != "size_t" || base == "uint" || base == "longlong" || base == "ulonglong")
}

// vectorFields is the lanes of a vector type of two to four lanes
// (float2: x, y), nil for any other name.
func vectorFields(name string) []string {
	if !isVectorType(name) || baseTypes[strings.TrimRight(name, "0123456789")] == "" {
		return nil
	}
	switch name[len(name)-1] {
	case '2':
		return []string{"x", "y"}
	case '3':
		return []string{"x", "y", "z"}
	case '4':
		return []string{"x", "y", "z", "w"}
	}
	return nil
}

// unsignedOf is the unsigned type of "unsigned char", "unsigned short"
// and "unsigned long".
var unsignedOf = map[string]string{"char": "uchar", "short": "ushort", "long": "ulong"}

// qualifier reports whether word is a qualifier or storage class, and
// the address space or storage it names. OpenCL's unprefixed global,
// local, constant, private and kernel are ordinary names in CUDA.
func (ps *parser) qualifier(word string) (string, bool) {
	q, ok := qualifiers[word]
	if ok && ps.cuda && !strings.HasPrefix(word, "_") && (word == "global" || word == "local" || word == "constant" || word == "private" || word == "kernel") {
		return "", false
	}
	return q, ok
}

// specifiers reads declaration specifiers; ok is false where the
// current token starts none. "shared" and "extern" come back in space
// for the declaration to take.
func (ps *parser) specifiers() (ctype, bool, error) {
	var t ctype
	var spaces []string
	seen := false
	for {
		tok := ps.peek()
		if tok.kind != tIdent {
			break
		}
		if q, ok := ps.qualifier(tok.text); ok {
			t.cnst = t.cnst || tok.text == "const"
			if q != "" {
				spaces = append(spaces, q)
			}
			ps.next()
			seen = true
			continue
		}
		if b, ok := baseTypes[tok.text]; ok {
			switch {
			case t.base == "unsigned" && b != "int" && unsignedOf[b] != "":
				t.base = unsignedOf[b]
			case (t.base == "short" || t.base == "ushort") && b == "int",
				t.base == "unsigned" && b == "int":
			case t.base == "long" && (b == "int" || b == "long" || b == "double"):
				if b == "double" {
					t.base = "double"
				}
			case t.base == "" || t.base == "int" && (b == "unsigned" || b == "long" || b == "short" || b == "char"):
				t.base = b
			}
			ps.next()
			seen = true
			continue
		}
		if f := vectorFields(tok.text); f != nil && t.base == "" {
			t.base, t.fields = baseTypes[strings.TrimRight(tok.text, "0123456789")], f
			ps.next()
			seen = true
			continue
		}
		if td, ok := ps.typedefs["struct "+ps.peekAt(1).text]; ok && tok.text == "struct" && t.base == "" {
			t.base, t.fields = td.base, td.fields
			ps.next()
			ps.next()
			seen = true
			continue
		}
		if td, ok := ps.typedefs[tok.text]; ok && t.base == "" {
			t.base, t.ptr, t.fields = td.base, td.ptr, td.fields
			if td.space != "" {
				spaces = append(spaces, td.space)
			}
			ps.next()
			seen = true
			continue
		}
		if (tok.text == "cg" || tok.text == "cooperative_groups") && ps.peekAt(1).text == "::" && t.base == "" {
			ps.next()
			ps.next()
			n := ps.next()
			if n.text != "thread_block" && n.text != "grid_group" && n.text != "thread_block_tile" {
				return t, false, errorAt(n.p, "cooperative group type %s: only thread_block is understood (its sync() is a barrier)", n.text)
			}
			t.base = "group"
			seen = true
			continue
		}
		break
	}
	if seen && t.base == "" && len(spaces) > 0 && !slices.Contains(spaces, "extern") {
		return t, false, errorAt(ps.peek().p, "expected a type, found %s", describe(ps.peek()))
	}
	t.space = strings.Join(spaces, " ")
	return t, seen, nil
}

// function parses a kernel definition from its __global__ or __kernel,
// or a device function's from its __device__; it returns nil for a
// prototype.
func (ps *parser) function(device bool) (*kernelFunc, error) {
	start := ps.peek()
	typ, _, err := ps.specifiers()
	if err != nil {
		return nil, err
	}
	if !device && (typ.base != "void" || typ.ptr != 0) {
		return nil, errorAt(start.p, "a kernel returns void")
	}
	for ps.is("__launch_bounds__") || ps.is("__attribute__") {
		ps.next()
		if ps.is("(") {
			if err := ps.skipBalanced(); err != nil {
				return nil, err
			}
		}
	}
	name := ps.next()
	if name.kind != tIdent {
		return nil, errorAt(name.p, "expected the kernel's name, found %s", describe(name))
	}
	k := &kernelFunc{name: name.text, p: name.p, ret: typ}

	if _, err := ps.expect("("); err != nil {
		return nil, err
	}
	for !ps.accept(")") {
		if len(k.params) > 0 {
			if _, err := ps.expect(","); err != nil {
				return nil, err
			}
		}
		if ps.is("void") && ps.peekAt(1).text == ")" {
			ps.next()
			continue
		}
		pr, err := ps.param()
		if err != nil {
			return nil, err
		}
		k.params = append(k.params, pr)
	}
	if ps.accept(";") {
		// A prototype (gaussian.cu declares its kernels before main):
		// the definition follows.
		return nil, nil
	}
	if !ps.is("{") {
		return nil, errorAt(ps.peek().p, "kernel %s: expected its body {, found %s", k.name, describe(ps.peek()))
	}
	if i := slices.IndexFunc(k.params, func(p param) bool { return p.ref }); i >= 0 && !device {
		return nil, errorAt(k.params[i].p, "kernel %s: %s is a reference (&), which a kernel's argument cannot be; pass a pointer", k.name, k.params[i].name)
	}
	ps.inDevice = device && typ.base != "void"
	k.body, err = ps.statement()
	ps.inDevice = false
	return k, err
}

// param reads one parameter. A parameter whose name a -D replaced is
// bound to the -D's value.
func (ps *parser) param() (param, error) {
	t := ps.peek()
	typ, ok, err := ps.specifiers()
	if err != nil {
		return param{}, err
	}
	if !ok || typ.base == "" {
		if isVectorType(t.text) {
			return param{}, errorAt(t.p, "%s: a vector type of more than four lanes, or of long long, which .knl has no type for; pass its fields as arrays of their own (float *x, float *y) or one flat array (p[2*i], p[2*i + 1])", t.text)
		}
		name := t.text
		if name == "struct" {
			name += " " + ps.peekAt(1).text
		}
		if why, ok := ps.refusedTypes[name]; ok {
			return param{}, errorAt(t.p, "%s: %s", name, why)
		}
		if t.kind == tIdent {
			return param{}, errorAt(t.p, "expected a parameter's type, found %s: a type of a header, which is not read (give it with -D %s=float), or a struct that the file does not define (a struct of scalar fields of one type defined in the file is understood; pass other fields as arrays of their own)", describe(t), t.text)
		}
		return param{}, errorAt(t.p, "expected a parameter's type, found %s", describe(t))
	}
	for {
		if ps.accept("*") {
			typ.ptr++
			continue
		}
		if ps.is("const") || ps.is("__restrict__") || ps.is("restrict") || ps.is("__restrict") {
			typ.restrict = typ.restrict || !ps.is("const")
			ps.next()
			continue
		}
		break
	}
	ref := ps.accept("&")
	n := ps.peek()
	if n.macro != "" {
		var value []token
		for ps.peek().macro == n.macro && ps.peek().kind != tEOF {
			value = append(value, ps.next())
		}
		return param{name: n.macro, typ: typ, p: n.p, value: value}, nil
	}
	if n.kind != tIdent {
		return param{}, errorAt(n.p, "expected a parameter's name, found %s", describe(n))
	}
	ps.next()
	if ps.is("[") {
		return param{}, errorAt(ps.peek().p, "parameter %s: an array parameter; write it as a pointer, %s *%s", n.text, typ.base, n.text)
	}
	return param{name: n.text, typ: typ, p: n.p, ref: ref}, nil
}

// statement parses one statement.
func (ps *parser) statement() (*stmt, error) {
	t := ps.peek()
	if err := ps.enter(t.p); err != nil {
		return nil, err
	}
	defer func() { ps.depth-- }()
	s := &stmt{p: t.p}
	switch t.text {
	case "{":
		ps.next()
		s.kind = "block"
		for !ps.accept("}") {
			if ps.peek().kind == tEOF {
				return nil, errorAt(t.p, "{ is not closed")
			}
			b, err := ps.statement()
			if err != nil {
				return nil, err
			}
			s.body = append(s.body, b)
		}
		return s, nil
	case ";":
		ps.next()
		s.kind = "empty"
		return s, nil
	case "if":
		ps.next()
		s.kind = "if"
		var err error
		if s.e, err = ps.parenExpr(); err != nil {
			return nil, err
		}
		if s.then, err = ps.statement(); err != nil {
			return nil, err
		}
		if ps.accept("else") {
			if s.els, err = ps.statement(); err != nil {
				return nil, err
			}
		}
		return s, nil
	case "for":
		return ps.forStmt()
	case "return", "break", "continue", "goto":
		ps.next()
		s.kind = t.text
		if t.text == "return" && ps.inDevice && !ps.is(";") {
			e, err := ps.expr()
			if err != nil {
				return nil, err
			}
			s.e = e
		}
		for !ps.accept(";") {
			if ps.peek().kind == tEOF {
				return nil, errorAt(t.p, "%s: expected ;", t.text)
			}
			if t.text == "return" {
				return nil, errorAt(ps.peek().p, "a kernel returns no value")
			}
			ps.next()
		}
		return s, nil
	case "while":
		return ps.whileStmt()
	case "do":
		return nil, errorAt(t.p, "a do loop: its trip count is not affine; write it as for (i = LOW; i < HIGH; i += STEP) with affine LOW and HIGH and a constant STEP")
	case "switch", "case", "default":
		return nil, errorAt(t.p, "switch is not understood; write it as if and else")
	}
	if t.kind == tIdent && ps.startsDecl() {
		return ps.declaration()
	}
	e, err := ps.expr()
	if err != nil {
		return nil, err
	}
	if _, err := ps.expect(";"); err != nil {
		return nil, err
	}
	s.kind, s.e = "expr", e
	return s, nil
}

// startsDecl reports whether the current token starts a declaration.
func (ps *parser) startsDecl() bool {
	t := ps.peek().text
	if _, ok := baseTypes[t]; ok {
		return true
	}
	if _, ok := ps.qualifier(t); ok {
		return true
	}
	if _, ok := ps.typedefs[t]; ok {
		return true
	}
	if vectorFields(t) != nil {
		return true
	}
	return (t == "cg" || t == "cooperative_groups") && ps.peekAt(1).text == "::" && ps.peekAt(3).kind == tIdent
}

// declaration reads "TYPE a = e, b[N];".
func (ps *parser) declaration() (*stmt, error) {
	s := &stmt{kind: "decl", p: ps.peek().p}
	typ, _, err := ps.specifiers()
	if err != nil {
		return nil, err
	}
	shared := strings.Contains(typ.space, "shared") || strings.Contains(typ.space, "local")
	extern := strings.Contains(typ.space, "extern")
	typ.space = ""
	for {
		d := decl{typ: typ, shared: shared, extern: extern}
		for ps.accept("*") {
			d.typ.ptr++
		}
		n := ps.next()
		if n.kind != tIdent {
			return nil, errorAt(n.p, "expected a name to declare, found %s", describe(n))
		}
		d.name, d.p = n.text, n.p
		for ps.accept("[") {
			if ps.accept("]") {
				d.dims = append(d.dims, nil)
				continue
			}
			e, err := ps.expr()
			if err != nil {
				return nil, err
			}
			if _, err := ps.expect("]"); err != nil {
				return nil, err
			}
			d.dims = append(d.dims, e)
		}
		if ps.accept("=") {
			if ps.is("{") {
				return nil, errorAt(ps.peek().p, "%s: initializer lists are not understood; assign the elements", d.name)
			}
			if d.init, err = ps.assign(); err != nil {
				return nil, err
			}
		}
		s.decls = append(s.decls, d)
		if !ps.accept(",") {
			break
		}
	}
	if _, err := ps.expect(";"); err != nil {
		return nil, err
	}
	return s, nil
}

// forStmt reads "for (INIT; COND; STEP) BODY".
func (ps *parser) forStmt() (*stmt, error) {
	s := &stmt{kind: "for", p: ps.next().p}
	if _, err := ps.expect("("); err != nil {
		return nil, err
	}
	var err error
	switch {
	case ps.accept(";"):
	case ps.startsDecl():
		if s.init, err = ps.declaration(); err != nil {
			return nil, err
		}
	default:
		e, err := ps.expr()
		if err != nil {
			return nil, err
		}
		s.init = &stmt{kind: "expr", e: e, p: e.p}
		if _, err := ps.expect(";"); err != nil {
			return nil, err
		}
	}
	if !ps.is(";") {
		if s.e, err = ps.expr(); err != nil {
			return nil, err
		}
	}
	if _, err := ps.expect(";"); err != nil {
		return nil, err
	}
	if !ps.is(")") {
		if s.step, err = ps.expr(); err != nil {
			return nil, err
		}
	}
	if _, err := ps.expect(")"); err != nil {
		return nil, err
	}
	s.then, err = ps.statement()
	return s, err
}

// whileStmt reads "while (COND) BODY" as the for loop it is, or refuses
// it, saying what to write. A while loop whose body ends by updating the
// variable its condition tests, SHOC's reduction
//
//	int bar = vecWidth / 2;
//	while (bar > 0) { ...; bar = bar / 2; }
//
// is the for loop for (bar = bar; bar > 0; bar = bar / 2) { ... }: it
// starts at the variable's value, and is translated as that loop is
// (unrolled at import where it starts at a constant and does not step
// by a constant addition, as the reductions' s >>= 1 loops).
func (ps *parser) whileStmt() (*stmt, error) {
	p := ps.next().p
	c, err := ps.parenExpr()
	if err != nil {
		return nil, err
	}
	body, err := ps.statement()
	if err != nil {
		return nil, err
	}
	ss := []*stmt{body}
	if body.kind == "block" {
		ss = body.body
	}
	refuse := func(why string) (*stmt, error) {
		return nil, errorAt(p, "a while loop %s; write it as a for loop, for (i = LOW; i < HIGH; i += STEP) with affine LOW and HIGH and a constant STEP, or end its body by updating the one variable its condition tests (while (s > 0) { ...; s >>= 1; }), which is read as for (s = s; s > 0; s >>= 1)", why)
	}
	if len(ss) == 0 {
		return refuse("with an empty body")
	}
	last := ss[len(ss)-1]
	if last.kind != "expr" {
		return refuse("whose body does not end by updating a variable")
	}
	e := last.e
	if e.op != "assign" && e.op != "pre" && e.op != "post" || e.args[0].op != "id" {
		return refuse("whose body does not end by updating a variable")
	}
	v := e.args[0].text
	if !mentions(c, v) {
		return refuse("whose condition does not test " + v + ", which its body's last statement updates")
	}
	rest := &stmt{kind: "block", body: ss[:len(ss)-1], p: body.p}
	if assignments(rest, v) > 0 {
		return refuse("whose body updates " + v + " before its last statement")
	}
	// The step runs outside the body's scope, so it cannot read what
	// the body declares.
	for _, s := range rest.body {
		for _, d := range s.decls {
			var use *expr
			exprHas(e, func(x *expr) bool {
				if x.op == "id" && x.text == d.name {
					use = x
				}
				return use != nil
			})
			if s.kind == "decl" && use != nil {
				return nil, errorAt(use.p, "the last statement of this while loop, read as the loop's step, reads %s, which its body declares: declare %s before the loop", d.name, d.name)
			}
		}
	}
	self := &expr{op: "id", text: v, p: p}
	init := &stmt{kind: "expr", e: &expr{op: "assign", text: "=", args: []*expr{self, self}, p: p}, p: p}
	return &stmt{kind: "for", init: init, e: c, step: e, then: rest, p: p, while: true}, nil
}

func (ps *parser) parenExpr() (*expr, error) {
	if _, err := ps.expect("("); err != nil {
		return nil, err
	}
	e, err := ps.expr()
	if err != nil {
		return nil, err
	}
	_, err = ps.expect(")")
	return e, err
}

// expr reads an expression, the comma operator included.
func (ps *parser) expr() (*expr, error) {
	e, err := ps.assign()
	if err != nil {
		return nil, err
	}
	for ps.is(",") {
		t := ps.next()
		r, err := ps.assign()
		if err != nil {
			return nil, err
		}
		e = &expr{op: "binary", text: ",", args: []*expr{e, r}, p: t.p}
	}
	return e, nil
}

var assignOps = []string{"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="}

func (ps *parser) assign() (*expr, error) {
	if err := ps.enter(ps.peek().p); err != nil {
		return nil, err
	}
	defer func() { ps.depth-- }()
	l, err := ps.conditional()
	if err != nil {
		return nil, err
	}
	if t := ps.peek(); t.kind == tPunct && slices.Contains(assignOps, t.text) {
		ps.next()
		r, err := ps.assign()
		if err != nil {
			return nil, err
		}
		return &expr{op: "assign", text: t.text, args: []*expr{l, r}, p: t.p}, nil
	}
	return l, nil
}

func (ps *parser) conditional() (*expr, error) {
	c, err := ps.binary(0)
	if err != nil || !ps.is("?") {
		return c, err
	}
	t := ps.next()
	a, err := ps.expr()
	if err != nil {
		return nil, err
	}
	if _, err := ps.expect(":"); err != nil {
		return nil, err
	}
	b, err := ps.conditional()
	if err != nil {
		return nil, err
	}
	return &expr{op: "cond", args: []*expr{c, a, b}, p: t.p}, nil
}

// binaryLevels lists the binary operators from the loosest binding.
var binaryLevels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
}

func (ps *parser) binary(level int) (*expr, error) {
	if level == len(binaryLevels) {
		return ps.unary()
	}
	l, err := ps.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := ps.peek()
		if t.kind != tPunct || !slices.Contains(binaryLevels[level], t.text) {
			return l, nil
		}
		ps.next()
		r, err := ps.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = &expr{op: "binary", text: t.text, args: []*expr{l, r}, p: t.p}
	}
}

func (ps *parser) unary() (*expr, error) {
	t := ps.peek()
	if err := ps.enter(t.p); err != nil {
		return nil, err
	}
	defer func() { ps.depth-- }()
	if t.kind == tPunct {
		switch t.text {
		case "-", "+", "!", "~", "*", "&":
			ps.next()
			a, err := ps.unary()
			if err != nil {
				return nil, err
			}
			return &expr{op: "unary", text: t.text, args: []*expr{a}, p: t.p}, nil
		case "++", "--":
			ps.next()
			a, err := ps.unary()
			if err != nil {
				return nil, err
			}
			return &expr{op: "pre", text: t.text, args: []*expr{a}, p: t.p}, nil
		case "(":
			save := ps.i
			ps.next()
			if ps.peek().kind == tIdent && ps.startsDecl() {
				typ, _, err := ps.specifiers()
				if err != nil {
					return nil, err
				}
				for ps.accept("*") {
					typ.ptr++
				}
				if _, err := ps.expect(")"); err != nil {
					return nil, err
				}
				a, err := ps.unary()
				if err != nil {
					return nil, err
				}
				return &expr{op: "cast", typ: typ, args: []*expr{a}, p: t.p}, nil
			}
			ps.i = save
		}
	}
	if t.text == "sizeof" {
		return nil, errorAt(t.p, "sizeof is not understood; write the size")
	}
	return ps.postfix()
}

func (ps *parser) postfix() (*expr, error) {
	e, err := ps.primary()
	if err != nil {
		return nil, err
	}
	for {
		t := ps.peek()
		switch {
		case ps.is("["):
			ps.next()
			i, err := ps.expr()
			if err != nil {
				return nil, err
			}
			if _, err := ps.expect("]"); err != nil {
				return nil, err
			}
			e = &expr{op: "index", args: []*expr{e, i}, p: e.p}
		case ps.is("("):
			ps.next()
			call := &expr{op: "call", args: []*expr{e}, p: e.p}
			for !ps.accept(")") {
				if len(call.args) > 1 {
					if _, err := ps.expect(","); err != nil {
						return nil, err
					}
				}
				a, err := ps.assign()
				if err != nil {
					return nil, err
				}
				call.args = append(call.args, a)
			}
			e = call
		case ps.is(".") || ps.is("->"):
			ps.next()
			f := ps.next()
			if f.kind != tIdent {
				return nil, errorAt(f.p, "expected a field name, found %s", describe(f))
			}
			e = &expr{op: "member", text: f.text, args: []*expr{e}, p: t.p}
		case ps.is("++") || ps.is("--"):
			ps.next()
			e = &expr{op: "post", text: t.text, args: []*expr{e}, p: t.p}
		default:
			return e, nil
		}
	}
}

func (ps *parser) primary() (*expr, error) {
	t := ps.next()
	switch t.kind {
	case tIdent:
		if ps.is("<") && ps.peekAt(1).kind == tIdent && ps.peekAt(2).text == ">" && ps.peekAt(3).text == "(" {
			// A C++ template's call, SharedMemory<T>(): its arguments
			// are types, which the translation does not need.
			ps.i += 3
		}
		name := t.text
		for ps.is("::") && ps.peekAt(1).kind == tIdent {
			ps.next()
			name += "::" + ps.next().text
		}
		return &expr{op: "id", text: name, p: t.p}, nil
	case tNumber:
		return &expr{op: "num", text: t.text, p: t.p}, nil
	case tString:
		return &expr{op: "str", text: t.text, p: t.p}, nil
	}
	if t.text == "(" {
		e, err := ps.expr()
		if err != nil {
			return nil, err
		}
		_, err = ps.expect(")")
		return e, err
	}
	return nil, errorAt(t.p, "expected an expression, found %s", describe(t))
}
