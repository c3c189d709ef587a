package cimport

import (
	"slices"
	"strings"
)

// macro is a #define: object-like, or function-like with params.
type macro struct {
	name     string
	fn       bool
	params   []string
	body     []token
	cmdline  bool // a -D of the command line
	tunable  bool // a -D that stays a name, the .knl's const, but where #if reads its value
	variadic bool
}

// maxExpansions bounds macro expansion, so that a recursive or
// exponential set of macros ends in an error rather than exhausting
// memory.
const maxExpansions = 200000

// pp is the preprocessor: it reads the lexed tokens, obeys the
// directives and expands macros.
type pp struct {
	src        []token
	i          int
	pending    [][]token // expansions to be scanned again, a stack: the last is read first
	macros     map[string]*macro
	conds      []ifState
	expansions *int           // shared with the expansions of macro arguments
	produced   *int           // the tokens expansions made, shared as expansions is
	values     bool           // tunables expand to their values (in #if)
	reads      map[string]pos // the tunables #if read, where first
}

// ifState is an open #if, #ifdef or #ifndef.
type ifState struct {
	active   bool // the current branch is taken
	taken    bool // some branch was taken
	outer    bool // the enclosing region is active
	elseSeen bool
	p        pos
}

// preprocess returns the tokens of src after the preprocessor, with
// defines (-D NAME=VALUE of the command line) and the predefined macros.
// The defines named by tunables stay names outside #if; reads says
// which of them an #if read, and where first.
func preprocess(l *lexed, defines, predefined map[string]string, tunables map[string]bool) ([]token, map[string]*macro, map[string]pos, error) {
	p := &pp{src: l.toks, macros: map[string]*macro{}, expansions: new(int), produced: new(int), reads: map[string]pos{}}
	for name, val := range predefined {
		body, err := lexValue(val)
		if err != nil {
			return nil, nil, nil, err
		}
		p.macros[name] = &macro{name: name, body: body}
	}
	for name, val := range defines {
		if fn, _, ok := strings.Cut(name, "("); ok {
			// -D 'UMAD(a,b,c)=a*b + c': a function-like macro, which
			// a header that is not read would define.
			toks, err := lexValue(name + " " + val)
			if err == nil {
				err = p.define(pos{}, toks)
			}
			if err != nil {
				return nil, nil, nil, &Error{Msg: "-D " + name + "=" + val + ": " + err.(*Error).Msg}
			}
			p.macros[fn].cmdline = true
			continue
		}
		body, err := lexValue(val)
		if err != nil {
			return nil, nil, nil, &Error{Msg: "-D " + name + "=" + val + ": " + err.(*Error).Msg}
		}
		p.macros[name] = &macro{name: name, body: body, cmdline: true, tunable: tunables[name]}
	}
	var out []token
	for {
		t, err := p.expanded()
		if err != nil {
			return nil, nil, nil, err
		}
		if t.kind == tEOF {
			if len(p.conds) > 0 {
				c := p.conds[len(p.conds)-1]
				return nil, nil, nil, errorAt(c.p, "#if is not closed by #endif")
			}
			return append(out, t), p.macros, p.reads, nil
		}
		out = append(out, t)
		if len(out) > maxTokens {
			return nil, nil, nil, errorAt(t.p, "the source has more than %d tokens after the preprocessor", maxTokens)
		}
	}
}

// maxTokens bounds the preprocessed source and the tokens macro
// expansions make, and so the time and memory they take.
const maxTokens = 1 << 18

// lexValue lexes the value of a -D or predefined macro.
func lexValue(val string) ([]token, error) {
	l, err := lex(val)
	if err != nil {
		return nil, err
	}
	return l.toks[:len(l.toks)-1], nil
}

// raw returns the next token of the active regions, after directives.
func (p *pp) raw() (token, error) {
	for n := len(p.pending); n > 0; n = len(p.pending) {
		top := p.pending[n-1]
		if len(top) == 0 {
			p.pending = p.pending[:n-1]
			continue
		}
		p.pending[n-1] = top[1:]
		return top[0], nil
	}
	for {
		t := p.src[p.i]
		if t.kind == tEOF {
			return t, nil
		}
		if t.bol && t.text == "#" && t.kind == tPunct {
			j := p.i + 1
			for p.src[j].kind != tEOF && p.src[j].line == t.line {
				j++
			}
			line := p.src[p.i+1 : j]
			p.i = j
			if err := p.directive(t.p, line); err != nil {
				return token{}, err
			}
			continue
		}
		p.i++
		if p.active() {
			return t, nil
		}
	}
}

