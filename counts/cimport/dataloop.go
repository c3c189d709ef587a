package cimport

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// A loop whose bounds are data, CSR's for (j = start; j < end; j++) with
// start and end read from the row pointers, has no domain. Given the
// most iterations it runs (--trips j=maxrl), it becomes what a hand port
// writes: an iname over 0 <= j_it < maxrl whose body runs under the
// loop's condition, so that what it does counts as an upper bound.

// flagParams declares the names in the --trips bounds and --array
// extents that are no argument or macro of the kernel as size
// parameters of their own (the longest row, maxrl; the nonzeros of a
// sparse matrix, nnz), which the .knl's header lists.
func (t *translator) flagParams() error {
	for _, flag := range []string{"--array", "--trips"} {
		m := t.opts.Arrays
		if flag == "--trips" {
			m = t.opts.Trips
		}
		for _, n := range slices.Sorted(maps.Keys(m)) {
			l, err := lex(m[n])
			if err != nil {
				return &Error{Msg: fmt.Sprintf("%s %s=%s: %s", flag, n, m[n], err.(*Error).Msg)}
			}
			for _, tok := range l.toks {
				if tok.kind != tIdent || t.lookup(tok.text) != nil || t.macros[tok.text] != nil {
					continue
				}
				if reserved[tok.text] || t.used[tok.text] {
					return &Error{Msg: fmt.Sprintf("%s %s=%s: %s is a word of .knl or a name the kernel takes; name the size otherwise", flag, n, m[n], tok.text)}
				}
				t.used[tok.text] = true
				t.params = append(t.params, tok.text)
				t.declare(tok.text, &variable{kind: "int", val: affConst(poly{tok.text: 1})})
				t.notes = append(t.notes, fmt.Sprintf("size parameter %s: named by %s %s=%s, no argument of the kernel", tok.text, flag, n, m[n]))
			}
		}
	}
	return nil
}

// bindDataIndex gives the loop's variable its value in iteration iname,
// start + step*iname: affine where start is; else a private variable
// that each iteration sets (one addition, as C's j++), where a start
// that is no lone name is read into a temporary before the loop (into
// outer), as C reads it once.
func (t *translator) bindDataIndex(v *variable, name string, start *value, step poly, iname string, p pos, outer *[]*item) error {
	scaled, ok := affIname(iname).scale(step)
	if start.kind == vInt {
		val, ok2 := start.a.add(scaled, 1)
		if !ok || !ok2 {
			return errorAt(p, "the loop overflows")
		}
		v.kind, v.val, v.scope = "int", val, -1
		return nil
	}
	if start.kind != vData || !isIntType(start.dtype) {
		return errorAt(p, "the loop's start is not an integer")
	}
	dtype := promote(start.dtype)
	text := start.text
	if !isIdent(text) {
		tmp := &array{name: t.unique(name + "_start"), dtype: dtype, space: "private", p: p}
		t.privs = append(t.privs, tmp)
		*outer = append(*outer, &item{kind: "instr", text: tmp.name + " = " + text, p: p})
		text = tmp.name
	}
	inc := t.instrAff(scaled)
	if strings.HasPrefix(inc, "-") {
		text += " - " + inc[1:]
	} else {
		text += " + " + inc
	}
	j := &array{name: t.unique(name), dtype: dtype, space: "private", p: p}
	t.privs = append(t.privs, j)
	t.emit(&item{kind: "instr", text: j.name + " = " + text, p: p})
	v.kind, v.name, v.dtype, v.scope = "data", j.name, dtype, -1
	return nil
}

// monotone reports whether the loop condition e holds for a first run
// of iterations and for none after: comparisons, joined by &&, of the
// loop's variable alone with what does not mention it, in the direction
// of the step's sign (name < end where it steps up).
func (t *translator) monotone(e *expr, name string, sgn int) bool {
	if e.op == "binary" && e.text == "&&" {
		return t.monotone(e.args[0], name, sgn) && t.monotone(e.args[1], name, sgn)
	}
	if e.op != "binary" || sgn == 0 {
		return false
	}
	up := map[string]int{"<": 1, "<=": 1, ">": -1, ">=": -1}
	dir, ok := up[e.text]
	if !ok {
		return false
	}
	l, r := e.args[0], e.args[1]
	isVar := func(x *expr) bool { return x.op == "id" && x.text == name }
	switch {
	case isVar(l) && !mentions(r, name):
		return dir == sgn
	case isVar(r) && !mentions(l, name):
		return dir == -sgn
	}
	return false
}
