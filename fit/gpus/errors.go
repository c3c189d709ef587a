package gpus

import (
	"errors"
	"fmt"
)

// ErrNotShipped is a device that no shipped device file names, by key,
// display name or alias. Lookup wraps it with the name and the shipped
// devices: no device file for "Voodoo2"; shipped devices: ...; a caller
// may test for it with errors.Is and ask for a file of the user's own.
var ErrNotShipped = errors.New("no device file")

// MissingError reports a parameter a model needs that a device file lacks.
type MissingError struct {
	File  string // device file
	Field string // JSON path, e.g. "hongkim.mem_ld"
	Model string // the model that needs it
	// Section is set when a whole section is absent.
	Section bool
}

func (e *MissingError) Error() string {
	if e.Section {
		return fmt.Sprintf("device file %s has no %s section; the %s model needs it", e.File, e.Field, e.Model)
	}
	return fmt.Sprintf("device file %s: %s is missing or not positive; the %s model needs it", e.File, e.Field, e.Model)
}
