package weightsio

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/uniperf/uniperf/fit"
)

func sampleWeights() *fit.Weights {
	return &fit.Weights{
		Device:      "Radeon R9 Fury",
		Model:       fit.ModelUnified,
		Version:     "0.1.0",
		PropertySet: fit.PropertySetID([]string{"flop.f32.add", "global.load.f32.stride=1", "local.load.f32", "launch.const"}),
		Inputs:      []fit.Input{{Name: "fury.arrow", SHA256: strings.Repeat("ab", 32)}},
		Properties:  []string{"flop.f32.add", "global.load.f32.stride=1", "local.load.f32", "launch.const"},
		Values:      []float64{6.81e-13, 8.27e-12, -1.76e-12, 1.29e-4},
		Diagnostics: fit.Diagnostics{
			Rows: 120, Properties: 4, Rank: 3, MinNorm: true, Residual: 0.25,
			Condition: math.Inf(1),
			Dropped:   []string{"flop.f64.div"},
			Collinear: []fit.Collinearity{{Properties: []string{"flop.f32.add", "launch.const"}, Ratio: 1e-17, Exact: true}},
			ClassError: map[string]float64{
				"matmul": 0.12, "empty": 0.03,
			},
			TrainingError: 0.06,
		},
	}
}

func TestWeightsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.arrow")
	w := sampleWeights()
	if err := WriteWeights(path, w); err != nil {
		t.Fatal(err)
	}
	got, err := ReadWeights(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, w) {
		t.Errorf("read back\n%+v\nwrote\n%+v", got, w)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after an atomic write, want 1", len(entries))
	}
	// A grid fill survives, and a table without one reads back without.
	w.Fill = &fit.GridFill{Units: 132, Saturation: 384}
	data, err := EncodeWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = DecodeWeights(data); err != nil || got.Fill == nil || *got.Fill != *w.Fill {
		t.Errorf("grid fill read back as %+v (%v), wrote %+v", got.Fill, err, *w.Fill)
	}
	lat := int64(640)
	w.Fill = &fit.GridFill{Units: 132, Saturation: 192, Latency: &lat}
	if data, err = EncodeWeights(w); err != nil {
		t.Fatal(err)
	}
	if got, err = DecodeWeights(data); err != nil || got.Fill == nil || got.Fill.Saturation != 192 || got.Fill.Latency == nil || *got.Fill.Latency != lat {
		t.Errorf("grid fill with a latency saturation read back as %v (%v), wrote %v", got.Fill, err, w.Fill)
	}
	w.Fill = &fit.GridFill{Units: 0, Saturation: 384}
	if _, err := EncodeWeights(w); err == nil || !strings.Contains(err.Error(), "grid fill") {
		t.Errorf("a grid fill of no units was written (%v)", err)
	}
	w.Fill = nil
	// A bank layout survives, and one package counts cannot count for is
	// refused.
	w.Banks = &fit.BankLayout{Banks: 16, BankBytes: 4}
	data, err = EncodeWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = DecodeWeights(data); err != nil || got.Banks == nil || *got.Banks != *w.Banks {
		t.Errorf("bank layout read back as %+v (%v), wrote %+v", got.Banks, err, *w.Banks)
	}
	w.Banks = &fit.BankLayout{Banks: 128, BankBytes: 4}
	if _, err := EncodeWeights(w); err == nil || !strings.Contains(err.Error(), "bank layout 128 banks of 4 bytes: want 1 to 64 banks of 1 to 16 bytes") {
		t.Errorf("a layout of 128 banks was written (%v)", err)
	}
	w.Banks = nil
	// Ties survive with the cross-validation that chose them, and a tie
	// to a property without a weight is refused.
	w.Ties = map[string]string{"global.load.f32.stride=2/2": "global.load.f32.stride=1"}
	w.Diagnostics.TieCheck = &fit.TieCheck{Tied: 0.131, Apart: 0.136, Rows: 932}
	if data, err = EncodeWeights(w); err != nil {
		t.Fatal(err)
	}
	if got, err = DecodeWeights(data); err != nil || !reflect.DeepEqual(got.Ties, w.Ties) || !reflect.DeepEqual(got.Diagnostics.TieCheck, w.Diagnostics.TieCheck) {
		t.Errorf("ties read back as %v, %+v (%v), wrote %v, %+v", got.Ties, got.Diagnostics.TieCheck, err, w.Ties, w.Diagnostics.TieCheck)
	}
	w.Ties = map[string]string{"global.load.f32.stride=2/2": "global.load.f32.stride=3/3"}
	if _, err := EncodeWeights(w); err == nil || !strings.Contains(err.Error(), "which has no weight") {
		t.Errorf("a tie to a property without a weight was written (%v)", err)
	}
	w.Ties, w.Diagnostics.TieCheck = nil, nil
	// A finite condition number survives as a number.
	w.Diagnostics.Condition = 12.5
	data, err = EncodeWeights(w)
	if err != nil {
		t.Fatal(err)
	}
	got, err = DecodeWeights(data)
	if err != nil || got.Diagnostics.Condition != 12.5 {
		t.Errorf("condition %v, %v", got.Diagnostics.Condition, err)
	}
}

