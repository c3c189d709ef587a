package counts

import "fmt"

// DType is the element type of an array, temporary or expression.
type DType uint8

// The supported element types. Inames and parameters used as values have
// type I32, as in loopy. Bool is the type of conditions (comparisons and
// their combinations with and, or and not); no array or temporary has it,
// and no arithmetic takes it.
const (
	F32 DType = iota + 1
	F64
	I32
	I64
	Bool
	// The 8- and 16-bit integers are storage types, as in C: arithmetic
	// promotes them to I32 first (see narrow.go).
	I8
	U8
	I16
	U16
	// F16 is half precision, a storage type too: a load gives an F32
	// value, and a store rounds to nearest even (see f16.go).
	F16
	// U32 is C's unsigned int: arithmetic modulo 2^32, unsigned
	// comparisons, and i32 operands converted to it (see unsigned.go).
	U32
)

var dtypeNames = map[string]DType{
	"f32": F32, "float32": F32,
	"f64": F64, "float64": F64,
	"i32": I32, "int32": I32,
	"i64": I64, "int64": I64,
	"i8": I8, "int8": I8, "u8": U8, "uint8": U8,
	"i16": I16, "int16": I16, "u16": U16, "uint16": U16,
	"f16": F16, "float16": F16,
	"u32": U32, "uint32": U32,
}

func parseDType(s string) (DType, bool) {
	t, ok := dtypeNames[s]
	return t, ok
}

func (t DType) String() string {
	switch t {
	case F32:
		return "f32"
	case F64:
		return "f64"
	case I32:
		return "i32"
	case I64:
		return "i64"
	case Bool:
		return "bool"
	case I8:
		return "i8"
	case U8:
		return "u8"
	case I16:
		return "i16"
	case U16:
		return "u16"
	case F16:
		return "f16"
	case U32:
		return "u32"
	}
	return fmt.Sprintf("DType(%d)", uint8(t))
}

// IsFloat reports whether t is a floating-point type.
func (t DType) IsFloat() bool { return t == F32 || t == F64 || t == F16 }

// IsInt reports whether t is an integer type.
func (t DType) IsInt() bool { return t == I32 || t == I64 || t == U32 || t.Narrow() }

// Size is the size of one element in bytes.
func (t DType) Size() int {
	switch t {
	case F32, I32, U32:
		return 4
	case F64, I64:
		return 8
	case I8, U8:
		return 1
	case I16, U16, F16:
		return 2
	}
	return 0
}

// Narrow reports whether t is an 8- or 16-bit integer type.
func (t DType) Narrow() bool { return t == I8 || t == U8 || t == I16 || t == U16 }

// Storage reports whether t is a type that memory holds but no operation
// takes: the narrow integers, which arithmetic promotes to I32, and F16,
// which it promotes to F32.
func (t DType) Storage() bool { return t.Narrow() || t == F16 }

// MemName names t in a memory property: its own name, but b8 and b16 for
// the 8- and 16-bit integers, whose loads and stores cost what their
// width costs, signed or not (global.load.b8.stride=1, local.store.b16),
// and i32 for u32 by the same rule: a 32-bit integer load is one
// instruction whatever its signedness, and i32's rows price it.
// F16 keeps its own name (global.load.f16.stride=1): its loads and
// stores convert to and from f32 as well.
func (t DType) MemName() string {
	switch t {
	case I8, U8:
		return "b8"
	case I16, U16:
		return "b16"
	case U32:
		return "i32"
	}
	return t.String()
}

// integer is a Go type that holds an integer array's elements.
type integer interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | int64
}
