package cimport

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// loopOverData translates the loop over name, which starts at init and
// whose iterations trip bounds: as a data-bounded loop where the
// language has one for it, else as a masked loop.
func (t *translator) loopOverData(s *stmt, name string, init *expr, trip string) error {
	flag := "--trips " + name + "=" + trip
	t.tripped[name] = true
	step, ok := t.loopStep(s.step, name)
	if !ok || len(step) == 0 {
		return errorAt(s.p, "the loop over %s (%s) must step by a constant: for (%s = START; %s < END; %s += STEP)", name, flag, name, name, name)
	}
	sgn, _ := t.sign(step)
	if s.e == nil || !t.monotone(s.e, name, sgn) {
		return errorAt(s.p, "the condition of the loop over %s (%s) must be comparisons of %s with what the loop does not change, %s < END (%s > END where it steps down), joined by &&: then it holds for the first iterations and no later one", name, flag, name, name, name)
	}
	bound, err := t.flagValue(trip, t.macros, flag)
	if err != nil {
		return err
	}
	for m := range bound {
		if strings.Contains(m, "*") && !t.constLike(poly{m: 1}) {
			return &Error{Msg: flag + ": the bound must be linear in the sizes (a size parameter, maxrl, or n + 2)"}
		}
	}
	start, err := t.eval(init)
	if err != nil {
		return err
	}
	lo, hi, why, err := t.dataLoopBounds(s, name, init, start, step)
	if err != nil {
		return err
	}
	if why == "" {
		return t.boundedLoop(s, name, lo, hi, bound, flag)
	}
	return t.maskedLoop(s, name, init, start, step, bound, flag, why)
}

// dataLoopBounds gives LO and HI of the data-bounded loop for j = LO ..
// HI max N that C's loop over name is, or says why the language's loop
// cannot be it (then it is masked): the step must be 1, the condition
// name < HI with HI a variable, a size or a literal that the body does
// not assign, both 32-bit signed integers (C compares an int with an
// unsigned end as unsigned), and the start data or an integer literal.
// A start that is an expression of data is read into a temporary before
// the loop, as C reads it once.
func (t *translator) dataLoopBounds(s *stmt, name string, init *expr, start *value, step poly) (lo, hi, why string, err error) {
	if !step.equal(constPoly(1)) {
		return "", "", fmt.Sprintf("it steps by %s, where the data-bounded loop steps by 1", step), nil
	}
	c := s.e
	var end *expr
	switch {
	case c.op == "binary" && c.text == "<" && c.args[0].op == "id" && c.args[0].text == name:
		end = c.args[1]
	case c.op == "binary" && c.text == ">" && c.args[1].op == "id" && c.args[1].text == name:
		end = c.args[0]
	default:
		return "", "", fmt.Sprintf("its condition is not %s < END, the data-bounded loop's", name), nil
	}
	if end.op == "id" && assignments(s.then, end.text) > 0 {
		return "", "", fmt.Sprintf("its body assigns its end %s", end.text), nil
	}
	if init.op == "id" && assignments(s.then, init.text) > 0 {
		return "", "", fmt.Sprintf("its body assigns its start %s", init.text), nil
	}
	hv, err := t.eval(end)
	if err != nil {
		return "", "", "", err
	}
	switch {
	case hv.kind == vData && isIdent(hv.text) && promote(hv.dtype) == "i32":
		hi = hv.text
	case hv.kind == vInt:
		if hi = t.boundText(hv.a); hi == "" {
			return "", "", fmt.Sprintf("its end %s is no single name or literal (compute it into a variable before the loop)", t.instrAff(hv.a)), nil
		}
	case hv.kind == vData && end.op == "id" && promote(hv.dtype) != "i32":
		// C compares an int index with an unsigned or long end in the
		// end's type, which the language's loop, all i32, does not.
		return "", "", fmt.Sprintf("its end %s is %s, where the data-bounded loop's bounds are i32 (declare %s int)", end.text, hv.dtype, end.text), nil
	default:
		return "", "", "its end is data computed in the condition, which C evaluates at every trip (compute it into a variable before the loop)", nil
	}
	switch {
	case start.kind == vInt:
		if lo = t.boundText(start.a); lo == "" || !isDigits(lo) {
			return "", "", fmt.Sprintf("it starts at %s, affine but no literal: as data its subscripts would lose their strides", t.instrAff(start.a)), nil
		}
	case start.kind == vData && promote(start.dtype) == "i32":
		lo = start.text
		if !isIdent(lo) {
			tmp := &array{name: t.unique(name + "_start"), dtype: "i32", space: "private", p: init.p}
			t.privs = append(t.privs, tmp)
			t.emit(&item{kind: "instr", text: tmp.name + " = " + lo, p: init.p})
			lo = tmp.name
		}
	case start.kind == vData:
		return "", "", fmt.Sprintf("its start is %s, where the data-bounded loop's bounds are i32 (make it int)", start.dtype), nil
	default:
		return "", "", "the loop's start is not a 32-bit integer", nil
	}
	return lo, hi, "", nil
}

