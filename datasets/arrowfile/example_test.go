package arrowfile_test

import (
	"fmt"
	"log"
	"os"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/uniperf/uniperf/datasets/arrowfile"
)

func ExampleRead() {
	f, err := os.CreateTemp("", "example-*.arrow")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	// A file with one column of two times.
	schema := arrow.NewSchema([]arrow.Field{{Name: "time_s", Type: arrow.PrimitiveTypes.Float64}}, nil)
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	b.AppendValues([]float64{0.25, 0.5}, nil)
	rec := array.NewRecord(schema, []arrow.Array{b.NewArray()}, 2)
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}

	var sum float64
	err = arrowfile.Read(f, func(r *ipc.FileReader) error {
		for i := range r.NumRecords() {
			rec, err := r.Record(i)
			if err != nil {
				return err
			}
			for _, v := range rec.Column(0).(*array.Float64).Float64Values() {
				sum += v
			}
		}
		return nil
	})
	fmt.Println(sum, err)

	// Damage the footer's length, in the 4 bytes before the trailing ARROW1.
	info, err := f.Stat()
	if err != nil {
		log.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0xff, 0xff, 0xff, 0x7f}, info.Size()-10); err != nil {
		log.Fatal(err)
	}
	err = arrowfile.Read(f, func(*ipc.FileReader) error { return nil })
	fmt.Println(err)
	// Output:
	// 0.75 <nil>
	// not an Arrow IPC file: footer length 2147483647 in a file of 474 bytes
}
