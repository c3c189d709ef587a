package resios

import "errors"

// Errors for inputs that leave the model nothing to work on, which a
// caller may test for with errors.Is (an empty kernel is priced by its
// launch overhead alone, not by the simulation). Each is wrapped with the
// package's prefix, "resios: empty trace", as every error of the package
// is; the errors of out-of-range parameters name the values and are not
// meant to be told apart.
var (
	// ErrEmptyTrace is a simulation or prediction asked of a trace
	// without instructions.
	ErrEmptyTrace = errors.New("empty trace")
	// ErrEmptyWarp is a coalescing or bank-conflict analysis asked of a
	// warp access without offsets ("resios: requests of an empty warp").
	ErrEmptyWarp = errors.New("empty warp")
	// ErrEmptyRegion is ILP asked of a region without instructions.
	ErrEmptyRegion = errors.New("ILP of an empty region")
	// ErrNoLatencies is the launch heuristic asked of a kernel without the
	// latencies of its instructions.
	ErrNoLatencies = errors.New("launch needs the latencies of the kernel's instructions")
)
