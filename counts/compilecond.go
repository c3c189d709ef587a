package counts

// This file compiles conditions and conditional values. A condition is
// compiled to an integer expression that is 1 where it holds and 0
// elsewhere.

func (in *interp) compileCompare(e *Compare, cx *cctx) (cval, error) {
	x, err := in.compileExpr(e.X, cx)
	if err != nil {
		return cval{}, err
	}
	y, err := in.compileExpr(e.Y, cx)
	if err != nil {
		return cval{}, err
	}
	op := e.Op
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
	x, err := in.compileExpr(l.X, cx)
	if err != nil {
		return cval{}, err
	}
	y, err := in.compileExpr(l.Y, cx)
	if err != nil {
		return cval{}, err
	}
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
	c, err := in.compileExpr(e.Cond, cx)
	if err != nil {
		return cval{}, err
	}
	a, err := in.compileExpr(e.Then, cx)
	if err != nil {
		return cval{}, err
	}
	b, err := in.compileExpr(e.Else, cx)
	if err != nil {
		return cval{}, err
	}
	cond := c.i
	switch {
	case e.Eager && a.f != nil:
		return cval{f: func(st *state) float64 {
			x, y := b.f(st), a.f(st)
			if cond(st) != 0 {
				return y
			}
			return x
		}}, nil
	case e.Eager:
		return cval{i: func(st *state) int64 {
			x, y := b.i(st), a.i(st)
			if cond(st) != 0 {
				return y
			}
			return x
		}}, nil
	case a.f != nil:
		return cval{f: func(st *state) float64 {
			if cond(st) != 0 {
				return a.f(st)
			}
			return b.f(st)
		}}, nil
	}
	return cval{i: func(st *state) int64 {
		if cond(st) != 0 {
			return a.i(st)
		}
		return b.i(st)
	}}, nil
}
