package datasets

import (
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// record converts t to one Arrow record batch. The caller releases it.
func (t *Table) record(mem memory.Allocator) arrow.Record {
	s := Schema(t.Meta)
	md := s.Metadata()
	withSum := arrow.NewMetadata(append(md.Keys(), keyChecksum), append(md.Values(), checksum(t)))
	b := array.NewRecordBuilder(mem, arrow.NewSchema(s.Fields(), &withSum))
	defer b.Release()
	str := func(i int) *array.StringBuilder { return b.Field(i).(*array.StringBuilder) }
	for _, r := range t.Rows {
		for i, s := range []string{r.Device, r.Backend, r.Kernel, r.Class, r.Role, r.Variant} {
			str(i).Append(s)
		}
		appendMap(b.Field(6).(*array.MapBuilder), r.Consts)
		appendMap(b.Field(7).(*array.MapBuilder), r.Params)
		appendInts(b.Field(8).(*array.ListBuilder), r.LocalSize)
		appendInts(b.Field(9).(*array.ListBuilder), r.GlobalSize)
		b.Field(10).(*array.Float64Builder).Append(r.TimeS)
		lb := b.Field(11).(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Float64Builder).AppendValues(r.RawTimesS, nil)
		b.Field(12).(*array.Int32Builder).Append(r.RunsKept)
		b.Field(13).(*array.Int32Builder).Append(r.RunsDiscarded)
		b.Field(14).(*array.TimestampBuilder).Append(arrow.Timestamp(r.Timestamp.UnixMicro()))
		str(15).Append(r.Version)
	}
	return b.NewRecord()
}

func appendMap(b *array.MapBuilder, m map[string]int64) {
	b.Append(true)
	keys, items := b.KeyBuilder().(*array.StringBuilder), b.ItemBuilder().(*array.Int64Builder)
	for _, k := range sortedKeys(m) {
		keys.Append(k)
		items.Append(m[k])
	}
}

func appendInts(b *array.ListBuilder, v []int64) {
	b.Append(true)
	b.ValueBuilder().(*array.Int64Builder).AppendValues(v, nil)
}

// encode writes t as an Arrow IPC file, without validating it.
func encode(w io.WriteSeeker, t *Table) error {
	mem := memory.NewGoAllocator()
	rec := t.record(mem)
	defer rec.Release()
	fw, err := ipc.NewFileWriter(w, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	if err != nil {
		return fmt.Errorf("arrow: %w", err)
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return fmt.Errorf("arrow: %w", err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("arrow: %w", err)
	}
	return nil
}
