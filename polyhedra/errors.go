package polyhedra

import "errors"

// Sentinel errors, wrapped with %w by the errors that report them, so
// that a caller may test for them with errors.Is. The package's error
// types (SyntaxError, UnboundedError, ComplexityError, BudgetError) stay
// beside the code that fills them in.
var (
	// ErrOverflow is wrapped by every error caused by a value that does
	// not fit in 64 bits: a coefficient of a constraint, a floor division
	// while evaluating, an evaluated count. The package never returns a
	// wrapped-around number instead.
	ErrOverflow = errors.New("integer overflow")

	// ErrNotAffine is wrapped by the error of Max when the difference of
	// two polynomials it compares is not affine in the parameters and
	// divs, so that the region where one is larger is not a set of affine
	// constraints.
	ErrNotAffine = errors.New("difference of polynomials is not affine")
)

var (
	// errUnbounded reports that a dimension has no lower or no upper bound
	// in a non-empty part of a set being counted; count names the
	// dimension.
	errUnbounded = errors.New("unbounded")

	// errExists is a condition with exists that CountAt was asked to
	// test point by point.
	errExists = errors.New("a condition with exists cannot be tested point by point in the enumeration: " +
		"write it without exists (exists e : i = 2e is i mod 2 = 0, exists e : 4e <= i <= 4e + 1 is i mod 4 <= 1), " +
		"or raise --max-pieces so that the set is counted symbolically")
)
