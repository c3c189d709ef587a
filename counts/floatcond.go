package counts

import "math"

// A comparison of floating-point values that are integer expressions,
// affine in inames and parameters, converted to f64 and divided by
// integer constants (loopy's k/2.0 == ell) is exact in f64 and so as
// affine as k == 2*ell: this file turns it into that set.

// maxFloatDen bounds the divisors ratValue accepts. The values are i32,
// below 2^31 in magnitude, where the spacing of f64 values is at most
// 2^-21; a quotient by d <= 2^20 that is not an integer lies at least
// 1/d >= 2^-20 from every integer, and from every other quotient p/d' at
// least 1/(d*d') apart, so rounding it to f64 never moves it across an
// integer or another quotient in a comparison of two of them, as long as
// d*d' <= 2^20 too (ratCompare checks).
const maxFloatDen = 1 << 20

// ratValue returns a float expression as q/den with q quasi-affine and den
// positive, or false when it is not one that f64 computes exactly: a
// conversion of an i32 affine value, an integer-valued literal, a
// negation, or a quotient of one of those by a positive integer literal.
func ratValue(e Expr) (q qaff, den int64, ok bool) {
	switch e := e.(type) {
	case *Cast:
		if e.T != F64 || e.X.Type() != I32 {
			return qaff{}, 0, false
		}
		q, ok := affineValue(e.X)
		return q, 1, ok
	case *Literal:
		v := e.Float
		if !e.T.IsFloat() {
			v = float64(e.Int)
		}
		if v != math.Trunc(v) || math.Abs(v) >= 1<<31 {
			return qaff{}, 0, false
		}
		return qconst(int64(v)), 1, true
	case *Neg:
		if e.Type() != F64 {
			return qaff{}, 0, false
		}
		q, den, ok := ratValue(e.X)
		if !ok {
			return qaff{}, 0, false
		}
		r, err := q.scale(-1)
		return r, den, err == nil
	case *Binary:
		if e.T != F64 || e.Op != OpDiv {
			return qaff{}, 0, false
		}
		q, den, ok := ratValue(e.X)
		d, one, ok2 := ratValue(e.Y)
		if !ok || !ok2 || den != 1 || one != 1 || !d.isConst() || d.c <= 0 || d.c > maxFloatDen {
			return qaff{}, 0, false
		}
		return q, d.c, true
	}
	return qaff{}, 0, false
}

// ratCompare returns x - y scaled to integers, x*dy - y*dx, for a
// comparison of two float values that ratValue accepts.
func ratCompare(c *Compare) (qaff, bool) {
	if !c.X.Type().IsFloat() && !c.Y.Type().IsFloat() {
		return qaff{}, false
	}
	x, dx, ok1 := ratValue(c.X)
	y, dy, ok2 := ratValue(c.Y)
	if !ok1 || !ok2 || dx*dy > maxFloatDen {
		return qaff{}, false
	}
	xs, err := x.scale(dy)
	if err != nil {
		return qaff{}, false
	}
	d, err := xs.addScaled(y, -dx)
	return d, err == nil
}
