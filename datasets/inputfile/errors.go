package inputfile

// Error is a file refused for what it is: an input that is not a regular
// file or is larger than MaxBytes, an output that is not a regular file
// or is one of the command's inputs. It is the user's input at fault, not
// the system.
type Error struct {
	Path   string
	Reason string
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }
