package tune

import (
	"errors"
	"fmt"
)

// ExprError is an error in an expression of a space, at a 1-based line
// and column of the expression's text.
type ExprError struct {
	Line, Col int
	Msg       string
}

func (e *ExprError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// ErrTooLarge is wrapped by the errors of a space or a table beyond the
// bounds this package keeps memory and time within.
var ErrTooLarge = errors.New("too large")

// ErrInvalid is wrapped by the error of a configuration that cannot run:
// the kernel refuses its binding of the consts (a split that leaves an
// extent empty, a bound the domains break), or the device cannot launch
// it (too many work-items a group, too much local memory). Rank and tune
// --measure skip such configurations, with their count and reasons,
// rather than fail.
var ErrInvalid = errors.New("invalid configuration")