// boundText writes an affine bound as the data-bounded loop takes it, a
// name (a size or an iname) or a literal not below 0, or "" where it is
// neither.
func (t *translator) boundText(a aff) string {
	if p, ok := a.poly(); ok {
		if c, ok := p.constant(); ok {
			if c < 0 {
				return ""
			}
			return formatInt(c)
		}
	}
	if text := t.instrAff(a); isIdent(text) {
		return text
	}
	return ""
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// boundedLoop translates C's loop over name as the data-bounded loop for
// J = lo .. hi max N. Where lo is a literal, J is an iname from lo and
// the variable's value, so that subscripts stay affine; else J is also
// the private temporary the language declares, holding its value (data).
func (t *translator) boundedLoop(s *stmt, name, lo, hi string, bound poly, flag string) error {
	iname := t.unique(name)
	t.inames = append(t.inames, iname)
	t.notes = append(t.notes, fmt.Sprintf("loop over %s at line %d: from %s to %s - 1, at most %s trips (%s); its bounds are data, so what it does counts as an upper bound", name, s.p.line, lo, hi, bound, flag))
	v := t.lookup(name)
	if isDigits(lo) {
		v.kind, v.val, v.scope = "int", affIname(iname), -1
	} else {
		v.kind, v.name, v.dtype, v.scope = "data", iname, "i32", -1
	}
	it := &item{kind: "datafor", iname: iname, text: fmt.Sprintf("%s = %s .. %s max %s", iname, lo, hi, bound), p: s.p}
	return t.dataLoopBody(it, v, func(*[]*item) error {
		t.inData = append(t.inData, it)
		err := t.block([]*stmt{s.then})
		t.inData = t.inData[:len(t.inData)-1]
		return err
	})
}

// maskedLoop translates the loop over name, which starts at init and
// steps by step, as an iname over its trips below bound whose body runs
// under the loop's condition; why says why it is no data-bounded loop.
func (t *translator) maskedLoop(s *stmt, name string, init *expr, start *value, step, bound poly, flag, why string) error {
	iname := t.unique(name + "_it")
	t.inames = append(t.inames, iname)
	last, _ := bound.add(constPoly(1), -1)
	upper, _ := affConst(last).add(affIname(iname), -1)
	// The iname joins the launch's domain, as a hand port writes it: an
	// instruction of the body that reads no launch index (t += val[j]
	// * vec[col]) then counts inside the guard, where a domain of its own
	// would count it over every work-item launched.
	t.dataInames = append(t.dataInames, iname)
	t.dataBounds = append(t.dataBounds, &cond{op: "cmp", rel: ">=", e: affIname(iname)}, &cond{op: "cmp", rel: ">=", e: upper})
	t.notes = append(t.notes, fmt.Sprintf("loop over %s at line %d: at most %s iterations (%s); its bounds are data, so what it does counts as an upper bound; a masked loop over %s, as %s", name, s.p.line, bound, flag, iname, why))
	v := t.lookup(name)
	it := &item{kind: "for", iname: iname, p: s.p}
	return t.dataLoopBody(it, v, func(outer *[]*item) error {
		if err := t.bindDataIndex(v, name, start, step, iname, init.p, outer); err != nil {
			return err
		}
		c, err := t.condition(s.e)
		if err != nil {
			return err
		}
		return t.under(c, s.p, func() error { return t.block([]*stmt{s.then}) }, nil)
	})
}

// dataLoopBody translates the body of it, the loop over the C variable
// v, with body inside a scope and a loop frame of its own (outer is the
// list it goes into), then emits it; v has no value after it.
func (t *translator) dataLoopBody(it *item, v *variable, body func(outer *[]*item) error) error {
	outer, scope := t.cur, t.scope
	t.cur = &it.body
	t.inLoop++
	t.frames = append(t.frames, &frame{loop: true, induction: map[*variable]bool{}})
	t.nscopes++
	t.scope = t.nscopes
	err := body(outer)
	t.frames = t.frames[:len(t.frames)-1]
	t.inLoop--
	t.cur, t.scope = outer, scope
	if err != nil {
		return err
	}
	t.emit(it)
	v.kind, v.why = "undef", "is the index of a loop that has ended; its value there is not known"
	return nil
}

// A loop whose bounds are data, CSR's for (j = start; j < end; j++) with
// start and end read from the row pointers, has no domain. Given the
// most iterations it runs (--trips j=maxrl), it becomes the language's
// data-bounded loop, for j = start .. end max maxrl, generated as C's
// loop, whose body counts maxrl times, an upper bound. What that loop
// cannot say (a step other than 1, an end that is no single name, an
// affine start that is no literal, whose subscripts would lose their
// strides as data) becomes a masked loop instead: an iname over 0 <=
// j_it < maxrl whose body runs under the loop's condition, also an upper
// bound.

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
		return errorAt(p, "the start of the loop over %s is not an integer; convert it with (int)(...), which truncates", name)
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
