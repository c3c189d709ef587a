package datasets

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
)

var testMeta = Meta{
	DeviceName: "Test Device", DeviceVendor: "Acme", DeviceDriver: "1.2.3",
	ComputeUnits: 8, ClockMHz: 1500, GlobalMemBytes: 8 << 30, LocalMemBytes: 64 << 10,
	Backend: "opencl", Suite: "quick", Method: "30 runs, first 4 discarded, minimum",
}

// testRow returns a valid row that differs from testRow(j) for i != j.
func testRow(i int) Row {
	raw := []float64{9e-3, 8e-3, 7e-3, 1e-3 * float64(i+2), 1e-3 * float64(i+1), 2e-3 * float64(i+1)}
	return Row{
		Device: testMeta.DeviceName, Backend: "opencl",
		Kernel: "matmul_tiled", Class: "matmul_tiled", Role: RoleMeasurement,
		Variant:   "shape=n=m=l, größe=" + strconv.Itoa(i),
		Consts:    map[string]int64{"gs0": 16, "gs1": 12},
		Params:    map[string]int64{"n": int64(128 * (i + 1)), "m": 128, "ell": -3},
		LocalSize: []int64{16, 12}, GlobalSize: []int64{16 * int64(i+1), 12 * 3},
		TimeS: 1e-3 * float64(i+1), RawTimesS: raw,
		RunsKept: 3, RunsDiscarded: 3,
		Timestamp: time.Date(2025, 3, 1, 12, 0, i, 123456000, time.UTC),
		Version:   Version,
	}
}

func testTable(n int) *Table {
	t := &Table{Meta: testMeta}
	for i := range n {
		t.Rows = append(t.Rows, testRow(i))
	}
	return t
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.arrow")
	want := testTable(5)
	want.Rows[2].Consts = map[string]int64{} // no consts at all
	if err := WriteFile(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip differs:\ngot  %+v\nwant %+v", got, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fromBytes, err := Decode("mem", data)
	if err != nil || !reflect.DeepEqual(fromBytes, want) {
		t.Errorf("Decode differs from Read: %v", err)
	}
}

func TestTimestampStoredToTheMicrosecond(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.arrow")
	tab := testTable(1)
	local := time.FixedZone("UTC+2", 2*3600)
	tab.Rows[0].Timestamp = time.Date(2025, 3, 1, 14, 0, 0, 123456789, local)
	if err := WriteFile(path, tab); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2025, 3, 1, 12, 0, 0, 123456000, time.UTC)
	if ts := got.Rows[0].Timestamp; !ts.Equal(want) || ts.Location() != time.UTC {
		t.Errorf("timestamp %v, want %v", ts, want)
	}
}

func TestWriteCSV(t *testing.T) {
	tab := testTable(2)
	var buf bytes.Buffer
	if err := tab.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || len(recs[0]) != 16 || recs[0][6] != "consts" || recs[0][10] != "time_s" {
		t.Fatalf("header or shape wrong: %q", recs)
	}
	row := recs[2]
	var params map[string]int64
	var raw []float64
	if err := json.Unmarshal([]byte(row[7]), &params); err != nil || params["n"] != 256 || params["ell"] != -3 {
		t.Errorf("params cell %q: %v", row[7], err)
	}
	if err := json.Unmarshal([]byte(row[11]), &raw); err != nil || !reflect.DeepEqual(raw, tab.Rows[1].RawTimesS) {
		t.Errorf("raw times cell %q: %v", row[11], err)
	}
	if v, err := strconv.ParseFloat(row[10], 64); err != nil || v != 2e-3 {
		t.Errorf("time_s cell %q", row[10])
	}
	if row[14] != "2025-03-01T12:00:01.123456Z" || row[5] != tab.Rows[1].Variant {
		t.Errorf("timestamp %q, variant %q", row[14], row[5])
	}
}

func TestWriteParquet(t *testing.T) {
	tab := testTable(3)
	var buf bytes.Buffer
	if err := tab.WriteParquet(&buf); err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.NewGoAllocator())
	if err != nil {
		t.Fatal(err)
	}
	at, err := fr.ReadTable(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer at.Release()
	if at.NumRows() != 3 || at.NumCols() != 16 {
		t.Fatalf("parquet table %d x %d, want 3 x 16", at.NumRows(), at.NumCols())
	}
	if err := checkSchema(at.Schema()); err != nil {
		t.Errorf("parquet schema: %v", err)
	}
	times := at.Column(10).Data().Chunk(0).(*array.Float64)
	for i := range 3 {
		if times.Value(i) != tab.Rows[i].TimeS {
			t.Errorf("time_s row %d = %v, want %v", i, times.Value(i), tab.Rows[i].TimeS)
		}
	}
	kv := pf.MetaData().KeyValueMetadata()
	var keys, vals []string
	for i, k := range kv.Keys() {
		keys, vals = append(keys, k), append(vals, kv.Values()[i])
	}
	if got, err := metaFrom(arrow.NewMetadata(keys, vals)); err != nil || got != testMeta {
		t.Errorf("parquet key-value metadata %+v, %v", got, err)
	}
}

func TestShippedTablesAreValid(t *testing.T) {
	for _, name := range Shipped() {
		tab, err := OpenShipped(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(tab.Rows) == 0 {
			t.Errorf("%s: shipped table has no rows", name)
		}
	}
	if _, err := OpenShipped("README.md"); err == nil {
		t.Error("the README opened as a table")
	}
	if _, err := OpenShipped("missing.arrow"); err == nil {
		t.Error("a missing table opened")
	}
}
