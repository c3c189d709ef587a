package weightsio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/uniperf/uniperf/datasets/arrowfile"
	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit"
)

// WeightsSchema is the value of the uniperf.schema metadata key of weight
// tables.
const WeightsSchema = "weights/1"

// KeySchema is the metadata key that names the schema of an Arrow file
// written by uniperf: [WeightsSchema] here, the comparison schema of package
// report.
const KeySchema = "uniperf.schema"

// Metadata keys of weight tables.
const (
	keyVersion     = "uniperf.version"
	keyPropertySet = "property_set"
	keyInputs      = "inputs"
	keyDiagnostics = "diagnostics"
	// keyGridFill holds the weights' grid fill (fit.GridFill) as JSON,
	// present only where the fit has one: the weights apply to counts
	// scaled by its factor.
	keyGridFill = "grid_fill"
	// keyBankLayout holds the local-memory bank layout the fit counted
	// with (fit.BankLayout) as JSON, present only where the weights
	// record one.
	keyBankLayout = "bank_layout"
	// keyTies holds the weights' ties (fit.Weights.Ties) as a JSON
	// object from each tied property to its target, present only where
	// the fit tied properties.
	keyTies = "ties"
)

var weightsFields = []arrow.Field{
	{Name: "device", Type: arrow.BinaryTypes.String},
	{Name: "model", Type: arrow.BinaryTypes.String},
	{Name: "property", Type: arrow.BinaryTypes.String},
	{Name: "weight", Type: arrow.PrimitiveTypes.Float64},
}

// EncodeWeights returns the table as an Arrow IPC file.
func EncodeWeights(w *fit.Weights) ([]byte, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	inputs, err := json.Marshal(nonNil(w.Inputs))
	if err != nil {
		return nil, err
	}
	diag, err := json.Marshal(w.Diagnostics)
	if err != nil {
		return nil, fmt.Errorf("weights for %s: diagnostics: %w", w.Device, err)
	}
	keys := []string{KeySchema, keyVersion, keyPropertySet, keyInputs, keyDiagnostics}
	values := []string{WeightsSchema, w.Version, w.PropertySet, string(inputs), string(diag)}
	for _, o := range []struct {
		key, what string
		v         any
		present   bool
	}{
		{keyGridFill, "grid fill", w.Fill, w.Fill != nil},
		{keyBankLayout, "bank layout", w.Banks, w.Banks != nil},
		{keyTies, "ties", w.Ties, len(w.Ties) > 0},
	} {
		if !o.present {
			continue
		}
		data, err := json.Marshal(o.v)
		if err != nil {
			return nil, fmt.Errorf("weights for %s: %s: %w", w.Device, o.what, err)
		}
		keys, values = append(keys, o.key), append(values, string(data))
	}
	keys, values = append(keys, keyChecksum), append(values, checksum(keys, values, w))
	md := arrow.NewMetadata(keys, values)
	schema := arrow.NewSchema(weightsFields, &md)

	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, p := range w.Properties {
		b.Field(0).(*array.StringBuilder).Append(w.Device)
		b.Field(1).(*array.StringBuilder).Append(w.Model)
		b.Field(2).(*array.StringBuilder).Append(p)
		b.Field(3).(*array.Float64Builder).Append(w.Values[i])
	}
	rec := b.NewRecord()
	defer rec.Release()
	return EncodeRecord(schema, rec)
}

