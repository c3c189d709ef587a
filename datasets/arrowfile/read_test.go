package arrowfile_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/uniperf/uniperf/datasets/arrowfile"
)

// sampleSchema has every kind of field whose footer entries the check
// walks: nested children (list, map, struct), a timestamp's time zone, a
// dictionary encoding and field metadata.
var sampleSchema = arrow.NewSchema([]arrow.Field{
	{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true,
		Metadata: arrow.NewMetadata([]string{"unit"}, []string{"none"})},
	{Name: "sizes", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64)},
	{Name: "params", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)},
	{Name: "s", Type: arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Float64},
		arrow.Field{Name: "b", Type: arrow.BinaryTypes.String})},
	{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
}, nil)

var sampleRows = []string{
	`[{"n": 1, "name": "x", "sizes": [1, 2], "params": [{"key": "n", "value": 64}], "s": {"a": 0.5, "b": "p"}, "at": "2024-01-02T03:04:05Z"},
	  {"n": 2, "name": null, "sizes": [], "params": [], "s": {"a": -1, "b": ""}, "at": "2024-01-02T03:04:06Z"}]`,
	`[{"n": 3, "name": "zz", "sizes": [7, 8, 9], "params": [{"key": "m", "value": -3}, {"key": "n", "value": 5}], "s": {"a": 2.25, "b": "q"}, "at": "2025-06-07T08:09:10Z"}]`,
}

// sampleRecords returns two record batches of sampleSchema plus a
// dictionary-encoded column, so that the file has a dictionary block.
func sampleRecords(t testing.TB) []arrow.Record {
	t.Helper()
	mem := memory.NewGoAllocator()
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	fields := append(sampleSchema.Fields(), arrow.Field{Name: "class", Type: dictType})
	schema := arrow.NewSchema(fields, nil)
	dict, _, err := array.FromJSON(mem, arrow.BinaryTypes.String, strings.NewReader(`["matmul", "stencil"]`))
	if err != nil {
		t.Fatal(err)
	}
	var recs []arrow.Record
	for _, rows := range sampleRows {
		rec, _, err := array.RecordFromJSON(mem, sampleSchema, strings.NewReader(rows))
		if err != nil {
			t.Fatal(err)
		}
		ib := array.NewInt8Builder(mem)
		for i := range rec.NumRows() {
			ib.Append(int8(i % 2))
		}
		cols := append(rec.Columns(), array.NewDictionaryArray(dictType, ib.NewArray(), dict))
		recs = append(recs, array.NewRecord(schema, cols, rec.NumRows()))
	}
	return recs
}

// encode writes recs as an Arrow IPC file with the Arrow library's writer.
func encode(t testing.TB, recs []arrow.Record, opts ...ipc.Option) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.arrow")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := ipc.NewFileWriter(f, append(opts, ipc.WithSchema(recs[0].Schema()))...)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readAll reads every record and renders every value as JSON, as a
// careless caller would, and returns the records.
func readAll(data []byte) ([]arrow.Record, error) {
	var recs []arrow.Record
	err := arrowfile.Read(bytes.NewReader(data), func(r *ipc.FileReader) error {
		for i := range r.NumRecords() {
			rec, err := r.Record(i)
			if err != nil {
				return err
			}
			if err := array.RecordToJSON(rec, io.Discard); err != nil {
				return err
			}
			rec.Retain()
			recs = append(recs, rec)
		}
		return nil
	})
	return recs, err
}

func TestReadValues(t *testing.T) {
	want := sampleRecords(t)
	for name, opts := range map[string][]ipc.Option{
		"plain": nil,
		"lz4":   {ipc.WithLZ4()},
		"zstd":  {ipc.WithZstd()},
	} {
		got, err := readAll(encode(t, want, opts...))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d record batches, want %d", name, len(got), len(want))
		}
		for i := range want {
			if !array.RecordEqual(got[i], want[i]) || !got[i].Schema().Equal(want[i].Schema()) {
				t.Errorf("%s: batch %d reads back as\n%v\nwant\n%v", name, i, got[i], want[i])
			}
		}
	}
}

// A compressed buffer records its uncompressed length; a damaged one asks
// for a terabyte, which the allocator's budget refuses.
func TestReadRefusesHugeBuffers(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(mem)
	for i := range 1000 {
		b.Append(int64(i))
	}
	rec := array.NewRecord(schema, []arrow.Array{b.NewArray()}, 1000)
	data := encode(t, []arrow.Record{rec}, ipc.WithLZ4())
	if _, err := readAll(data); err != nil {
		t.Fatal(err)
	}
	// The only buffer is 1000 int64 values, 8000 bytes uncompressed, a
	// length written just before the compressed bytes.
	var length [8]byte
	binary.LittleEndian.PutUint64(length[:], 8000)
	if n := bytes.Count(data, length[:]); n != 1 {
		t.Fatalf("the uncompressed length occurs %d times in the file, want 1", n)
	}
	at := bytes.Index(data, length[:])
	binary.LittleEndian.PutUint64(data[at:], 1<<40)
	_, err := readAll(data)
	if err == nil || !strings.Contains(err.Error(), "a buffer of 1099511627776 bytes") {
		t.Errorf("got %v, want a refused buffer of 2^40 bytes", err)
	}
}

// Every single-byte corruption of a file with nested, compressed and
// dictionary-encoded columns reads as a file or fails with an error.
func TestReadSurvivesCorruption(t *testing.T) {
	for _, opts := range [][]ipc.Option{nil, {ipc.WithLZ4()}} {
		data := encode(t, sampleRecords(t), opts...)
		for i := range data {
			bad := bytes.Clone(data)
			bad[i] ^= 0xA5
			readAll(bad)
		}
	}
}

func TestReadErrors(t *testing.T) {
	data := encode(t, sampleRecords(t))
	footerLen := func(n uint32) []byte {
		bad := bytes.Clone(data)
		binary.LittleEndian.PutUint32(bad[len(bad)-10:], n)
		return bad
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not an Arrow IPC file: 0 bytes is too short"},
		{"text", []byte("device,time_s\nx,0.1\nyy,0.2\n"), "not an Arrow IPC file: no ARROW1 trailer"},
		{"truncated", data[:len(data)/2], "not an Arrow IPC file: no ARROW1 trailer"},
		{"footer too long", footerLen(uint32(len(data))), "footer length"},
		{"footer length zero", footerLen(0), "footer length 0"},
		{"footer too short", footerLen(3), "corrupt Arrow IPC footer"},
	} {
		_, err := readAll(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// Read returns the caller's error unchanged and turns a panic while the
// caller reads arrays into an error.
func TestReadUse(t *testing.T) {
	data := encode(t, sampleRecords(t))
	errMine := io.ErrUnexpectedEOF
	if err := arrowfile.Read(bytes.NewReader(data), func(*ipc.FileReader) error { return errMine }); err != errMine {
		t.Errorf("got %v, want the caller's error", err)
	}
	err := arrowfile.Read(bytes.NewReader(data), func(r *ipc.FileReader) error {
		rec, err := r.Record(0)
		if err != nil {
			return err
		}
		rec.Column(0).(*array.Int64).Value(int(rec.NumRows()) + 100)
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "corrupt Arrow IPC file") {
		t.Errorf("got %v, want the panic as an error", err)
	}
}
