package polyhedra

import (
	"fmt"
)

// CountAt counts the integer points of the set src at the given parameter
// values by enumeration, without building the set whole. It is the
// fallback for a set whose conditions multiply into more basic sets than
// the budget allows even at fixed values: each x != c or x mod d != r
// doubles them, so seven dimensions with both need 4^7. For each piece it
// builds, within l, only the conjuncts that are linear comparisons, which
// must bound every dimension at these values, and tests each of their
// points against the whole condition; a point of several pieces counts
// once. It fails on a condition with exists, and past max points.
func CountAt(src string, params map[string]int64, l Limits, max int64) (n int64, err error) {
	defer catch(&err, "enumerating set")
	ast, err := parseSetAST(src)
	if err != nil {
		return 0, err
	}
	bd := &builder{params: ast.params, work: newBudget(l)}
	for _, pc := range ast.pieces {
		if pc.cond != nil {
			bd.collectParams(pc.cond, pc.dims)
		}
	}
	env := map[string]int64{}
	for _, p := range bd.params {
		v, ok := params[p]
		if !ok {
			return 0, fmt.Errorf("missing parameter %s", p)
		}
		env[p] = v
	}
	for i, pc := range ast.pieces {
		bounds := []*bset{newBset(len(bd.params), len(pc.dims))}
		if pc.cond != nil {
			if bounds, err = bd.linearPart(pc.cond, pc.dims); err != nil {
				return 0, err
			}
		}
		s := &Set{params: bd.params, dims: pc.dims, parts: bounds}
		var evalErr error
		err := s.EnumerateLimits(params, l, func(point []int64) bool {
			for k, d := range pc.dims {
				env[d] = point[k]
			}
			in, err := holdsInPiece(ast.pieces, i, env)
			if err != nil {
				evalErr = err
				return false
			}
			if in {
				n++
			}
			return n <= max
		})
		if err == nil {
			err = evalErr
		}
		if err != nil {
			return 0, err
		}
		if n > max {
			return 0, fmt.Errorf("more than %d points to enumerate", max)
		}
	}
	return n, nil
}

// linearPart builds the conjuncts of f that are linear comparisons: a
// superset of f's points.
func (bd *builder) linearPart(f fNode, dims []string) ([]*bset, error) {
	b := newBset(len(bd.params), len(dims))
	conj := chain(f)
	if _, ok := f.(*fAnd); !ok {
		conj = []fNode{f}
	}
	for _, t := range conj {
		if c, ok := t.(*fCmp); ok && plainComparison(c) {
			bd.compareInto(b, c, dims)
		}
	}
	return []*bset{b}, nil
}

// holdsInPiece reports whether the point in env satisfies piece i and no
// earlier piece, whose points were counted already.
func holdsInPiece(pieces []pieceAST, i int, env map[string]int64) (bool, error) {
	for j := 0; j <= i; j++ {
		in := true
		if c := pieces[j].cond; c != nil {
			var err error
			if in, err = holds(c, env); err != nil {
				return false, err
			}
		}
		if in {
			return j == i, nil
		}
	}
	return false, nil
}

// holds evaluates a condition at the point and parameter values of env.
func holds(f fNode, env map[string]int64) (bool, error) {
	switch n := f.(type) {
	case *fBool:
		return n.v, nil
	case *fAnd:
		l, err := holds(n.l, env)
		if err != nil || !l {
			return false, err
		}
		return holds(n.r, env)
	case *fOr:
		l, err := holds(n.l, env)
		if err != nil || l {
			return l, err
		}
		return holds(n.r, env)
	case *fNot:
		x, err := holds(n.x, env)
		return !x, err
	case *fCmp:
		for i, op := range n.ops {
			for _, x := range n.lists[i] {
				for _, y := range n.lists[i+1] {
					a, err := value(x, env)
					if err != nil {
						return false, err
					}
					b, err := value(y, env)
					if err != nil {
						return false, err
					}
					if !cmpHolds(op.text, a, b) {
						return false, nil
					}
				}
			}
		}
		return true, nil
	}
	return false, semErr(f.at(), "%v", errExists)
}

func cmpHolds(op string, a, b int64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	case "=":
		return a == b
	}
	return a != b
}

// value evaluates an expression, failing on overflow as the builder does.
func value(e eNode, env map[string]int64) (int64, error) {
	switch n := e.(type) {
	case *eNum:
		return n.v, nil
	case *eVar:
		return env[n.name], nil
	case *eNeg:
		x, err := value(n.x, env)
		return neg64(x), err
	case *eMinMax:
		var out int64
		for i, a := range n.args {
			v, err := value(a, env)
			if err != nil {
				return 0, err
			}
			if i == 0 || n.max && v > out || !n.max && v < out {
				out = v
			}
		}
		return out, nil
	case *eFloor:
		if d, ok := n.x.(*eBin); ok && d.op == "/" {
			a, b, err := operandValues(d, env)
			if err != nil || b <= 0 {
				return 0, divisorErr(d, b, err)
			}
			if n.ceil {
				return neg64(floorDiv(neg64(a), b)), nil
			}
			return floorDiv(a, b), nil
		}
		return value(n.x, env)
	case *eBin:
		a, b, err := operandValues(n, env)
		if err != nil {
			return 0, err
		}
		switch n.op {
		case "+":
			return add64(a, b), nil
		case "-":
			return sub64(a, b), nil
		case "*":
			return mul64(a, b), nil
		case "%":
			if b <= 0 {
				return 0, divisorErr(n, b, nil)
			}
			return sub64(a, mul64(b, floorDiv(a, b))), nil
		}
		return 0, semErr(n.p, "division outside floor() or ceil()")
	}
	return 0, fmt.Errorf("polyhedra: unknown expression node")
}

func operandValues(n *eBin, env map[string]int64) (int64, int64, error) {
	a, err := value(n.l, env)
	if err != nil {
		return 0, 0, err
	}
	b, err := value(n.r, env)
	return a, b, err
}

func divisorErr(n *eBin, b int64, err error) error {
	if err != nil {
		return err
	}
	return semErr(n.p, "the divisor is %d, not a positive integer", b)
}

// ParamNames returns the parameters of the set src, declared or free, as
// ParseSet would take them, without building its basic sets: it tells a
// caller whose ParseSetLimits stopped at the budget whether the set can
// be counted at given values (CountAt) without any.
func ParamNames(src string) ([]string, error) {
	ast, err := parseSetAST(src)
	if err != nil {
		return nil, err
	}
	bd := &builder{params: ast.params}
	for _, pc := range ast.pieces {
		if pc.cond != nil {
			bd.collectParams(pc.cond, pc.dims)
		}
	}
	return bd.params, nil
}