// EncodeRecord writes one record as an Arrow IPC file.
func EncodeRecord(schema *arrow.Schema, rec arrow.Record) ([]byte, error) {
	var buf seekBuffer
	fw, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
	if err != nil {
		return nil, err
	}
	if err := fw.Write(rec); err != nil {
		return nil, err
	}
	if err := fw.Close(); err != nil {
		return nil, err
	}
	return buf.data, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// DecodeWeights reads a weight table from an Arrow IPC file and validates
// it: schema, column types, no nulls, one device and model, finite weights,
// well-formed metadata.
func DecodeWeights(data []byte) (*fit.Weights, error) {
	var w *fit.Weights
	err := arrowfile.Read(bytes.NewReader(data), func(r *ipc.FileReader) (err error) {
		w, err = weightsFrom(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// weightsFrom reads the metadata and rows of a weight table.
func weightsFrom(r *ipc.FileReader) (*fit.Weights, error) {
	md := r.Schema().Metadata()
	if got := metaValue(md, KeySchema); got != WeightsSchema {
		return nil, fmt.Errorf("metadata %s is %q, want %q (not a uniperf weight table)", KeySchema, got, WeightsSchema)
	}
	cols, err := weightColumns(r.Schema())
	if err != nil {
		return nil, err
	}
	w := &fit.Weights{Version: metaValue(md, keyVersion), PropertySet: metaValue(md, keyPropertySet)}
	if w.PropertySet == "" {
		return nil, fmt.Errorf("metadata %s is missing", keyPropertySet)
	}
	if err := json.Unmarshal([]byte(metaValue(md, keyInputs)), &w.Inputs); err != nil {
		return nil, fmt.Errorf("metadata %s: %w", keyInputs, err)
	}
	if err := json.Unmarshal([]byte(metaValue(md, keyDiagnostics)), &w.Diagnostics); err != nil {
		return nil, fmt.Errorf("metadata %s: %w", keyDiagnostics, err)
	}
	if fill := metaValue(md, keyGridFill); fill != "" {
		w.Fill = new(fit.GridFill)
		if err := json.Unmarshal([]byte(fill), w.Fill); err != nil {
			return nil, fmt.Errorf("metadata %s: %w", keyGridFill, err)
		}
	}
	if banks := metaValue(md, keyBankLayout); banks != "" {
		w.Banks = new(fit.BankLayout)
		if err := strictJSON(banks, w.Banks); err != nil {
			return nil, fmt.Errorf("metadata %s: %w", keyBankLayout, err)
		}
	}
	if ties := metaValue(md, keyTies); ties != "" {
		if err := strictJSON(ties, &w.Ties); err != nil {
			return nil, fmt.Errorf("metadata %s: %w", keyTies, err)
		}
	}
	row := 0
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.Record(i)
		if err != nil {
			return nil, fmt.Errorf("record batch %d: %w", i, err)
		}
		if err := appendRows(w, rec, cols, &row); err != nil {
			return nil, err
		}
	}
	if err := verify(md, w); err != nil {
		return nil, err
	}
	return w, nil
}

// weightColumns returns the indices of the four weight-table columns,
// checking their types.
func weightColumns(s *arrow.Schema) ([4]int, error) {
	var cols [4]int
	for k, f := range weightsFields {
		idx := s.FieldIndices(f.Name)
		if len(idx) != 1 {
			return cols, fmt.Errorf("column %s: want exactly one, found %d", f.Name, len(idx))
		}
		if got := s.Field(idx[0]).Type; !arrow.TypeEqual(got, f.Type) {
			return cols, fmt.Errorf("column %s has type %s, want %s", f.Name, got, f.Type)
		}
		cols[k] = idx[0]
	}
	return cols, nil
}

// appendRows appends the rows of one record batch to w, counting them in row
// for the messages.
func appendRows(w *fit.Weights, rec arrow.Record, cols [4]int, row *int) error {
	device := rec.Column(cols[0]).(*array.String)
	model := rec.Column(cols[1]).(*array.String)
	prop := rec.Column(cols[2]).(*array.String)
	weight := rec.Column(cols[3]).(*array.Float64)
	for i := 0; i < int(rec.NumRows()); i++ {
		*row++
		for k, a := range []arrow.Array{device, model, prop, weight} {
			if a.IsNull(i) {
				return fmt.Errorf("row %d: column %s is null", *row, weightsFields[k].Name)
			}
		}
		if *row == 1 {
			w.Device, w.Model = device.Value(i), model.Value(i)
		}
		if device.Value(i) != w.Device || model.Value(i) != w.Model {
			return fmt.Errorf("row %d: device %q, model %q: a weight table holds one device and model (%q, %q)",
				*row, device.Value(i), model.Value(i), w.Device, w.Model)
		}
		w.Properties = append(w.Properties, prop.Value(i))
		w.Values = append(w.Values, weight.Value(i))
	}
	return nil
}

// strictJSON decodes one JSON object into v, refusing unknown fields, so
// that a misspelt key is an error rather than a zero.
func strictJSON(data string, v any) error {
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the object")
	}
	return nil
}

func metaValue(md arrow.Metadata, key string) string {
	if i := md.FindKey(key); i >= 0 {
		return md.Values()[i]
	}
	return ""
}

// WriteWeights writes the table to path atomically: a temporary file in the
// same directory, synced, then renamed, so that a crash leaves either the
// old file or the new one.
func WriteWeights(path string, w *fit.Weights) error {
	data, err := EncodeWeights(w)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteFileAtomic(path, data)
}

// ReadWeights reads and validates the weight table at path; errors name the
// file. A path ending in .csv is read as the CSV of uniperf export
// ([DecodeWeightsCSV]), and FILE.csv#DEVICE picks one device of several.
func ReadWeights(path string) (*fit.Weights, error) {
	w, _, err := ReadWeightsFile(path)
	return w, err
}

// ReadWeightsFile is ReadWeights that also reports whether the file is an
// Arrow weight table without a checksum (written before uniperf wrote
// one), whose damaged numbers could not be detected.
func ReadWeightsFile(path string) (w *fit.Weights, unchecked bool, err error) {
	file, label := path, ""
	if i := strings.LastIndexByte(path, '#'); i >= 0 && isCSV(path[:i]) {
		file, label = path[:i], path[i+1:]
	}
	var data []byte
	if isCSV(file) {
		data, err = inputfile.ReadText(file)
	} else {
		data, err = inputfile.ReadChecked(file, arrowfile.Check)
	}
	if err != nil {
		return nil, false, err
	}
	if isCSV(file) {
		w, err = DecodeWeightsCSV(data, label)
	} else {
		w, err = DecodeWeights(data)
		unchecked = err == nil && !hasChecksum(data)
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", file, err)
	}
	return w, unchecked, nil
}

func isCSV(path string) bool { return strings.EqualFold(filepath.Ext(path), ".csv") }

// WriteFileAtomic writes data to path through a synced temporary file in
// the same directory and a rename.
func WriteFileAtomic(path string, data []byte) (err error) {
	if err := inputfile.CheckOutput(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	// CreateTemp makes the file private; the result is an ordinary file.
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		// Syncing the directory makes the rename durable; not every file
		// system supports it, and the data is already safe.
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// seekBuffer is an in-memory io.WriteSeeker, which the Arrow IPC file
// writer needs.
type seekBuffer struct {
	data []byte
	pos  int
}

func (b *seekBuffer) Write(p []byte) (int, error) {
	if need := b.pos + len(p); need > len(b.data) {
		b.data = append(b.data, make([]byte, need-len(b.data))...)
	}
	copy(b.data[b.pos:], p)
	b.pos += len(p)
	return len(p), nil
}

func (b *seekBuffer) Seek(offset int64, whence int) (int64, error) {
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = int64(b.pos)
	case io.SeekEnd:
		base = int64(len(b.data))
	default:
		return 0, errors.New("seek: bad whence")
	}
	if base+offset < 0 {
		return 0, errors.New("seek: negative position")
	}
	b.pos = int(base + offset)
	return base + offset, nil
}
