package counts

// Space is where an array lives.
type Space uint8

// Memory spaces.
const (
	Global  Space = iota // kernel argument in global memory
	Local                // per work-group local (shared) memory
	Private              // per work-item temporary (registers)
)

func (s Space) String() string {
	return [...]string{"global", "local", "private"}[s]
}

// Array is a global array or a temporary. Shape entries are affine in the
// parameters (constant for local and private arrays); a scalar has no
// shape. Elements are stored row-major unless ColMajor.
type Array struct {
	Name     string
	DType    DType
	Space    Space
	Shape    []Affine
	ColMajor bool
	Pos      Pos
}
