package datasets

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/uniperf/uniperf/datasets/inputfile"
)

// Writer adds rows to a table file one at a time. After every row the whole
// table is rewritten atomically (see WriteFile), so an interrupted run loses
// at most the row it was measuring, and a new Writer on the same file
// resumes: Has reports the rows already there.
//
// While open, a Writer holds an advisory lock (a hidden ".NAME.lock" file
// next to the table), so that two processes cannot append to one table.
type Writer struct {
	path  string
	table Table
	keys  map[Key]bool
	lock  *fileLock
}

// OpenWriter opens path for appending rows measured as meta describes.
//
// If path exists it must be a valid table of the same device identity
// (name, vendor, driver, compute units, backend), suite and method as
// meta: its rows and metadata are kept and the run resumes. Clock and
// memory sizes are not compared, since a runtime may report them
// differently from run to run (PoCL's global memory follows the host's
// free memory). A corrupt or mismatched table is an
// error and the file is left untouched. If path does not exist, an empty
// table is written at once, so that an unwritable path fails before any
// measurement. Temporary files left by an interrupted writer are removed.
func OpenWriter(path string, meta Meta) (*Writer, error) {
	if err := meta.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// Before the lock and the read: a path that is no output, or is an
	// input of the command, is refused as it is.
	if err := inputfile.CheckOutput(path); err != nil {
		return nil, err
	}
	lock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	w := &Writer{path: path, table: Table{Meta: meta}, keys: make(map[Key]bool), lock: lock}
	if err := w.open(); err != nil {
		lock.release()
		return nil, err
	}
	return w, nil
}

func (w *Writer) open() error {
	if err := removeTemps(w.path); err != nil {
		return err
	}
	old, err := read(w.path, inputfile.OpenOutput)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return writeAtomic(w.path, &w.table)
	case err != nil:
		return fmt.Errorf("cannot resume: %w (the file is left as it is; repair it or choose another output)", err)
	}
	if diff := metaDiff(old.Meta, w.table.Meta); diff != "" {
		return &Error{File: w.path, Row: -1, Err: fmt.Errorf("cannot resume: the table was measured %s (the file is left as it is; choose another output, or rerun with the table's settings)", diff)}
	}
	w.table = *old
	for _, r := range old.Rows {
		w.keys[r.Key()] = true
	}
	return nil
}

// removeTemps deletes the temporary files of interrupted writes to path.
// The caller holds path's lock, so none of them is in use.
func removeTemps(path string) error {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix(path)) {
			if err := os.Remove(filepath.Join(filepath.Dir(path), e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// metaDiff describes how a (the existing table) differs from b (this
// run), or returns "".
func metaDiff(a, b Meta) string {
	var d []string
	add := func(name string, x, y any) {
		if x != y {
			d = append(d, fmt.Sprintf("with %s %q, but this run has %q", name, fmt.Sprint(x), fmt.Sprint(y)))
		}
	}
	add(keyDeviceName, a.DeviceName, b.DeviceName)
	add(keyDeviceVendor, a.DeviceVendor, b.DeviceVendor)
	add(keyDeviceDriver, a.DeviceDriver, b.DeviceDriver)
	add(keyComputeUnits, a.ComputeUnits, b.ComputeUnits)
	add(keyBackend, a.Backend, b.Backend)
	add(keySuite, a.Suite, b.Suite)
	if x, y := firstDifference(a.Method, b.Method); x != y {
		d = append(d, fmt.Sprintf("with method %q, but this run has %q", x, y))
	}
	return strings.Join(d, "; ")
}

// firstDifference returns the first sentences in which two texts differ,
// so that a long method text is not quoted whole; equal texts give "", "".
func firstDifference(a, b string) (string, string) {
	sa, sb := strings.SplitAfter(a, ". "), strings.SplitAfter(b, ". ")
	for i := range max(len(sa), len(sb)) {
		x, y := "", ""
		if i < len(sa) {
			x = sa[i]
		}
		if i < len(sb) {
			y = sb[i]
		}
		if x != y {
			return strings.TrimSpace(x), strings.TrimSpace(y)
		}
	}
	return "", ""
}

// Path is the table's file.
func (w *Writer) Path() string { return w.path }

// Has reports whether the table already holds a row with key k.
func (w *Writer) Has(k Key) bool { return w.keys[k] }

// Len is the number of rows in the table.
func (w *Writer) Len() int { return len(w.table.Rows) }

// Append validates r, adds it to the table and rewrites the file. On error
// the file and the Writer keep the rows they had.
func (w *Writer) Append(r Row) error {
	if w.lock == nil {
		return fmt.Errorf("%s: writer is closed", w.path)
	}
	i := len(w.table.Rows)
	if err := validateRow(i, r, w.table.Meta); err != nil {
		err.(*Error).File = w.path
		return err
	}
	k := r.Key()
	if w.keys[k] {
		return &Error{File: w.path, Row: i, Err: fmt.Errorf("kernel %s: a row with the same consts, params and local size is already in the table", r.Kernel)}
	}
	w.table.Rows = append(w.table.Rows, r)
	if err := writeAtomic(w.path, &w.table); err != nil {
		w.table.Rows = w.table.Rows[:i]
		return err
	}
	w.keys[k] = true
	return nil
}

// SetCalibration records c as the table's Meta.Calibration and rewrites
// the file; on error the file and the Writer keep the calibration they had.
func (w *Writer) SetCalibration(c string) error {
	if w.lock == nil {
		return fmt.Errorf("%s: writer is closed", w.path)
	}
	old := w.table.Meta.Calibration
	w.table.Meta.Calibration = c
	if err := writeAtomic(w.path, &w.table); err != nil {
		w.table.Meta.Calibration = old
		return err
	}
	return nil
}

// Table returns a copy of the table as written so far.
func (w *Writer) Table() *Table {
	return &Table{Meta: w.table.Meta, Rows: append([]Row(nil), w.table.Rows...)}
}

// Close releases the lock. The file is complete after every Append, so
// Close writes nothing.
func (w *Writer) Close() error {
	if w.lock == nil {
		return nil
	}
	err := w.lock.release()
	w.lock = nil
	return err
}

// ClockChange says how the clock of the device measuring now (now) differs
// from the clock the table's rows were measured at (table), where they
// differ by more than 2%, or returns "". Resuming keys on the device's
// identity, not its clock (a runtime may report sizes differently from run
// to run), so rows from a host whose clock differs would otherwise join
// the table unremarked.
func ClockChange(table, now Meta) string {
	a, b := float64(table.ClockMHz), float64(now.ClockMHz)
	if a <= 0 || b <= 0 || math.Abs(a-b) <= 0.02*a {
		return ""
	}
	return fmt.Sprintf("its rows were measured with the device at %d MHz, and it reports %d MHz now: rows added now may not compare with them", table.ClockMHz, now.ClockMHz)
}
