package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"syscall"

	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// writeOutput writes data to the file path atomically, or to stdout when
// path is empty. Failures are the system's.
func writeOutput(stdout io.Writer, path string, data []byte) error {
	if path == "" {
		if _, err := stdout.Write(data); err != nil {
			return systemFailure(err)
		}
		return nil
	}
	if err := weightsio.WriteFileAtomic(path, data); err != nil {
		return outputError(err)
	}
	return nil
}

// outputError classifies a failure to write an output the user named: a
// path that cannot name a file (see badPath) or is not a regular file is
// the user's input; anything else (a full disk, an I/O error) is the
// system's.
func outputError(err error) error {
	var ie *inputfile.Error
	if errors.As(err, &ie) || badPath(err) {
		return err
	}
	return systemFailure(err)
}

// readError classifies a failure to read an input the user named: a path
// that cannot name a file (see badPath) is the user's input; any other
// failure of the file system (an I/O error) is the system's.
func readError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && !badPath(err) {
		return systemFailure(err)
	}
	return err
}

// badPath reports a path the user got wrong: nothing there, no permission,
// something there already, a file where a directory was needed on the
// way (ENOTDIR), a name too long, or a loop of symbolic links.
func badPath(err error) bool {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return false
	}
	for _, e := range []error{fs.ErrNotExist, fs.ErrPermission, fs.ErrExist, syscall.ENOTDIR, syscall.ENAMETOOLONG, syscall.ELOOP, syscall.EISDIR} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// finite refuses a prediction that overflowed float64 (weights near
// 1e308 times counts), which would print as +Inf s with NaN% shares and
// could not be written as JSON.
func finite(kernel string, params map[string]int64, t float64) error {
	if math.IsInf(t, 0) || math.IsNaN(t) {
		return fmt.Errorf("predicting %s at %s: the prediction is %g s: weights times counts overflow 64-bit floats (check the weights)", kernel, setString(params), t)
	}
	return nil
}

// seconds renders a time with a unit that keeps three significant digits
// readable.
func seconds(s float64) string {
	switch {
	case s < 0:
		return fmt.Sprintf("%.3g s", s)
	case s < 1e-3:
		return fmt.Sprintf("%.3g µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	}
	return fmt.Sprintf("%.3g s", s)
}

// writeJSON writes v indented, as every --json output is; a failure to
// write is the system's.
func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return systemFailure(err)
	}
	return nil
}
