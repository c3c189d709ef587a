package measurekernels

import "fmt"

// localLimitError is a program whose local arrays exceed the local
// memory a work-group has on the device (local_tile's 512 KiB tile on a
// GPU's 48 to 228 KiB): a limit of the device, as a work-group beyond its
// size is, so that its cases are skipped with the reason rather than
// failing to compile.
type localLimitError struct {
	key          string
	bytes, limit int64
	device       string
}

func (e *localLimitError) Error() string {
	return fmt.Sprintf("%s: local arrays of %d bytes exceed the %d bytes of local memory a work-group has on %s; its cases are not measured",
		e.key, e.bytes, e.limit, e.device)
}
