package counts

import (
	"math"
	"strconv"
	"strings"
)

// u32 is C's unsigned int, an arithmetic type as i32 is: arrays,
// temporaries and scalar arguments hold it, and operations on it compute
// what C computes. Arithmetic is modulo 2^32 (an overflow wraps, where an
// i32 one is an error), // and % are C's / and % (unsigned values round
// towards zero and towards negative infinity alike), >> shifts zeros in,
// and a comparison compares unsigned values. Mixed with i32 (or with the
// 8- and 16-bit integers, which promote to i32) an operation takes u32,
// C's usual arithmetic conversions: the i32 operand is converted modulo
// 2^32, so -1 < 1u is false. With i64 it takes i64, which holds every
// u32. Any integer converts to u32 modulo 2^32, as C converts to an
// unsigned type; a u32 converts to i32 only where it fits, as every
// other integer conversion must. The interpreter holds a u32 value as an
// int64 in [0, 2^32), so that comparisons, max, min and conversions to
// floating point take it as it is.
//
// Operations on u32 count as the i32 operations of the same kind
// (int.i32.add, ...) and its loads and stores as i32's (memName): the
// instructions are the same at the same width, and no measurement row
// sets them apart.

// wrapU32 converts v to u32 as C converts an integer to unsigned int:
// modulo 2^32.
func wrapU32(v int64) int64 { return int64(uint32(v)) }

// u32Binary evaluates an integer operator on u32 values, modulo 2^32;
// msg explains a failure (a division by zero, a shift count of 32 or
// more).
func u32Binary(op BinOp, a, b int64) (v int64, msg string) {
	x, y := uint32(a), uint32(b)
	switch op {
	case OpAdd:
		return int64(x + y), ""
	case OpSub:
		return int64(x - y), ""
	case OpMul:
		return int64(x * y), ""
	case OpFloorDiv, OpMod:
		if y == 0 {
			return 0, "integer division by zero"
		}
		if op == OpMod {
			return int64(x % y), ""
		}
		return int64(x / y), ""
	case OpShl, OpShr:
		if b < 0 || b >= 32 {
			return 0, "shift count " + strconv.FormatInt(b, 10) + " out of range for u32"
		}
		if op == OpShl {
			return int64(x << y), ""
		}
		return int64(x >> y), ""
	case OpBitAnd:
		return int64(x & y), ""
	case OpBitOr:
		return int64(x | y), ""
	case OpBitXor:
		return int64(x ^ y), ""
	}
	return 0, "operator " + op.String() + " on u32"
}

// opType is the type whose operation properties an operation of type t
// counts as: u32's are i32's.
func opType(t DType) DType {
	if t == U32 {
		return I32
	}
	return t
}

// negate is -v at integer type t; an i32 or i64 overflow is reported by
// ok, a u32 negation wraps as C's does.
func negate(v int64, t DType) (int64, bool) {
	switch {
	case t == U32:
		return wrapU32(-v), true
	case v == math.MinInt64 || (t == I32 && v == math.MinInt32):
		return 0, false
	}
	return -v, true
}

// complement is ^v at integer type t.
func complement(v int64, t DType) int64 {
	if t == U32 {
		return wrapU32(^v)
	}
	return ^v
}

// unsignedLiteral is the weak integer literal e converted to u32, as C
// converts the int it is: modulo 2^32. A literal beyond int's range is a
// long in C, beside which a u32 operand would be converted to long
// instead: it is refused with what to write.
func (r *resolver) unsignedLiteral(e *Literal) int64 {
	if !inRange(I32, e.Int) {
		if e.Int > 0 && e.Int <= math.MaxUint32 {
			r.fail(e.At, "literal %d is a long in C, not an int, so beside a u32 it would make the operation i64: write %du for the u32 value, or convert the other operand with (i64)", e.Int, e.Int)
		}
		r.fail(e.At, "literal %d is out of range for u32 (0 to 4294967295; an int literal from -2147483648 converts modulo 2^32)", e.Int)
	}
	return wrapU32(e.Int)
}

// intSuffix reads C's suffix of the integer literal t, the word written
// right after its digits: u makes it an unsigned literal (tUint), and
// the suffixes of long types are refused with what to write.
func (c *cursor) intSuffix(t token) token {
	u := c.peek()
	if u.kind != tIdent || u.pos.Line != t.pos.Line || u.pos.Col != t.pos.Col+len(t.text) {
		return t
	}
	switch strings.ToLower(u.text) {
	case "u":
		c.next()
		return token{tUint, t.text + u.text, t.pos}
	case "l", "ll", "ul", "lu", "ull", "llu":
		c.failAt(u.pos, "%s%s: the suffix %s makes a C long, and this language has no u64: write %s for an integer literal (it takes the type of what it meets), %su for a u32, or (i64)%s", t.text, u.text, u.text, t.text, t.text, t.text)
	}
	return t
}
