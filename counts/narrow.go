package counts

import "math"

// 8- and 16-bit integers (i8, u8, i16, u16) are storage types, as C's
// char and short: an array or temporary holds them, a load reads them at
// their width (global.load.b8, local.store.b16, ...), and arithmetic
// promotes them to i32 first (C's integer promotions), so that every
// operation on them counts as an i32 one. A value converted to one of
// them must lie in its range, as every integer conversion must.
// Half precision, the other storage type, is in f16.go.

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
	case U32:
		return 0, math.MaxUint32
	}
	return math.MinInt64, math.MaxInt64
}

// inRange reports whether v is a value of integer type t.
func inRange(t DType, v int64) bool {
	lo, hi := intRange(t)
	return lo <= v && v <= hi
}

// promote is the type arithmetic takes a storage type to: C's integer
// promotion of a narrow integer to i32, and a half's conversion to f32
// (vload_half, __half2float).
func promote(t DType) DType {
	switch {
	case t.Narrow():
		return I32
	case t == F16:
		return F32
	}
	return t
}

// elementType reads a declared type, naming f16 where C's half is
// written.
func (c *cursor) elementType(what string) DType {
	dt := c.ident(what + " (f32, f64, i32, i64, u32, i8, u8, i16, u16, f16)")
	if dt.text == "half" || dt.text == "__half" {
		c.failAt(dt.pos, "%s: write f16, the half-precision storage type", dt.text)
	}
	t, ok := parseDType(dt.text)
	if !ok {
		if w, c99 := cTypeNames[dt.text]; c99 {
			c.failAt(dt.pos, "%s is C's name: write %s", dt.text, w)
		}
		c.failAt(dt.pos, "unknown element type %q (want f32, f64, i32, i64, u32, i8, u8, i16, u16 or f16)", dt.text)
	}
	return t
}

// promoted converts a value of a storage type to the type arithmetic
// takes, as C does before arithmetic on it.
func promoted(x Expr) Expr {
	if t := x.Type(); t.Storage() {
		return &Cast{X: x, T: promote(t)}
	}
	return x
}

// cTypeNames are C's names of the element types, which a declaration
// spells as the language does.
var cTypeNames = map[string]string{
	"float": "f32", "double": "f64", "int": "i32", "long": "i64", "int32_t": "i32", "int64_t": "i64",
	"unsigned": "u32", "uint": "u32", "uint32_t": "u32",
	"char": "i8", "uchar": "u8", "short": "i16", "ushort": "u16", "int8_t": "i8", "uint8_t": "u8", "int16_t": "i16", "uint16_t": "u16",
}