func (p *pp) active() bool {
	return len(p.conds) == 0 || p.conds[len(p.conds)-1].active
}

// expanded returns the next token after macro expansion.
func (p *pp) expanded() (token, error) {
	for {
		t, err := p.raw()
		if err != nil || t.kind != tIdent {
			return t, err
		}
		m := p.macros[t.text]
		if m == nil || slices.Contains(t.hide, t.text) {
			return t, nil
		}
		if m.tunable && !p.values {
			return t, nil
		}
		if m.tunable {
			if _, ok := p.reads[m.name]; !ok && p.reads != nil {
				p.reads[m.name] = t.p
			}
		}
		var args [][]token
		if m.fn {
			nt, err := p.raw()
			if err != nil {
				return t, err
			}
			if nt.text != "(" {
				p.pending = append(p.pending, []token{nt})
				return t, nil
			}
			if args, err = p.args(t, m); err != nil {
				return t, err
			}
		}
		var expandedArgs [][]token
		for _, a := range args {
			e, err := expandAll(a, p.macros, t.p, p)
			if err != nil {
				return t, err
			}
			expandedArgs = append(expandedArgs, e[:len(e)-1])
		}
		*p.expansions++
		if *p.expansions > maxExpansions {
			return t, errorAt(t.p, "macro %s: more than %d macro expansions (a recursive macro?)", m.name, maxExpansions)
		}
		body, err := m.substitute(t, args, expandedArgs)
		if err != nil {
			return t, err
		}
		*p.produced += len(body)
		if *p.produced > maxTokens {
			return t, errorAt(t.p, "macros expand to more than %d tokens", maxTokens)
		}
		p.pending = append(p.pending, body)
	}
}

