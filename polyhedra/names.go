package polyhedra

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// exponent matches the name that lexing 1e3 leaves after the integer 1.
var exponent = regexp.MustCompile(`^[eE][0-9]+$`)

// CheckNames reports, as a *SyntaxError, the typos that ParseSet accepts
// because isl does: where the set declares its parameters ([n] -> {...}),
// a name that is neither one of them nor a dimension or exists variable
// in scope (nn for n), which isl would make one more parameter; and, with
// or without declared parameters, an exponent such as 1e3, which reads as
// 1 times a parameter e3.
func CheckNames(src string) error {
	toks, err := lex(src, nil)
	if err != nil {
		return err
	}
	for i := 1; i < len(toks); i++ {
		a, b := toks[i-1], toks[i]
		if a.kind == tInt && b.kind == tIdent && b.line == a.line && int(b.col) == int(a.col)+len(a.text) && exponent.MatchString(b.text) {
			return &SyntaxError{int(a.line), int(a.col), fmt.Sprintf("%s%s is not an integer: write it out in full", a.text, b.text)}
		}
	}
	ast, err := parseSetAST(src)
	if err != nil || !strings.HasPrefix(strings.TrimSpace(src), "[") {
		return err
	}
	for _, pc := range ast.pieces {
		if pc.cond == nil {
			continue
		}
		bd := &builder{params: slices.Clone(ast.params)}
		bd.collectParams(pc.cond, pc.dims)
		if len(bd.params) == len(ast.params) {
			continue
		}
		name := bd.params[len(ast.params)]
		at := firstUse(pc.cond, name)
		return &SyntaxError{at.line, at.col, fmt.Sprintf("%s is neither a declared parameter (%s) nor a dimension (%s)",
			name, strings.Join(ast.params, ", "), strings.Join(pc.dims, ", "))}
	}
	return nil
}

// firstUse is where the name first occurs in f.
func firstUse(f fNode, name string) pos {
	var found *pos
	var expr func(eNode)
	expr = func(e eNode) {
		if found != nil {
			return
		}
		switch n := e.(type) {
		case *eVar:
			if n.name == name {
				p := n.p
				found = &p
			}
		case *eBin:
			expr(n.l)
			expr(n.r)
		case *eNeg:
			expr(n.x)
		case *eFloor:
			expr(n.x)
		case *eMinMax:
			for _, a := range n.args {
				expr(a)
			}
		}
	}
	var form func(fNode)
	form = func(f fNode) {
		switch n := f.(type) {
		case *fAnd:
			form(n.l)
			form(n.r)
		case *fOr:
			form(n.l)
			form(n.r)
		case *fNot:
			form(n.x)
		case *fExists:
			form(n.body)
		case *fCmp:
			for _, l := range n.lists {
				for _, e := range l {
					expr(e)
				}
			}
		}
	}
	form(f)
	if found == nil {
		return f.at()
	}
	return *found
}
