package counts

import "math"

// 8- and 16-bit integers (i8, u8, i16, u16) are storage types, as C's
// char and short: an array or temporary holds them, a load reads them at
// their width (global.load.b8, local.store.b16, ...), and arithmetic
// promotes them to i32 first (C's integer promotions), so that every
// operation on them counts as an i32 one. A value converted to one of
// them must lie in its range, as every integer conversion must.
// Half-precision floats are refused: PoCL, which checks the generated
// code, has no cl_khr_fp16.

// intRange is the range of integer type t.
func intRange(t DType) (lo, hi int64) {
	switch t {
	case I8:
		return math.MinInt8, math.MaxInt8
	case U8:
		return 0, math.MaxUint8
	case I16:
		return math.MinInt16, math.MaxInt16
	case U16:
		return 0, math.MaxUint16
	case I32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// inRange reports whether v is a value of integer type t.
func inRange(t DType, v int64) bool {
	lo, hi := intRange(t)
	return lo <= v && v <= hi
}

// promote is C's integer promotion: a narrow integer becomes i32.
func promote(t DType) DType {
	if t.Narrow() {
		return I32
	}
	return t
}

// elementType reads a declared type, refusing half precision with what
// to write instead.
func (c *cursor) elementType(what string) DType {
	dt := c.ident(what + " (f32, f64, i32, i64, i8, u8, i16, u16)")
	if dt.text == "f16" || dt.text == "float16" || dt.text == "half" {
		c.failAt(dt.pos, "%s is not supported: the OpenCL device that checks generated code (PoCL) has no cl_khr_fp16, so half-precision code could not be checked; store f32 (or u16 bits) instead", dt.text)
	}
	t, ok := parseDType(dt.text)
	if !ok {
		c.failAt(dt.pos, "unknown element type %q (want f32, f64, i32, i64, i8, u8, i16 or u16)", dt.text)
	}
	return t
}

// promoted converts a narrow integer value to i32, as C does before
// arithmetic on it.
func promoted(x Expr) Expr {
	if x.Type().Narrow() {
		return &Cast{X: x, T: I32}
	}
	return x
}
