package datasets

import (
	"fmt"
	"math"
	"strings"
)

// Error is a problem found in a table, located by file, column and row.
type Error struct {
	File   string // path or embedded name; empty for a table in memory
	Column string // empty when the problem is not in one column
	Row    int    // row index from 0; -1 when the problem is not in one row
	Err    error
}

func (e *Error) Error() string {
	var where []string
	if e.File != "" {
		where = append(where, e.File)
	}
	if e.Column != "" {
		where = append(where, fmt.Sprintf("column %q", e.Column))
	}
	if e.Row >= 0 {
		where = append(where, fmt.Sprintf("row %d", e.Row))
	}
	if len(where) == 0 {
		return e.Err.Error()
	}
	return strings.Join(where, ", ") + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

func rowError(row int, column, format string, args ...any) *Error {
	return &Error{Column: column, Row: row, Err: fmt.Errorf(format, args...)}
}

// validateRow checks one row against the table's metadata and the rules of
// the schema: every field present, sizes positive and consistent, times
// positive and finite, and time_s the minimum of the kept runs.
func validateRow(i int, r Row, m Meta) error {
	for _, s := range []struct{ col, v string }{
		{colDevice, r.Device}, {colBackend, r.Backend}, {colKernel, r.Kernel}, {colClass, r.Class},
		{colRole, r.Role}, {colVersion, r.Version}} {
		if s.v == "" {
			return rowError(i, s.col, "empty")
		}
	}
	if r.Device != m.DeviceName {
		return rowError(i, colDevice, "%q differs from the table's device %q", r.Device, m.DeviceName)
	}
	if r.Backend != m.Backend {
		return rowError(i, colBackend, "%q differs from the table's backend %q", r.Backend, m.Backend)
	}
	if r.Role != RoleMeasurement && r.Role != RoleTest {
		return rowError(i, colRole, "%q is neither %q nor %q", r.Role, RoleMeasurement, RoleTest)
	}
	for _, mp := range []struct {
		col string
		m   map[string]int64
	}{{colConsts, r.Consts}, {colParams, r.Params}} {
		for k := range mp.m {
			if k == "" {
				return rowError(i, mp.col, "empty name")
			}
		}
	}
	if err := validateGrid(i, r.LocalSize, r.GlobalSize); err != nil {
		return err
	}
	return validateTimes(i, r)
}

func validateGrid(i int, local, global []int64) error {
	if len(local) < 1 || len(local) > 3 {
		return rowError(i, colLocalSize, "%d axes, want 1 to 3", len(local))
	}
	if len(global) != len(local) {
		return rowError(i, colGlobalSize, "%d axes, but local_size has %d", len(global), len(local))
	}
	for ax := range local {
		if local[ax] < 1 {
			return rowError(i, colLocalSize, "axis %d is %d, want positive", ax, local[ax])
		}
		if global[ax] < 1 || global[ax]%local[ax] != 0 {
			return rowError(i, colGlobalSize, "axis %d is %d, want a positive multiple of the local size %d", ax, global[ax], local[ax])
		}
	}
	return nil
}

func validateTimes(i int, r Row) error {
	if r.RunsKept < 1 {
		return rowError(i, colRunsKept, "%d, want at least 1", r.RunsKept)
	}
	if r.RunsDiscarded < 0 {
		return rowError(i, colRunsDiscarded, "%d, want non-negative", r.RunsDiscarded)
	}
	if n := int64(r.RunsKept) + int64(r.RunsDiscarded); int64(len(r.RawTimesS)) != n {
		return rowError(i, colRawTimesS, "%d times, but runs_kept + runs_discarded = %d", len(r.RawTimesS), n)
	}
	for j, t := range r.RawTimesS {
		if !positiveFinite(t) {
			return rowError(i, colRawTimesS, "run %d: %v is not a positive finite time", j, t)
		}
	}
	if !positiveFinite(r.TimeS) {
		return rowError(i, colTimeS, "%v is not a positive finite time", r.TimeS)
	}
	if m := MinKept(r.RawTimesS, int(r.RunsDiscarded)); r.TimeS != m {
		return rowError(i, colTimeS, "%v is not the minimum %v of the kept runs", r.TimeS, m)
	}
	if r.Timestamp.IsZero() {
		return rowError(i, colTimestamp, "missing")
	}
	return nil
}

func positiveFinite(t float64) bool { return t > 0 && !math.IsInf(t, 0) && !math.IsNaN(t) }

// MinKept is the minimum of raw after the first discard runs: the time a
// row records (seed 001 §4.2).
func MinKept(raw []float64, discard int) float64 {
	m := math.Inf(1)
	for _, t := range raw[min(discard, len(raw)):] {
		m = min(m, t)
	}
	return m
}
