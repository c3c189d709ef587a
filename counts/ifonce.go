package counts

import (
	"fmt"
	"slices"
)

// C tests an if's condition once, where the if starts; the .knl
// predicates each statement of an if block by the block's condition,
// evaluated again before each. The two differ where the condition costs
// something to evaluate: its loads and operations would count once per
// statement instead of once (bfs' "if (mask[tid]) { four stores }" loads
// mask[tid] once; hotspot's affine guard on 14*bx - 1 + tx computes it
// once); and where a statement of the block assigns what the condition
// reads and another follows it, the later one sees the new value
// (kmeans' "if (dist < min_dist) { min_dist = dist; index = i; }" would
// never set index). There, in blocks of more than one statement or of
// one inside a for block of its own, the conditions are computed once,
// before the block, into private i32 temporaries named ifcond_LINE_COL
// after the if's position (ifcond_LINE_COL_K for the K-th elif; 1 where
// the condition holds, 0 where not), and the statements test those: C's
// semantics and counts. Counting reads such a temporary as the condition
// it holds (heldCond), so that an affine condition still bounds the
// statements exactly. Other conditions, which cost nothing to test
// again (comparisons of inames, parameters and temporaries that no
// statement of the block changes), stay predicates.

// snapshotConds closes if block bl, whose statements are
// b.statements[bl.start:]: where its conditions cost something, or the
// statements reassign what they read, it inserts the temporaries that
// hold the conditions before the block and predicates the statements by
// them.
func (b *builder) snapshotConds(bl *block) {
	body := b.statements[bl.start:]
	if bl.static || len(body) == 0 || len(body) == 1 && len(body[0].inames) == len(bl.outer.inames) {
		return
	}
	if !reassignsCond(bl.conds, body) && !costly(bl.conds) {
		return
	}
	var names []token
	for _, c := range bl.conds {
		walkRaw(c, func(x rexpr) {
			if n, ok := x.(*rName); ok {
				names = append(names, n.t)
			}
		})
	}
	repl := map[rexpr]rexpr{}
	snaps := make([]rawStatement, len(bl.conds))
	for k, cond := range bl.conds {
		at := cond.rpos()
		name := token{tIdent, fmt.Sprintf("ifcond_%d_%d", bl.kw.pos.Line, bl.kw.pos.Col), bl.kw.pos}
		if k > 0 {
			name.text += fmt.Sprintf("_%d", k)
		}
		s := rawStatement{pos: bl.kw.pos, synthetic: true,
			inames: slices.Clone(bl.outer.inames), preds: slices.Clone(bl.outer.preds)}
		t := I32
		s.decl, s.declType = true, &t
		s.lhs = &rName{t: name}
		s.rhs = &rCall{token{tIdent, "if", at}, []rexpr{cond, &rNum{token{tInt, "1", at}}, &rNum{token{tInt, "0", at}}}}
		s.ann.id = name
		// Every test runs in the inames of all the block's conditions:
		// an elif's (i < 1) reads where the if's (i + j >= 2) failed, a
		// temporary of each (i, j), so it must be tested in the same
		// loops, not once an i after the loop over j has ended.
		s.condNames = slices.Clone(names)
		// elif's condition is tested only where the earlier ones fail,
		// as C's else if.
		for _, earlier := range bl.conds[:k] {
			s.preds = append(s.preds, &rUnary{"not", repl[earlier], at})
		}
		snaps[k] = s
		repl[cond] = &rBin{"!=", &rName{t: name}, &rNum{token{tInt, "0", at}}, at}
	}
	for i := range body {
		// A statement runs in the inames its conditions name: tested
		// through a temporary, it still does (bfs' g_over[0] = 1 under
		// mask[tid] runs where tid does).
		body[i].condNames = append(body[i].condNames, names...)
		for j, p := range body[i].preds {
			if r, ok := repl[p]; ok {
				body[i].preds[j] = r
			} else if u, ok := p.(*rUnary); ok && u.op == "not" && repl[u.x] != nil {
				body[i].preds[j] = &rUnary{"not", repl[u.x], u.at}
			}
		}
	}
	b.statements = slices.Insert(b.statements, bl.start, snaps...)
}

// reassignsCond reports whether a statement of body, other than the
// last, assigns an array or temporary that one of conds reads.
func reassignsCond(conds []rexpr, body []rawStatement) bool {
	read := map[string]bool{}
	for _, c := range conds {
		namesRead(c, read)
	}
	for _, s := range body[:max(len(body)-1, 0)] {
		switch l := s.lhs.(type) {
		case *rName:
			if read[l.t.text] {
				return true
			}
		case *rSub:
			if read[l.t.text] {
				return true
			}
		}
	}
	return false
}

// costly reports whether evaluating one of conds counts something: it
// loads an array element, or computes (arithmetic, a function, a
// reduction) on something other than literals; comparisons, and, or,
// not, conversions, reads of temporaries and arithmetic on literals
// (folded) are free, so testing them again costs nothing.
func costly(conds []rexpr) bool {
	found := false
	for _, c := range conds {
		walkRaw(c, func(x rexpr) {
			switch x := x.(type) {
			case *rSub, *rReduce:
				found = true
			case *rBin:
				found = found || !slices.Contains(freeOps, x.op) && !literal(x)
			case *rCall:
				found = found || x.t.text != "if" && x.t.text != "select" && !literal(x)
			}
		})
	}
	return found
}

// literal reports whether e is made of literals alone, which the reader
// folds into one.
func literal(e rexpr) bool {
	only := true
	walkRaw(e, func(x rexpr) {
		switch x.(type) {
		case *rName, *rSub, *rReduce:
			only = false
		}
	})
	return only
}

// freeOps are the binary operators that count nothing.
var freeOps = append([]string{"and", "or"}, cmpOps...)

// namesRead adds to read the names e reads: arrays, temporaries, inames
// and parameters alike.
func namesRead(e rexpr, read map[string]bool) {
	walkRaw(e, func(x rexpr) {
		switch x := x.(type) {
		case *rName:
			read[x.t.text] = true
		case *rSub:
			read[x.t.text] = true
		}
	})
}

// walkRaw calls visit on e and every expression inside it.
func walkRaw(e rexpr, visit func(rexpr)) {
	visit(e)
	switch e := e.(type) {
	case *rSub:
		for _, x := range e.idx {
			walkRaw(x, visit)
		}
	case *rBin:
		walkRaw(e.x, visit)
		walkRaw(e.y, visit)
	case *rNeg:
		walkRaw(e.x, visit)
	case *rUnary:
		walkRaw(e.x, visit)
	case *rCast:
		walkRaw(e.x, visit)
	case *rCall:
		for _, a := range e.args {
			walkRaw(a, visit)
		}
	case *rReduce:
		walkRaw(e.body, visit)
	}
}
