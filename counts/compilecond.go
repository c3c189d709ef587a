package counts

// This file compiles conditions and conditional values. A condition is
// compiled to an integer expression that is 1 where it holds and 0
// elsewhere.

func (in *interp) compileCompare(e *Compare, cx *cctx) (cval, error) {
	xy, err := in.compileAll(cx, e.X, e.Y)
	if err != nil {
		return cval{}, err
	}
	x, y, op := xy[0], xy[1], e.Op
	if x.f != nil {
		return cval{i: func(st *state) int64 { return truth(compare(op, x.f(st), y.f(st))) }}, nil
	}
	return cval{i: func(st *state) int64 {
		a, b := x.i(st), y.i(st)
		return truth(compare(op, a, b))
	}}, nil
}

// compare applies a comparison; float NaNs compare as in C.
func compare[T int64 | float64](op CmpOp, a, b T) bool {
	switch op {
	case CmpLT:
		return a < b
	case CmpLE:
		return a <= b
	case CmpGT:
		return a > b
	case CmpGE:
		return a >= b
	case CmpEQ:
		return a == b
	}
	return a != b
}

func truth(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// compileLogic compiles and, or and not; the second operand of and and or
// is evaluated only when the first does not decide.
func (in *interp) compileLogic(e Expr, cx *cctx) (cval, error) {
	if n, ok := e.(*Not); ok {
		x, err := in.compileExpr(n.X, cx)
		if err != nil {
			return cval{}, err
		}
		return cval{i: func(st *state) int64 { return 1 - x.i(st) }}, nil
	}
	l := e.(*Logic)
	xy, err := in.compileAll(cx, l.X, l.Y)
	if err != nil {
		return cval{}, err
	}
	x, y := xy[0], xy[1]
	if l.Or {
		return cval{i: func(st *state) int64 {
			if x.i(st) != 0 {
				return 1
			}
			return y.i(st)
		}}, nil
	}
	return cval{i: func(st *state) int64 {
		if x.i(st) == 0 {
			return 0
		}
		return y.i(st)
	}}, nil
}

// compileConditional compiles if(c, a, b), which evaluates one branch,
// and select(b, a, c), which evaluates both.
func (in *interp) compileConditional(e *Conditional, cx *cctx) (cval, error) {
	v, err := in.compileAll(cx, e.Cond, e.Then, e.Else)
	if err != nil {
		return cval{}, err
	}
	c, a, b := v[0].i, v[1], v[2]
	if a.f != nil {
		return cval{f: choose(c, a.f, b.f, e.Eager)}, nil
	}
	return cval{i: choose(c, a.i, b.i, e.Eager)}, nil
}

// choose returns a where c holds and b elsewhere, evaluating both (b
// first) when eager.
func choose[T int64 | float64](c func(*state) int64, a, b func(*state) T, eager bool) func(*state) T {
	if eager {
		return func(st *state) T {
			y, x := b(st), a(st)
			if c(st) != 0 {
				return x
			}
			return y
		}
	}
	return func(st *state) T {
		if c(st) != 0 {
			return a(st)
		}
		return b(st)
	}
}
