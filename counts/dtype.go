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
)

var dtypeNames = map[string]DType{
	"f32": F32, "float32": F32,
	"f64": F64, "float64": F64,
	"i32": I32, "int32": I32,
	"i64": I64, "int64": I64,
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
	}
	return fmt.Sprintf("DType(%d)", uint8(t))
}

// IsFloat reports whether t is a floating-point type.
func (t DType) IsFloat() bool { return t == F32 || t == F64 }

// IsInt reports whether t is an integer type.
func (t DType) IsInt() bool { return t == I32 || t == I64 }

// Size is the size of one element in bytes.
func (t DType) Size() int {
	switch t {
	case F32, I32:
		return 4
	case F64, I64:
		return 8
	}
	return 0
}
