package measurekernels

import "errors"

// errSkip reports that a case's program is unusable; the failure is
// already in the report.
var errSkip = errors.New("skipped")

// fatalError marks an error that stops the run (the table cannot be
// written); other errors belong to one kernel or case.
type fatalError struct{ err error }

func (e *fatalError) Error() string { return e.err.Error() }
func (e *fatalError) Unwrap() error { return e.err }

func fatal(err error) bool {
	var f *fatalError
	return errors.As(err, &f)
}