// args collects the arguments of a function-like macro call whose '('
// was just read.
func (p *pp) args(call token, m *macro) ([][]token, error) {
	var args [][]token
	var cur []token
	depth := 0
	for {
		t, err := p.raw()
		if err != nil {
			return nil, err
		}
		switch {
		case t.kind == tEOF:
			return nil, errorAt(call.p, "macro %s: its arguments are not closed by ')'", m.name)
		case t.text == "(" || t.text == "[" || t.text == "{":
			depth++
		case (t.text == ")" || t.text == "]" || t.text == "}") && depth > 0:
			depth--
		case t.text == ")":
			args = append(args, cur)
			if len(args) == 1 && len(args[0]) == 0 && len(m.params) == 0 {
				args = nil
			}
			if len(args) != len(m.params) && !(m.variadic && len(args) >= len(m.params)-1) {
				return nil, errorAt(call.p, "macro %s takes %d arguments, not %d", m.name, len(m.params), len(args))
			}
			return args, nil
		case t.text == "," && depth == 0 && !(m.variadic && len(args) >= len(m.params)-1):
			args = append(args, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
}

// substitute returns m's body for the call at t: the parameters
// replaced by the arguments, # and ## applied, every token placed at
// the call and hidden from m's own expansion.
//
// C substitutes a parameter by its argument macro-expanded (exp), but
// by the argument as written next to # and ##.
func (m *macro) substitute(call token, args, exp [][]token) ([]token, error) {
	var out []token
	for k := 0; k < len(m.body); k++ {
		b := m.body[k]
		if b.text == "#" && m.fn && k+1 < len(m.body) {
			if ai := slices.Index(m.params, m.body[k+1].text); ai >= 0 {
				out = append(out, token{kind: tString, text: `"` + spell(args[ai]) + `"`})
				k++
				continue
			}
		}
		if ai := slices.Index(m.params, b.text); m.fn && b.kind == tIdent && ai >= 0 {
			pasted := k > 0 && m.body[k-1].text == "##" || k+1 < len(m.body) && m.body[k+1].text == "##"
			switch {
			case ai >= len(args):
			case pasted:
				out = append(out, args[ai]...)
			default:
				out = append(out, exp[ai]...)
			}
			continue
		}
		out = append(out, b)
	}
	for k := 0; k < len(out); k++ {
		if out[k].text != "##" || out[k].kind != tPunct {
			continue
		}
		if k == 0 || k+1 >= len(out) {
			return nil, errorAt(call.p, "macro %s: ## at the edge of its body", m.name)
		}
		l, err := lex(out[k-1].text + out[k+1].text)
		if err != nil || len(l.toks) != 2 {
			return nil, errorAt(call.p, "macro %s: ## of %q and %q makes no one token", m.name, out[k-1].text, out[k+1].text)
		}
		out = slices.Replace(out, k-1, k+2, l.toks[0])
		k--
	}
	hide := append(slices.Clip(call.hide), m.name)
	origin := call.macro
	if origin == "" && m.cmdline {
		origin = m.name
	}
	for k := range out {
		out[k].p, out[k].bol, out[k].macro = call.p, false, origin
		out[k].hide = union(out[k].hide, hide)
	}
	return out, nil
}

// union is the hide set of a token of an expansion: its own and the
// call's. The call's is shared where the token has none of its own.
func union(own, call []string) []string {
	if len(own) == 0 {
		return call
	}
	out := slices.Clip(own)
	for _, n := range call {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// spell joins tokens with single spaces, as # writes them.
func spell(ts []token) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.text)
	}
	return strings.Join(s, " ")
}

// directive obeys one directive; line is what follows its '#'.
func (p *pp) directive(at pos, line []token) error {
	if len(line) == 0 {
		return nil
	}
	name, rest := line[0].text, line[1:]
	if !p.active() && name != "if" && name != "ifdef" && name != "ifndef" && name != "elif" && name != "else" && name != "endif" {
		return nil
	}
	top := func() *ifState {
		if len(p.conds) == 0 {
			return nil
		}
		return &p.conds[len(p.conds)-1]
	}
	switch name {
	case "define":
		return p.define(at, rest)
	case "undef":
		if len(rest) != 1 || rest[0].kind != tIdent {
			return errorAt(at, "#undef takes one name")
		}
		delete(p.macros, rest[0].text)
	case "ifdef", "ifndef":
		if len(rest) != 1 || rest[0].kind != tIdent {
			return errorAt(at, "#%s takes one name", name)
		}
		_, def := p.macros[rest[0].text]
		p.push(at, def == (name == "ifdef"))
	case "if":
		if !p.active() {
			p.push(at, false)
			return nil
		}
		v, err := p.evalIf(at, rest)
		if err != nil {
			return err
		}
		p.push(at, v)
	case "elif":
		c := top()
		if c == nil || c.elseSeen {
			return errorAt(at, "#elif without #if")
		}
		if c.taken || !c.outer {
			c.active = false
			return nil
		}
		v, err := p.evalIf(at, rest)
		if err != nil {
			return err
		}
		c.active, c.taken = v, v
	case "else":
		c := top()
		if c == nil || c.elseSeen {
			return errorAt(at, "#else without #if")
		}
		c.elseSeen = true
		c.active = c.outer && !c.taken
		c.taken = true
	case "endif":
		if top() == nil {
			return errorAt(at, "#endif without #if")
		}
		p.conds = p.conds[:len(p.conds)-1]
	case "include", "pragma", "line":
		// Headers are not read: a kernel needs none of the host's, and
		// what it uses of them (math functions, indices) is built in.
	case "error":
		return errorAt(at, "#error %s", spell(rest))
	case "warning":
	default:
		return errorAt(at, "unknown directive #%s", name)
	}
	return nil
}

func (p *pp) push(at pos, v bool) {
	outer := p.active()
	p.conds = append(p.conds, ifState{active: outer && v, taken: v, outer: outer, p: at})
}

// define reads "#define NAME BODY" or "#define NAME(PARAMS) BODY".
func (p *pp) define(at pos, rest []token) error {
	if len(rest) == 0 || rest[0].kind != tIdent {
		return errorAt(at, "#define needs a name")
	}
	m := &macro{name: rest[0].text}
	if old := p.macros[m.name]; old != nil && old.cmdline {
		return nil // -D on the command line wins over the source's #define
	}
	body := rest[1:]
	if len(body) > 0 && body[0].text == "(" && body[0].p.col == rest[0].p.col+len(rest[0].text) && body[0].p.line == rest[0].p.line {
		m.fn = true
		k := 1
		for ; k < len(body) && body[k].text != ")"; k++ {
			switch {
			case body[k].text == ",":
			case body[k].text == "...":
				m.params = append(m.params, "__VA_ARGS__")
				m.variadic = true
			case body[k].kind == tIdent:
				m.params = append(m.params, body[k].text)
			default:
				return errorAt(body[k].p, "#define %s: bad parameter %q", m.name, body[k].text)
			}
		}
		if k == len(body) {
			return errorAt(at, "#define %s: its parameter list is not closed", m.name)
		}
		body = body[k+1:]
	}
	m.body = slices.Clone(body)
	p.macros[m.name] = m
	return nil
}

// evalIf evaluates the condition of #if or #elif.
func (p *pp) evalIf(at pos, line []token) (bool, error) {
	var ts []token
	for k := 0; k < len(line); k++ {
		t := line[k]
		if t.text != "defined" {
			ts = append(ts, t)
			continue
		}
		var name token
		switch {
		case k+1 < len(line) && line[k+1].kind == tIdent:
			name = line[k+1]
			k++
		case k+3 < len(line) && line[k+1].text == "(" && line[k+2].kind == tIdent && line[k+3].text == ")":
			name = line[k+2]
			k += 3
		default:
			return false, errorAt(t.p, "defined needs a name")
		}
		v := "0"
		if _, ok := p.macros[name.text]; ok {
			v = "1"
		}
		ts = append(ts, token{kind: tNumber, text: v, p: name.p})
	}
	p.values = true
	exp, err := expandAll(ts, p.macros, at, p)
	p.values = false
	if err != nil {
		return false, err
	}
	for k, t := range exp {
		if t.kind == tIdent {
			exp[k] = token{kind: tNumber, text: "0", p: t.p}
		}
	}
	ps := &parser{toks: exp}
	e, err := ps.expr()
	if err != nil {
		return false, errorAt(at, "#if: %s", err.(*Error).Msg)
	}
	if ps.peek().kind != tEOF {
		return false, errorAt(ps.peek().p, "#if: unexpected %q", ps.peek().text)
	}
	v, err := constValue(e)
	if err != nil {
		return false, err
	}
	return v != 0, nil
}

// expandAll expands the macros of a list of tokens (no directives),
// which it ends with an EOF token at at.
func expandAll(ts []token, macros map[string]*macro, at pos, parent *pp) ([]token, error) {
	if parent == nil {
		parent = &pp{expansions: new(int), produced: new(int)}
	}
	sub := &pp{src: append(slices.Clip(ts), token{kind: tEOF, p: at}), macros: macros, expansions: parent.expansions, produced: parent.produced,
		values: parent.values, reads: parent.reads}
	var out []token
	for {
		t, err := sub.expanded()
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		if t.kind == tEOF {
			return out, nil
		}
		if len(out) > maxTokens {
			return nil, errorAt(t.p, "a macro expands to more than %d tokens", maxTokens)
		}
	}
}

// constValue evaluates an integer constant expression (#if's).
func constValue(e *expr) (int64, error) {
	switch e.op {
	case "num":
		v, ok := intLiteral(e.text)
		if !ok {
			return 0, errorAt(e.p, "%s is not an integer constant", e.text)
		}
		return v, nil
	case "unary":
		v, err := constValue(e.args[0])
		if err != nil {
			return 0, err
		}
		switch e.text {
		case "-":
			return -v, nil
		case "+":
			return v, nil
		case "!":
			return b2i(v == 0), nil
		case "~":
			return ^v, nil
		}
	case "cond":
		c, err := constValue(e.args[0])
		if err != nil {
			return 0, err
		}
		if c != 0 {
			return constValue(e.args[1])
		}
		return constValue(e.args[2])
	case "binary":
		a, err := constValue(e.args[0])
		if err != nil {
			return 0, err
		}
		if e.text == "&&" && a == 0 || e.text == "||" && a != 0 {
			return b2i(a != 0), nil
		}
		b, err := constValue(e.args[1])
		if err != nil {
			return 0, err
		}
		if v, ok := intOp(e.text, a, b); ok {
			return v, nil
		}
		return 0, errorAt(e.p, "%d %s %d: overflow, division by zero or a shift out of range", a, e.text, b)
	}
	return 0, errorAt(e.p, "not an integer constant expression")
}
