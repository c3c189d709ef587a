package datasets

import (
	"encoding/binary"
	"fmt"
	"io"
)

// checkFooter guards the Arrow reader against damaged files. The reader
// allocates slices sized by vector lengths in the footer's schema (fields,
// children, custom metadata) before it reads them; a damaged length would
// ask for gigabytes and the Go runtime cannot recover from failing to
// provide them. checkFooter walks exactly those vectors, following the
// Arrow flatbuffers layout (File.fbs, Schema.fbs), and requires each to fit
// in the footer. Reads out of range panic, and decode turns that into an
// error. Everything else is left to the Arrow reader.
func checkFooter(r io.ReaderAt, size int64) error {
	const magic, tail = "ARROW1", 10 // int32 footer length + magic
	if size < 2*int64(len(magic))+4+8 {
		return fmt.Errorf("not an Arrow IPC file: %d bytes is too short", size)
	}
	end := make([]byte, tail)
	if _, err := r.ReadAt(end, size-tail); err != nil {
		return err
	}
	if string(end[4:]) != magic {
		return fmt.Errorf("not an Arrow IPC file: no %s trailer", magic)
	}
	n := int64(binary.LittleEndian.Uint32(end))
	if n <= 0 || n > size-tail-int64(len(magic)) {
		return fmt.Errorf("not an Arrow IPC file: footer length %d in a file of %d bytes", n, size)
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-tail-n); err != nil {
		return err
	}
	fb := flatbuf(buf)
	footer := fb.root()
	schema, ok := fb.table(footer, 1) // Footer.schema
	if !ok {
		return fmt.Errorf("not an Arrow IPC file: the footer has no schema")
	}
	if err := fb.checkTables(schema, 2, "schema metadata", nil); err != nil { // Schema.custom_metadata
		return err
	}
	return fb.checkTables(schema, 1, "schema fields", fb.checkField) // Schema.fields
}

// flatbuf reads the parts of a flatbuffer that checkFooter needs.
type flatbuf []byte

func (b flatbuf) u32(at int) int { return int(binary.LittleEndian.Uint32(b[at:])) }

func (b flatbuf) root() int { return b.u32(0) }

// field returns the position of slot's value in the table at t, or 0 when
// the slot is absent.
func (b flatbuf) field(t, slot int) int {
	vt := t - int(int32(binary.LittleEndian.Uint32(b[t:])))
	vtLen := int(binary.LittleEndian.Uint16(b[vt:]))
	at := 4 + 2*slot
	if at >= vtLen {
		return 0
	}
	off := int(binary.LittleEndian.Uint16(b[vt+at:]))
	if off == 0 {
		return 0
	}
	return t + off
}

func (b flatbuf) table(t, slot int) (int, bool) {
	f := b.field(t, slot)
	if f == 0 {
		return 0, false
	}
	return f + b.u32(f), true
}

// checkTables checks that the vector of tables in slot fits in the buffer
// and calls each on every element.
func (b flatbuf) checkTables(t, slot int, what string, each func(int, int) error) error {
	f := b.field(t, slot)
	if f == 0 {
		return nil
	}
	v := f + b.u32(f)
	n := b.u32(v)
	if n > (len(b)-v-4)/4 {
		return fmt.Errorf("corrupt Arrow IPC footer: %s: %d entries in %d bytes", what, n, len(b))
	}
	if each == nil {
		return nil
	}
	for i := range n {
		el := v + 4 + 4*i
		if err := each(el+b.u32(el), 0); err != nil {
			return err
		}
	}
	return nil
}

// checkField checks a Field's custom metadata and children, recursively.
func (b flatbuf) checkField(t, depth int) error {
	if depth > 64 {
		return fmt.Errorf("corrupt Arrow IPC footer: fields nested more than 64 deep")
	}
	if err := b.checkTables(t, 6, "field metadata", nil); err != nil { // Field.custom_metadata
		return err
	}
	return b.checkTables(t, 5, "field children", func(c, _ int) error { return b.checkField(c, depth+1) }) // Field.children
}
