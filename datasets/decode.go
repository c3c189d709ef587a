package datasets

import (
	"bytes"
	"fmt"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"

	"github.com/uniperf/uniperf/datasets/arrowfile"
	"github.com/uniperf/uniperf/datasets/inputfile"
)

// Read reads and validates the measurement table at path. Every problem is
// an *Error naming the file and, where it applies, the column and row.
func Read(path string) (*Table, error) {
	return read(path, inputfile.Open)
}

// read reads the table at path, opened with open: inputfile.Open for an
// input, inputfile.OpenOutput for the table a Writer resumes.
func read(path string, open func(string) (*inputfile.File, error)) (*Table, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decode(path, f)
}

// Decode reads and validates a measurement table held in memory; name
// identifies it in errors.
func Decode(name string, data []byte) (*Table, error) {
	return decode(name, bytes.NewReader(data))
}

func decode(name string, r ipc.ReadAtSeeker) (*Table, error) {
	var t *Table
	err := arrowfile.Read(r, func(fr *ipc.FileReader) (err error) {
		t, err = tableFrom(fr)
		return err
	})
	if err == nil {
		err = t.Validate()
	}
	if err != nil {
		e, ok := err.(*Error)
		if !ok {
			e = &Error{Row: -1, Err: err}
		}
		e.File = name
		return nil, e
	}
	return t, nil
}

// tableFrom reads the metadata and rows of a measurement table.
func tableFrom(fr *ipc.FileReader) (*Table, error) {
	schema := fr.Schema()
	meta, err := metaFrom(schema.Metadata())
	if err != nil {
		return nil, err
	}
	if err := checkSchema(schema); err != nil {
		return nil, err
	}
	t := &Table{Meta: meta}
	for b := 0; b < fr.NumRecords(); b++ {
		rec, err := fr.Record(b)
		if err != nil {
			return nil, fmt.Errorf("record batch %d: %w", b, err)
		}
		rows, err := rowsOf(rec, len(t.Rows))
		if err != nil {
			return nil, err
		}
		t.Rows = append(t.Rows, rows...)
	}
	if err := checkUTF8(t); err != nil {
		return nil, err
	}
	var stored string
	if i := schema.Metadata().FindKey(keyChecksum); i >= 0 {
		stored = schema.Metadata().Values()[i]
	}
	if err := verify(t, stored); err != nil {
		return nil, err
	}
	t.unchecked = stored == ""
	return t, nil
}

// checkSchema compares columns by name, order and type. Field nullability
// and the names of nested fields are not compared, so that tables written
// by other Arrow implementations with the same columns are accepted.
func checkSchema(s *arrow.Schema) error {
	got := s.Fields()
	for i, want := range fields {
		if i >= len(got) {
			return &Error{Column: want.Name, Row: -1, Err: fmt.Errorf("missing")}
		}
		if got[i].Name != want.Name {
			return &Error{Column: want.Name, Row: -1, Err: fmt.Errorf("missing: column %d is %q", i, got[i].Name)}
		}
		if !sameType(got[i].Type, want.Type) {
			return &Error{Column: want.Name, Row: -1, Err: fmt.Errorf("type is %s, want %s", got[i].Type, want.Type)}
		}
	}
	if len(got) > len(fields) {
		return &Error{Column: got[len(fields)].Name, Row: -1, Err: fmt.Errorf("unexpected column")}
	}
	return nil
}

func sameType(got, want arrow.DataType) bool {
	switch w := want.(type) {
	case *arrow.MapType:
		g, ok := got.(*arrow.MapType)
		return ok && sameType(g.KeyType(), w.KeyType()) && sameType(g.ItemType(), w.ItemType())
	case *arrow.ListType:
		g, ok := got.(*arrow.ListType)
		return ok && sameType(g.Elem(), w.Elem())
	case *arrow.TimestampType:
		g, ok := got.(*arrow.TimestampType)
		return ok && g.Unit == w.Unit && g.TimeZone == w.TimeZone
	default:
		return got.ID() == want.ID()
	}
}