// arrowFile writes an Arrow IPC file with the given string and float64
// columns (nil entries are nulls) and metadata.
func arrowFile(t *testing.T, md map[string]string, strCols map[string][]*string, f64Cols map[string][]*float64) []byte {
	t.Helper()
	var keys, vals []string
	for k, v := range md {
		keys, vals = append(keys, k), append(vals, v)
	}
	meta := arrow.NewMetadata(keys, vals)
	var fields []arrow.Field
	var names []string
	for _, n := range []string{"device", "model", "property", "weight"} {
		if _, ok := strCols[n]; ok {
			fields = append(fields, arrow.Field{Name: n, Type: arrow.BinaryTypes.String, Nullable: true})
			names = append(names, n)
		}
		if _, ok := f64Cols[n]; ok {
			fields = append(fields, arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Float64, Nullable: true})
			names = append(names, n)
		}
	}
	schema := arrow.NewSchema(fields, &meta)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for k, n := range names {
		if col, ok := strCols[n]; ok {
			for _, v := range col {
				if v == nil {
					b.Field(k).AppendNull()
				} else {
					b.Field(k).(*array.StringBuilder).Append(*v)
				}
			}
		} else {
			for _, v := range f64Cols[n] {
				if v == nil {
					b.Field(k).AppendNull()
				} else {
					b.Field(k).(*array.Float64Builder).Append(*v)
				}
			}
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	data, err := EncodeRecord(schema, rec)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func strs(s ...string) []*string {
	out := make([]*string, len(s))
	for i := range s {
		out[i] = &s[i]
	}
	return out
}

func f64s(x ...float64) []*float64 {
	out := make([]*float64, len(x))
	for i := range x {
		out[i] = &x[i]
	}
	return out
}

// tableParts are the pieces arrowFile assembles, for editing in tests.
type tableParts struct {
	md  map[string]string
	str map[string][]*string
	f64 map[string][]*float64
}

func TestDecodeWeightsRejects(t *testing.T) {
	good := func() *tableParts {
		return &tableParts{
			md: map[string]string{KeySchema: WeightsSchema, keyVersion: "0.1.0", keyPropertySet: "sha256:00", keyInputs: "[]",
				keyDiagnostics: `{"rows":2,"properties":2,"rank":2,"condition":1.5,"class_error":{},"training_error":0.1}`},
			str: map[string][]*string{"device": strs("d", "d"), "model": strs("unified", "unified"), "property": strs("a", "b")},
			f64: map[string][]*float64{"weight": f64s(1e-9, 2e-9)},
		}
	}
	g := good()
	if _, err := DecodeWeights(arrowFile(t, g.md, g.str, g.f64)); err != nil {
		t.Fatalf("the valid base table is rejected: %v", err)
	}
	nan := math.NaN()
	cases := []struct {
		name string
		edit func(p *tableParts)
		want string
	}{
		{"schema key", func(p *tableParts) { p.md[KeySchema] = "measurements/1" }, `uniperf.schema is "measurements/1"`},
		{"missing column", func(p *tableParts) { delete(p.str, "model") }, "column model"},
		{"weight as text", func(p *tableParts) { delete(p.f64, "weight"); p.str["weight"] = strs("1", "2") }, "column weight has type utf8, want float64"},
		{"null weight", func(p *tableParts) { p.f64["weight"][1] = nil }, "row 2: column weight is null"},
		{"NaN weight", func(p *tableParts) { p.f64["weight"][0] = &nan }, "weight of a is NaN"},
		{"two devices", func(p *tableParts) { p.str["device"] = strs("d", "e") }, `row 2: device "e"`},
		{"duplicate property", func(p *tableParts) { p.str["property"] = strs("a", "a") }, "property a listed twice"},
		{"no property set", func(p *tableParts) { delete(p.md, keyPropertySet) }, "property_set is missing"},
		{"bad diagnostics", func(p *tableParts) { p.md[keyDiagnostics] = "{" }, "metadata diagnostics"},
		{"bad ties", func(p *tableParts) { p.md[keyTies] = `{"a": 1}` }, "metadata ties"},
		{"bank layout syntax", func(p *tableParts) { p.md[keyBankLayout] = `{"banks":32,` }, "metadata bank_layout"},
		{"bank layout misspelt", func(p *tableParts) { p.md[keyBankLayout] = `{"banks":32,"bytes":4}` }, `metadata bank_layout: json: unknown field "bytes"`},
		{"bank layout of no bytes", func(p *tableParts) { p.md[keyBankLayout] = `{"banks":32}` }, "bank layout 32 banks of 0 bytes"},
	}
	for _, tc := range cases {
		p := good()
		tc.edit(p)
		_, err := DecodeWeights(arrowFile(t, p.md, p.str, p.f64))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}

	data, err := EncodeWeights(sampleWeights())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 8, len(data) / 2, len(data) - 12, len(data) - 1} {
		if _, err := DecodeWeights(data[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	path := filepath.Join(t.TempDir(), "bad.arrow")
	os.WriteFile(path, []byte("not arrow"), 0o644)
	if _, err := ReadWeights(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v does not name the file", err)
	}
}

// TestDecodeWeightsMutations corrupts a valid table a few bytes at a time.
// Before package arrowfile, such files made the Arrow reader allocate
// terabytes (a fatal error, not a panic); every one must now decode to a
// valid table or give an error.
func TestDecodeWeightsMutations(t *testing.T) {
	data, err := EncodeWeights(sampleWeights())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for range 5000 {
		b := slices.Clone(data)
		for range 1 + rng.IntN(4) {
			b[rng.IntN(len(b))] = byte(rng.IntN(256))
		}
		if w, err := DecodeWeights(b); err == nil {
			if err := w.Validate(); err != nil {
				t.Fatalf("decoded an invalid table: %v", err)
			}
		}
	}
}

func FuzzDecodeWeights(f *testing.F) {
	data, err := EncodeWeights(sampleWeights())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("ARROW1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := DecodeWeights(b)
		if err == nil {
			if verr := w.Validate(); verr != nil {
				t.Fatalf("decoded an invalid table: %v", verr)
			}
		}
	})
}

func TestWriteWeightsValidates(t *testing.T) {
	w := sampleWeights()
	w.Values[1] = math.Inf(1)
	path := filepath.Join(t.TempDir(), "w.arrow")
	if err := WriteWeights(path, w); err == nil || !strings.Contains(err.Error(), "global.load.f32.stride=1") {
		t.Errorf("got %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("an invalid table was written")
	}
}
