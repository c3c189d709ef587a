package cimport

// A loop stepped by k = j++ (pnpoly's for (j = 0; j < n; k = j++), the
// classic walk of a polygon's edges, k the vertex before j) has k at its
// value before the loop in the first iteration and at j - 1 after. It is
// translated as that first iteration, peeled (under if (j < n)), and a
// loop from the next j with k replaced by j - 1 in its body, so that
// both stay affine. After the loop k is n - 1 where the loop ran, set
// under the same if: where that if is not known at import, k has no
// value after it, and a read of it there is refused.

// trailing reports the variables of a loop step k = j++: ok is false
// for any other step.
func trailing(s *stmt) (k, j string, ok bool) {
	e := s.step
	if e == nil || e.op != "assign" || e.text != "=" || e.args[0].op != "id" {
		return "", "", false
	}
	r := e.args[1]
	if r.op != "post" || r.text != "++" || r.args[0].op != "id" || r.args[0].text == e.args[0].text {
		return "", "", false
	}
	return e.args[0].text, r.args[0].text, true
}

// peelTrailing rewrites the loop s stepped by k = j++ as its first
// iteration and a loop over the rest with k = j - 1.
func peelTrailing(s *stmt) (*stmt, error) {
	k, j, _ := trailing(s)
	c := s.e
	if c == nil || c.op != "binary" || c.text != "<" && c.text != "<=" || c.args[0].op != "id" || c.args[0].text != j {
		return nil, errorAt(s.p, "a loop stepped by %s = %s++ must test %s < BOUND", k, j, j)
	}
	if assignments(s.then, k) > 0 || assignments(s.then, j) > 0 {
		return nil, errorAt(s.p, "a loop stepped by %s = %s++ whose body changes %s or %s; step it by %s++ and compute %s from it", k, j, k, j, j, k)
	}
	start, init, err := trailStart(s.init, j, s.p)
	if err != nil {
		return nil, err
	}
	p := s.p
	one := &expr{op: "num", text: "1", p: p}
	id := func(n string) *expr { return &expr{op: "id", text: n, p: p} }
	first := &stmt{kind: "if", e: c, then: s.then, p: p}
	last := c.args[1]
	if c.text == "<" {
		last = &expr{op: "binary", text: "-", args: []*expr{c.args[1], one}, p: p}
	}
	from := start.e
	if start.kind == "decl" {
		from = start.decls[0].init
	} else {
		from = from.args[1]
	}
	after := &stmt{kind: "if", e: substExpr(c, j, from), p: p, then: &stmt{kind: "expr", p: p, e: &expr{op: "assign", text: "=", args: []*expr{id(k), last}, p: p}}}
	rest := *s
	rest.init = init
	rest.step = &expr{op: "post", text: "++", args: []*expr{id(j)}, p: p}
	rest.then = substStmt(s.then, k, &expr{op: "binary", text: "-", args: []*expr{id(j), one}, p: p})
	// j stays declared for the rest and the if after it: it was
	// declared by the loop, so a block keeps it from what follows.
	return &stmt{kind: "block", p: p, body: []*stmt{start, first, &rest, after}}, nil
}

// trailStart splits the loop's initialization of j into the statement
// that sets j to its start, before the first iteration, and the rest's
// initialization, j = j + 1.
func trailStart(init *stmt, j string, loop pos) (*stmt, *stmt, error) {
	if init == nil {
		return nil, nil, errorAt(loop, "a loop stepped by k = %s++ without an initialization of %s", j, j)
	}
	ok := init.kind == "decl" && len(init.decls) == 1 && init.decls[0].name == j && init.decls[0].init != nil ||
		init.kind == "expr" && init.e.op == "assign" && init.e.text == "=" && init.e.args[0].op == "id" && init.e.args[0].text == j
	if !ok {
		return nil, nil, errorAt(init.p, "a loop stepped by k = %s++ must start with %s = START alone", j, j)
	}
	p := init.p
	jv := &expr{op: "id", text: j, p: p}
	next := &expr{op: "binary", text: "+", args: []*expr{jv, {op: "num", text: "1", p: p}}, p: p}
	inc := &stmt{kind: "expr", p: p, e: &expr{op: "assign", text: "=", args: []*expr{jv, next}, p: p}}
	return init, inc, nil
}

// substStmt returns s with every read of the variable name replaced by
// with.
func substStmt(s *stmt, name string, with *expr) *stmt {
	if s == nil {
		return nil
	}
	out := *s
	out.e, out.step = substExpr(s.e, name, with), substExpr(s.step, name, with)
	out.init, out.then, out.els = substStmt(s.init, name, with), substStmt(s.then, name, with), substStmt(s.els, name, with)
	out.body = make([]*stmt, len(s.body))
	for i, b := range s.body {
		out.body[i] = substStmt(b, name, with)
	}
	out.decls = make([]decl, len(s.decls))
	for i, d := range s.decls {
		d.init = substExpr(d.init, name, with)
		out.decls[i] = d
	}
	return &out
}

func substExpr(e *expr, name string, with *expr) *expr {
	if e == nil {
		return nil
	}
	if e.op == "id" && e.text == name {
		return with
	}
	out := *e
	out.args = make([]*expr, len(e.args))
	for i, a := range e.args {
		out.args[i] = substExpr(a, name, with)
	}
	return &out
}
