package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"reflect"
	"strings"
	"syscall"

	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/weightsio"
	"github.com/uniperf/uniperf/measurekernels/launch"
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

// distinctOutputs refuses two outputs of one command, --aFlag a and
// --bFlag b, that name one file, whose second write would replace the
// first (compare --out X --plot X kept the plot and lost the report).
func distinctOutputs(aFlag, a, bFlag, b string) error {
	if a == "" || b == "" || !inputfile.SameFile(a, b) {
		return nil
	}
	return &inputfile.Error{Path: a, Reason: fmt.Sprintf("this output of --%s is also the output of --%s (%s), which would replace it: name another file for one of them", aFlag, bFlag, b)}
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

// finite refuses a prediction that is not a finite number (weights near
// 1e308 times counts), which would print as +Inf s with NaN% shares and
// could not be written as JSON; it names the term that overflowed, or
// the largest, where terms are given. Finite inputs that give no finite
// result are bad input.
func finite(kernel string, params map[string]int64, t float64, terms ...fit.Term) error {
	if !math.IsInf(t, 0) && !math.IsNaN(t) {
		return nil
	}
	cause := "weights times counts overflow 64-bit floats"
	var big *fit.Term
	for i, tm := range terms {
		if big == nil || !(math.Abs(tm.Seconds) <= math.Abs(big.Seconds)) {
			big = &terms[i]
		}
	}
	if big != nil {
		cause = fmt.Sprintf("the weight of %s, %g s, times its count, %g, gives %g s: weights times counts overflow 64-bit floats", big.Property, big.Weight, big.Count, big.Seconds)
	}
	return fmt.Errorf("predicting %s%s: the prediction is %g s: %s (check the weights)", kernel, atParams(params), t, cause)
}

// priced refuses a prediction of 0 s for a kernel with counts: every
// weight that meets a count is zero, and the time has no shares to
// report (they were NaN).
func priced(kernel string, params map[string]int64, t float64, terms []fit.Term) error {
	if t != 0 {
		return nil
	}
	var counted []string
	for _, tm := range terms {
		if tm.Count != 0 {
			counted = append(counted, tm.Property)
		}
	}
	if len(counted) == 0 {
		return nil
	}
	if len(counted) > 3 {
		counted = append(counted[:3], fmt.Sprintf("and %d more", len(counted)-3))
	}
	return fmt.Errorf("predicting %s%s: the prediction is 0 s: the weights of every property the kernel counts (%s) are zero (check the weights)", kernel, atParams(params), strings.Join(counted, ", "))
}

// atParams is " at " and the parameters of a prediction, or nothing for
// a kernel without parameters.
func atParams(params map[string]int64) string {
	if len(params) == 0 {
		return ""
	}
	return " at " + models.ParamString(params)
}

// sizeName names a measured size in measure's messages as
// launch.ParamString does ("m=2,n=1"), or "its one size" for a kernel
// without parameters, whose empty list would name nothing.
func sizeName(params map[string]int64) string {
	if len(params) == 0 {
		return "its one size"
	}
	return launch.ParamString(params)
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
	data, err := json.MarshalIndent(v, "", "  ")
	var unsupported *json.UnsupportedValueError
	if errors.As(err, &unsupported) {
		// A result the inputs made infinite or NaN: name where it is.
		return fmt.Errorf("the result's %s is %s, which JSON cannot hold: the inputs' numbers overflow 64-bit floats (check them)", nonFinite(reflect.ValueOf(v), "result"), unsupported.Str)
	}
	if err != nil {
		return systemFailure(err)
	}
	if _, err := out.Write(append(data, '\n')); err != nil {
		return systemFailure(err)
	}
	return nil
}

// nonFinite returns the path, by JSON names, of the first infinite or NaN
// float in v, or "a number" where none is found (a custom marshaller).
func nonFinite(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsInf(f, 0) || math.IsNaN(f) {
			return path
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return nonFinite(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p := nonFinite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "a number" {
				return p
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if p := nonFinite(iter.Value(), fmt.Sprintf("%s.%v", path, iter.Key())); p != "a number" {
				return p
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if p := nonFinite(v.Field(i), path+"."+name); p != "a number" {
				return p
			}
		}
	}
	return "a number"
}
