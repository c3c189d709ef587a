package datasets

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// writeUnchecked writes t without validating it, as a faulty or foreign
// writer might.
func writeUnchecked(t *testing.T, tab *Table) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bad.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := encode(f, tab); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantError checks that err is an *Error naming the file, column and row.
func wantError(t *testing.T, err error, path, column string, row int, text string) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("got %T %v, want *Error", err, err)
	}
	if e.File != path || e.Column != column || e.Row != row || !strings.Contains(err.Error(), text) {
		t.Errorf("got %q (file %q column %q row %d), want file %q column %q row %d containing %q",
			err, e.File, e.Column, e.Row, path, column, row, text)
	}
	if row >= 0 && !strings.Contains(err.Error(), "row ") {
		t.Errorf("message does not name the row: %q", err)
	}
}

func TestReadRejectsInvalidRows(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(r *Row)
		column string
		text   string
	}{
		{"negative time", func(r *Row) { r.TimeS, r.RawTimesS[5] = -1, -1 }, "raw_times_s", "not a positive finite time"},
		{"time not min", func(r *Row) { r.TimeS *= 2 }, "time_s", "not the minimum"},
		{"nan run", func(r *Row) { r.RawTimesS[0] = math.NaN() }, "raw_times_s", "run 0"},
		{"inf time", func(r *Row) { r.TimeS = math.Inf(1) }, "time_s", "positive finite"},
		{"run count", func(r *Row) { r.RunsKept = 4 }, "raw_times_s", "runs_kept + runs_discarded = 7"},
		{"no kept run", func(r *Row) { r.RunsKept, r.RunsDiscarded = 0, 6 }, "runs_kept", "at least 1"},
		{"role", func(r *Row) { r.Role = "train" }, "role", `"train"`},
		{"zero group", func(r *Row) { r.LocalSize[1] = 0 }, "local_size", "axis 1"},
		{"grid", func(r *Row) { r.GlobalSize[0] = 17 }, "global_size", "multiple"},
		{"axes", func(r *Row) { r.GlobalSize = r.GlobalSize[:1] }, "global_size", "1 axes"},
		{"device", func(r *Row) { r.Device = "Other" }, "device", "table's device"},
		{"backend", func(r *Row) { r.Backend = "cuda" }, "backend", "table's backend"},
		{"kernel", func(r *Row) { r.Kernel = "" }, "kernel", "empty"},
		{"param name", func(r *Row) { r.Params[""] = 1 }, "params", "empty name"},
	}
	for _, c := range cases {
		tab := testTable(3)
		c.edit(&tab.Rows[1])
		path := writeUnchecked(t, tab)
		_, err := Read(path)
		t.Run(c.name, func(t *testing.T) { wantError(t, err, path, c.column, 1, c.text) })
	}
}

func TestReadRejectsDuplicateKeys(t *testing.T) {
	tab := testTable(3)
	tab.Rows[2] = testRow(0)
	tab.Rows[2].RawTimesS = []float64{1, 1, 1, 1, 1, 1}
	tab.Rows[2].TimeS = 1
	path := writeUnchecked(t, tab)
	_, err := Read(path)
	wantError(t, err, path, "", 2, "as row 0")
}

func TestReadRejectsBadMetadata(t *testing.T) {
	tab := testTable(1)
	tab.Meta.Backend = "vulkan"
	path := writeUnchecked(t, tab)
	_, err := Read(path)
	wantError(t, err, path, "", -1, `"backend" = "vulkan"`)
}

// rewrite writes the records of a valid table with one column replaced.
func rewrite(t *testing.T, col int, field arrow.Field, arr arrow.Array, md *arrow.Metadata) string {
	t.Helper()
	mem := memory.NewGoAllocator()
	rec := testTable(3).record(mem)
	defer rec.Release()
	fs := rec.Schema().Fields()
	cols := rec.Columns()
	if col >= 0 {
		fs[col], cols[col] = field, arr
	}
	meta := rec.Schema().Metadata()
	if md != nil {
		meta = *md
	}
	schema := arrow.NewSchema(fs, &meta)
	out := array.NewRecord(schema, cols, rec.NumRows())
	defer out.Release()
	path := filepath.Join(t.TempDir(), "bad.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(out); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadRejectsWrongColumns(t *testing.T) {
	mem := memory.NewGoAllocator()
	fb := array.NewFloat32Builder(mem)
	fb.AppendValues([]float32{1, 2, 3}, nil)
	f32 := fb.NewArray()
	path := rewrite(t, 10, arrow.Field{Name: "time_s", Type: arrow.PrimitiveTypes.Float32}, f32, nil)
	_, err := Read(path)
	wantError(t, err, path, "time_s", -1, "type is float32, want float64")

	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "b", "c"}, nil)
	strs := sb.NewArray()
	path = rewrite(t, 2, arrow.Field{Name: "kernel_name", Type: arrow.BinaryTypes.String}, strs, nil)
	_, err = Read(path)
	wantError(t, err, path, "kernel", -1, `column 2 is "kernel_name"`)

	sb.AppendValues([]string{"a", "", "c"}, []bool{true, false, true})
	nulls := sb.NewArray()
	path = rewrite(t, 2, arrow.Field{Name: "kernel", Type: arrow.BinaryTypes.String, Nullable: true}, nulls, nil)
	_, err = Read(path)
	wantError(t, err, path, "kernel", 1, "null")

	md := arrow.NewMetadata([]string{"uniperf.schema"}, []string{"weights/1"})
	path = rewrite(t, -1, arrow.Field{}, nil, &md)
	_, err = Read(path)
	wantError(t, err, path, "", -1, `not a uniperf measurement table: uniperf.schema is "weights/1"`)
}

func TestReadRejectsCorruptFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.arrow")
	if err := WriteFile(good, testTable(4)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for name, bytes := range map[string][]byte{
		"empty":     {},
		"text":      []byte("time_s\n0.1\n"),
		"truncated": data[:len(data)/2],
		"no footer": data[:len(data)-10],
	} {
		path := filepath.Join(dir, name+".arrow")
		if err := os.WriteFile(path, bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		e, ok := err.(*Error)
		if !ok || e.File != path {
			t.Errorf("%s: got %v, want an *Error naming %s", name, err, path)
		}
	}
	// Every single-byte corruption is either still a valid table or a
	// clean error, never a panic.
	for i := 0; i < len(data); i++ {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0xA5
		if _, err := Decode("mutant", bad); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("byte %d: error %T %v is not an *Error", i, err, err)
			}
		}
	}
}