// rowsOf converts a record batch whose schema passed checkSchema; first is
// the table row index of its first row, for errors.
func rowsOf(rec arrow.Record, first int) ([]Row, error) {
	n := int(rec.NumRows())
	for c := range fields {
		if col := rec.Column(c); col.Len() != n {
			return nil, &Error{Column: fields[c].Name, Row: -1, Err: fmt.Errorf("%d values in a batch of %d rows", col.Len(), n)}
		} else if col.NullN() > 0 {
			for i := range n {
				if col.IsNull(i) {
					return nil, rowError(first+i, fields[c].Name, "null")
				}
			}
		}
	}
	strs := make([]*array.String, 6)
	for c := range strs {
		strs[c] = rec.Column(c).(*array.String)
	}
	rows := make([]Row, n)
	for i := range n {
		ri := first + i
		r := &rows[i]
		r.Device, r.Backend, r.Kernel = strs[0].Value(i), strs[1].Value(i), strs[2].Value(i)
		r.Class, r.Role, r.Variant = strs[3].Value(i), strs[4].Value(i), strs[5].Value(i)
		var err error
		if r.Consts, err = mapAt(rec.Column(6).(*array.Map), i, ri, colConsts); err != nil {
			return nil, err
		}
		if r.Params, err = mapAt(rec.Column(7).(*array.Map), i, ri, colParams); err != nil {
			return nil, err
		}
		if r.LocalSize, err = listAt[int64](rec.Column(8).(*array.List), i, ri, colLocalSize); err != nil {
			return nil, err
		}
		if r.GlobalSize, err = listAt[int64](rec.Column(9).(*array.List), i, ri, colGlobalSize); err != nil {
			return nil, err
		}
		r.TimeS = rec.Column(10).(*array.Float64).Value(i)
		if r.RawTimesS, err = listAt[float64](rec.Column(11).(*array.List), i, ri, colRawTimesS); err != nil {
			return nil, err
		}
		r.RunsKept = rec.Column(12).(*array.Int32).Value(i)
		r.RunsDiscarded = rec.Column(13).(*array.Int32).Value(i)
		r.Timestamp = time.UnixMicro(int64(rec.Column(14).(*array.Timestamp).Value(i))).UTC()
		r.Version = rec.Column(15).(*array.String).Value(i)
	}
	return rows, nil
}

// span returns the bounds of list element i, checked against the values.
func span(l *array.List, i, row int, col string) (int, int, error) {
	start, end := l.ValueOffsets(i)
	if start < 0 || end < start || end > int64(l.ListValues().Len()) {
		return 0, 0, rowError(row, col, "corrupt list offsets %d..%d", start, end)
	}
	return int(start), int(end), nil
}

// valuer is the part of *array.Int64 and *array.Float64 that listAt uses.
type valuer[T any] interface {
	IsNull(i int) bool
	Value(i int) T
}

func listAt[T any](l *array.List, i, row int, col string) ([]T, error) {
	start, end, err := span(l, i, row, col)
	if err != nil {
		return nil, err
	}
	vals, ok := l.ListValues().(valuer[T])
	if !ok {
		return nil, rowError(row, col, "list values of type %s", l.ListValues().DataType())
	}
	out := make([]T, 0, end-start)
	for j := start; j < end; j++ {
		if vals.IsNull(j) {
			return nil, rowError(row, col, "null element %d", j-start)
		}
		out = append(out, vals.Value(j))
	}
	return out, nil
}

func mapAt(m *array.Map, i, row int, col string) (map[string]int64, error) {
	start, end := m.ValueOffsets(i)
	keys, ok1 := m.Keys().(*array.String)
	items, ok2 := m.Items().(*array.Int64)
	if !ok1 || !ok2 || start < 0 || end < start || end > int64(keys.Len()) || end > int64(items.Len()) {
		return nil, rowError(row, col, "corrupt map entries")
	}
	out := make(map[string]int64, end-start)
	for j := int(start); j < int(end); j++ {
		if keys.IsNull(j) || items.IsNull(j) {
			return nil, rowError(row, col, "null entry")
		}
		k := keys.Value(j)
		if _, dup := out[k]; dup {
			return nil, rowError(row, col, "name %q appears twice", k)
		}
		out[k] = items.Value(j)
	}
	return out, nil
}
