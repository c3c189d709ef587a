package devices

import "errors"

// ErrNoRuntime is returned (wrapped, with each backend's reason) when
// neither OpenCL nor CUDA answered.
var ErrNoRuntime = errors.New("no OpenCL or CUDA runtime answered")

// SelectError is a selector that names no device or several: the user's
// input, not a fault of the device.
type SelectError struct{ Err error }

func (e *SelectError) Error() string { return e.Err.Error() }

func (e *SelectError) Unwrap() error { return e.Err }
