package counts

// affineValue returns an integer expression as a quasi-affine expression
// of inames and parameters, or false when it is not one. A u32 value is
// not: it wraps modulo 2^32, and compares unsigned.
func affineValue(e Expr) (qaff, bool) {
	if e.Type() == U32 {
		return qaff{}, false
	}
	switch e := e.(type) {
	case *Literal:
		return qconst(e.Int), !e.T.IsFloat()
	case *Index:
		return e.Value.qaff(), true
	case *Access:
		if e.holds != nil {
			return e.holds.qaff(), true
		}
	case *Cast:
		if e.T.IsFloat() || e.X.Type().IsFloat() {
			return qaff{}, false
		}
		return affineValue(e.X)
	case *Neg:
		x, ok := affineValue(e.X)
		if !ok {
			return qaff{}, false
		}
		r, err := x.scale(-1)
		return r, err == nil
	case *Binary:
		return affineBinary(e)
	}
	return qaff{}, false
}

func affineBinary(e *Binary) (qaff, bool) {
	if e.T.IsFloat() {
		return qaff{}, false
	}
	x, ok1 := affineValue(e.X)
	y, ok2 := affineValue(e.Y)
	if !ok1 || !ok2 {
		return qaff{}, false
	}
	var r qaff
	var err error
	switch {
	case e.Op == OpAdd:
		r, err = x.addScaled(y, 1)
	case e.Op == OpSub:
		r, err = x.addScaled(y, -1)
	case e.Op == OpMul && x.isConst():
		r, err = y.scale(x.c)
	case e.Op == OpMul && y.isConst():
		r, err = x.scale(y.c)
	case e.Op == OpFloorDiv && y.isConst() && y.c > 0:
		r = floorOf(x, y.c)
	case e.Op == OpMod && y.isConst() && y.c > 0:
		r, err = x.addScaled(floorOf(x, y.c), -y.c)
	default:
		return qaff{}, false
	}
	return r, err == nil
}
