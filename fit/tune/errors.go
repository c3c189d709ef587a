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
