package datasets

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
)

// WriteParquet writes t as a Parquet file with the same columns; the Arrow
// schema, metadata included, is stored in the file so that Arrow readers
// recover the map, list and timestamp types exactly.
func (t *Table) WriteParquet(w io.Writer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	rec := t.record(mem)
	defer rec.Release()
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithAllocator(mem))
	pw, err := pqarrow.NewFileWriter(rec.Schema(), w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	if err := pw.Write(rec); err != nil {
		pw.Close()
		return fmt.Errorf("parquet: %w", err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// WriteCSV writes t's rows as CSV with a header of the column names. Maps
// (consts, params) and lists (local_size, global_size, raw_times_s) are JSON
// in their cells, floats are written in the shortest form that reads back
// exactly, and the timestamp is RFC 3339 in UTC. CSV has no place for the
// schema metadata; the device column names the device.
func (t *Table) WriteCSV(w io.Writer) error {
	if err := t.Validate(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	header := make([]string, len(fields))
	for i, f := range fields {
		header[i] = f.Name
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range t.Rows {
		var cells jsonCells
		rec := []string{
			r.Device, r.Backend, r.Kernel, r.Class, r.Role, r.Variant,
			cells.add(orEmpty(r.Consts)), cells.add(orEmpty(r.Params)),
			cells.add(r.LocalSize), cells.add(r.GlobalSize),
			strconv.FormatFloat(r.TimeS, 'g', -1, 64), cells.add(r.RawTimesS),
			strconv.Itoa(int(r.RunsKept)), strconv.Itoa(int(r.RunsDiscarded)),
			r.Timestamp.UTC().Format(time.RFC3339Nano), r.Version,
		}
		if cells.err != nil {
			return cells.err
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func orEmpty(m map[string]int64) map[string]int64 {
	if m == nil {
		return map[string]int64{}
	}
	return m
}

// jsonCells encodes cells as JSON, keeping the first error.
type jsonCells struct{ err error }

func (c *jsonCells) add(v any) string {
	b, err := json.Marshal(v)
	if err != nil && c.err == nil {
		c.err = fmt.Errorf("csv: %w", err)
	}
	return string(b)
}
