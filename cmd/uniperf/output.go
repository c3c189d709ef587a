package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"

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
// directory that does not exist, a denied permission or a path that is
// not a regular file is the user's input; anything else (a full disk, an
// I/O error) is the system's.
func outputError(err error) error {
	var pe *fs.PathError
	var ie *inputfile.Error
	if errors.As(err, &ie) || errors.As(err, &pe) && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrExist)) {
		return err
	}
	return systemFailure(err)
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
