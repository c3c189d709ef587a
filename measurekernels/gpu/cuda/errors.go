package cuda

import "fmt"

// Error is a failed driver or NVRTC call.
type Error struct {
	Op   string
	Code int32
	Name string // e.g. CUDA_ERROR_OUT_OF_MEMORY
}

func (e *Error) Error() string { return fmt.Sprintf("cuda: %s: %s", e.Op, e.Name) }
