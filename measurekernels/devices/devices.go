// Package devices finds the compute runtimes present on this machine
// (OpenCL and CUDA, each loaded at run time) and opens a device by selector.
// [List] returns the devices of every runtime that answered and [Open]
// opens one by selector. A runtime that is missing is reported, not fatal:
// uniperf works with whichever runtime answers.
package devices

import (
	"errors"
	"fmt"

	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/gpu/cuda"
	"github.com/uniperf/uniperf/measurekernels/gpu/opencl"
)

// Runtime is the outcome of loading one backend: its runtime, or the
// reason it is unavailable.
type Runtime struct {
	Backend gpu.Backend
	Runtime gpu.Runtime // nil when Err is set
	Err     error
}

// Discover loads OpenCL and then CUDA and reports each.
func Discover() []Runtime {
	var out []Runtime
	if rt, err := opencl.Load(); err != nil {
		out = append(out, Runtime{Backend: gpu.OpenCL, Err: err})
	} else {
		out = append(out, Runtime{Backend: gpu.OpenCL, Runtime: rt})
	}
	if rt, err := cuda.Load(); err != nil {
		out = append(out, Runtime{Backend: gpu.CUDA, Err: err})
	} else {
		out = append(out, Runtime{Backend: gpu.CUDA, Runtime: rt})
	}
	return out
}

// List returns the devices of every runtime that answered.
func List() ([]gpu.Info, error) {
	infos, _, err := collect(Discover())
	return infos, err
}

func collect(runtimes []Runtime) ([]gpu.Info, map[gpu.Backend]gpu.Runtime, error) {
	var infos []gpu.Info
	var reasons []error
	loaded := make(map[gpu.Backend]gpu.Runtime)
	for _, r := range runtimes {
		if r.Err != nil {
			reasons = append(reasons, r.Err)
			continue
		}
		loaded[r.Backend] = r.Runtime
		infos = append(infos, r.Runtime.Devices()...)
	}
	if len(infos) == 0 {
		return nil, nil, fmt.Errorf("%w: %w", ErrNoRuntime, errors.Join(reasons...))
	}
	return infos, loaded, nil
}

// Open opens the device that selector names (see gpu.Select). An unknown
// or ambiguous selector is a *SelectError.
func Open(selector string) (gpu.Device, error) {
	return open(Discover(), selector)
}

// open is Open on runtimes already discovered. A selector that names no
// device also gives the reasons of the runtimes that did not load, since
// "cuda:0" on a machine without the NVIDIA driver is otherwise only "no
// such device" beside the OpenCL devices.
func open(runtimes []Runtime, selector string) (gpu.Device, error) {
	infos, loaded, err := collect(runtimes)
	if err != nil {
		return nil, fmt.Errorf("device %q: %w", selector, err)
	}
	info, err := gpu.Select(infos, selector)
	if err != nil {
		for _, r := range runtimes {
			if r.Err != nil {
				err = fmt.Errorf("%w; not loaded: %w", err, r.Err)
			}
		}
		return nil, &SelectError{err}
	}
	return loaded[info.Backend].Open(info.Index)
}
