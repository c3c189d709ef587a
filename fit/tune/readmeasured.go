package tune

import "bytes"

// ReadMeasured reads the measured times of configurations from JSON in
// Kernel Tuner's T4 results schema (each correct result's measurement
// named "time", and "predicted_time" where present, converted from
// their unit: ns, us, ms or s, ms where none), from a Kernel Tuner cache
// file ("cache": entries of tunables and "time" in ms; entries whose
// time is not a number, Kernel Tuner's failed configurations, are
// left out), or from CSV with a header (a column per tunable, "time" in
// ms, and optionally "predicted_time" in ms), or from an Arrow IPC file
// of the same columns (WriteArrow's, with a float64 "time"). name labels
// errors.
func ReadMeasured(data []byte, name string) ([]Measured, error) {
	if bytes.HasPrefix(data, arrowMagic) {
		return readMeasuredArrow(data, name)
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return readMeasuredJSON(trimmed, name)
	}
	return readMeasuredCSV(data, name)
}
