package counts

import (
	"errors"
	"fmt"
)

// Pos is a position in a .knl file: 1-based line and column (in bytes).
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is a problem with a kernel: a syntax error, a semantic error such as
// a reference to an undeclared array, or an error found while evaluating the
// kernel at concrete parameters. File and Pos name the place when it is
// known (Pos.Line == 0 when it is not).
type Error struct {
	File string
	Pos  Pos
	Msg  string
	// Err is the error behind Msg, where a caller may act on its kind
	// (a count past its budget, a polyhedra budget, an overflow): errors.Is
	// and errors.As see through Error to it. Msg already includes its text.
	Err error
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	switch {
	case e.Pos.Line > 0 && e.File != "":
		return fmt.Sprintf("%s:%s: %s", e.File, e.Pos, e.Msg)
	case e.Pos.Line > 0:
		return fmt.Sprintf("%s: %s", e.Pos, e.Msg)
	case e.File != "":
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return e.Msg
}

// errorf formats an Error; the first error among args becomes its Err, so
// that the cause stays reachable through errors.Is and errors.As where
// formatting it with %v alone would keep only its text.
func errorf(file string, pos Pos, format string, args ...any) *Error {
	e := &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	for _, a := range args {
		if err, ok := a.(error); ok {
			e.Err = err
			break
		}
	}
	return e
}

// ErrTooLarge aborts an enumeration (CountAt, Run) that exceeds its
// budget of candidate values; the error that wraps it names the
// parameters.
var ErrTooLarge = errors.New("the domain is too large to enumerate")

// ErrNotWeighable is returned by Counted.Weighted for kernels whose
// properties cannot be folded into one sum: those with accesses whose
// stride class depends on the parameters, and those with a property the
// weights do not price (which must be checked to be zero wherever it is
// evaluated). The caller evaluates the properties one by one instead.
var ErrNotWeighable = errors.New("the properties cannot be folded into one weighted sum")

// boundHint ends the refusal of a domain that leaves iname unbounded
// with what to write: C's loops and launches bound each index on both
// sides.
func boundHint(iname string) string {
	return fmt.Sprintf("; bound %s on both sides in its domain (0 <= %s < n), as the original's loop or launch does", iname, iname)
}

// errOverflow reports an integer result that does not fit in int64. Counts
// are exact or an error; nothing in this package wraps around silently.
var errOverflow = errors.New("integer overflow")

// errFloorProduct refuses a product of a floor division and a
// non-constant.
var errFloorProduct = errors.New("a floor division or remainder times a non-constant is not quasi-affine")
