package counts

import "strings"

// annotation is the parsed {KEY=VALUE, ...} suffix of an instruction or
// barrier, in loopy's syntax:
//
//	id=NAME            the statement's id
//	dep=ID:ID:...      statements it depends on; an ID may hold * wildcards,
//	                   and a leading * (loopy: the list is exhaustive) is
//	                   accepted, so dep=* says there are none
//	inames=I:J:...     inames it runs in besides those it mentions (loopy's
//	                   leading + is accepted)
//	if=COND:COND:...   it runs where every condition holds (loopy's if=); a
//	                   number as a condition holds where it is not zero
//	tags=T:T:...       labels, loopy's instruction tags; they change nothing
type annotation struct {
	id      token
	deps    []depRef
	inames  []token
	conds   []rexpr
	condPos Pos
	tags    []token
}

// depRef is one entry of dep=: an id, or a pattern with * wildcards.
type depRef struct {
	text string
	pos  Pos
}

const annotationKeys = "id, dep, inames, if or tags"

func (c *cursor) parseAnnotation() annotation {
	var a annotation
	if !c.accept("{") {
		return a
	}
	seen := map[string]bool{}
	for !c.accept("}") {
		key := c.ident("an annotation key (" + annotationKeys + ")")
		if seen[key.text] {
			c.failAt(key.pos, "annotation %s given twice", key.text)
		}
		seen[key.text] = true
		c.expect("=")
		switch key.text {
		case "id":
			a.id = c.ident("a name")
			if c.peek().is(":") {
				c.failAt(c.peek().pos, "an instruction has one id")
			}
		case "dep":
			a.deps = c.parseDeps()
		case "inames":
			c.accept("+")
			a.inames = c.parseNames()
		case "if":
			a.condPos = c.peek().pos
			a.conds = append(a.conds, c.parseExpr())
			for c.accept(":") {
				a.conds = append(a.conds, c.parseExpr())
			}
		case "tags":
			a.tags = c.parseNames()
		default:
			c.failAt(key.pos, "unknown annotation %q (want %s)", key.text, annotationKeys)
		}
		if !c.peek().is("}") {
			c.expect(",")
		}
	}
	return a
}

// parseNames reads NAME{:NAME}.
func (c *cursor) parseNames() []token {
	names := []token{c.ident("a name")}
	for c.accept(":") {
		names = append(names, c.ident("a name"))
	}
	return names
}

// parseDeps reads the value of dep=: an optional leading *, then entries
// separated by ':', each written without spaces from names and *.
func (c *cursor) parseDeps() []depRef {
	if t := c.peek(); t.is("*") {
		c.next()
		if u := c.peek(); u.is(",") || u.is("}") {
			return nil
		}
	}
	var deps []depRef
	for {
		start := c.peek()
		var b strings.Builder
		end := start.pos
		for t := c.peek(); (t.kind == tIdent || t.kind == tInt || t.is("*")) && t.pos == end; t = c.peek() {
			b.WriteString(t.text)
			end = Pos{t.pos.Line, t.pos.Col + len(t.text)}
			c.next()
		}
		if b.Len() == 0 {
			c.expected("a statement id")
		}
		deps = append(deps, depRef{b.String(), start.pos})
		if !c.accept(":") {
			return deps
		}
	}
}
