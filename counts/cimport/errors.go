package cimport

import "fmt"

// Error is a refusal or a syntax error, at a place of the C source.
type Error struct {
	File      string // the source's name
	Line, Col int    // 1-based; 0 where the cause is not a place of the source (a flag)
	Msg       string // what is wrong and what to write instead
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// pos is a place in the source.
type pos struct{ line, col int }

// errorAt builds the Error for a place; the file is filled in by Import.
func errorAt(p pos, format string, args ...any) *Error {
	return &Error{Line: p.line, Col: p.col, Msg: fmt.Sprintf(format, args...)}
}
