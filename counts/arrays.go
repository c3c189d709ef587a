package counts

// Space is where an array lives.
type Space uint8

// Memory spaces.
const (
	Global  Space = iota // kernel argument in global memory
	Local                // per work-group local (shared) memory
	Private              // per work-item temporary (registers)
	// Argument is a scalar kernel argument ("scalar alpha f32"): passed
	// by value, read-only, in a register of every work-item, so that
	// reading it is no memory traffic.
	Argument
)

func (s Space) String() string {
	return [...]string{"global", "local", "private", "argument"}[s]
}

// Array is a global array or a temporary. Shape entries are affine in the
// parameters (constant for local and private arrays); a scalar has no
// shape. Elements are stored row-major unless ColMajor. Value is an
// Argument's value where no other is given (its declared value, or 1),
// and zero for every other array. ReadOnly marks a global array declared
// readonly: the kernel never stores to it, so its loads may go through
// the read-only data cache (CUDA's __ldg, const restrict pointers), and
// they count as global.ldg properties.
type Array struct {
	Name     string
	DType    DType
	Space    Space
	Shape    []Affine
	ColMajor bool
	ReadOnly bool
	Pos      Pos
	Value    Number
}

// Number is a value of a numeric type: Int holds it for integer types,
// Float for floating-point types.
type Number struct {
	Int   int64
	Float float64
}
