package arrowfile

import (
	"encoding/binary"
	"fmt"
	"io"
)

const magic = "ARROW1"

// Limits on the schema's field tree. Children may share a table, so a
// small footer can describe an exponentially large tree: the count matters
// as much as the depth.
const (
	maxFieldDepth = 32
	maxFields     = 10000
)

// checkFooter verifies the footer of the Arrow IPC file r of size bytes
// before the Arrow reader sees it, following the flatbuffers layout of
// File.fbs and Schema.fbs: every table, vector and string the reader reads
// from the footer must lie in the footer, the field tree must be at most
// maxFieldDepth deep and hold at most maxFields fields, and every record
// batch and dictionary block must lie in the file before the footer.
func checkFooter(r io.ReaderAt, size int64) error {
	const tail = 4 + len(magic) // int32 footer length, then the magic
	if size < 2*int64(len(magic))+4+8 {
		return fmt.Errorf("not an Arrow IPC file: %d bytes is too short", size)
	}
	end := make([]byte, tail)
	if _, err := r.ReadAt(end, size-int64(tail)); err != nil {
		return err
	}
	if string(end[4:]) != magic {
		return fmt.Errorf("not an Arrow IPC file: no %s trailer", magic)
	}
	n := int64(binary.LittleEndian.Uint32(end))
	start := size - int64(tail) - n
	if n <= 0 || start < int64(len(magic)) {
		return fmt.Errorf("not an Arrow IPC file: footer length %d in a file of %d bytes", n, size)
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, start); err != nil {
		return err
	}
	if err := checkFooterBytes(flatbuf{buf}, start); err != nil {
		return fmt.Errorf("corrupt Arrow IPC footer: %w", err)
	}
	return nil
}

// checkFooterBytes checks a Footer table; blocks must end by bodyEnd.
func checkFooterBytes(fb flatbuf, bodyEnd int64) error {
	footer, err := fb.root()
	if err != nil {
		return err
	}
	for _, b := range []struct {
		slot int
		what string
	}{{2, "dictionary blocks"}, {3, "record batch blocks"}} {
		if err := fb.blocks(footer, b.slot, bodyEnd); err != nil {
			return fmt.Errorf("%s: %w", b.what, err)
		}
	}
	if err := fb.keyValues(footer, 4); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	schema, ok, err := fb.table(footer, 1)
	if err != nil || !ok {
		return fmt.Errorf("schema: missing or corrupt (%v)", err)
	}
	if err := fb.keyValues(schema, 2); err != nil {
		return fmt.Errorf("schema metadata: %w", err)
	}
	if _, _, err := fb.vector(schema, 3, 8); err != nil {
		return fmt.Errorf("schema features: %w", err)
	}
	budget := maxFields
	return fb.fields(schema, 1, 0, &budget)
}

// blocks checks a vector of Block structs: each names a message by offset,
// metadata length and body length, all of which must lie before end.
func (fb flatbuf) blocks(t fbTable, slot int, end int64) error {
	const blockSize = 24 // struct Block { offset: long; metaDataLength: int; (pad 4) bodyLength: long }
	start, n, err := fb.vector(t, slot, blockSize)
	if err != nil {
		return err
	}
	for i := range n {
		p := start + i*blockSize
		off, meta, body := fb.i64(p), fb.i32(p+8), fb.i64(p+16)
		if off < 0 || meta < 0 || body < 0 || off > end || meta > end-off || body > end-off-meta {
			return fmt.Errorf("block %d: offset %d, metadata %d and body %d bytes do not lie within the %d bytes before the footer",
				i, off, meta, body, end)
		}
	}
	return nil
}

// fields checks a vector of Field tables and, recursively, their children;
// budget counts down the fields still allowed.
func (fb flatbuf) fields(t fbTable, slot, depth int, budget *int) error {
	start, n, err := fb.vector(t, slot, 4)
	if err != nil {
		return fmt.Errorf("fields: %w", err)
	}
	if n > 0 && depth >= maxFieldDepth {
		return fmt.Errorf("fields nested deeper than %d", maxFieldDepth)
	}
	for i := range n {
		*budget--
		if *budget < 0 {
			return fmt.Errorf("more than %d fields", maxFields)
		}
		f, err := fb.indirectTable(start + 4*i)
		if err != nil {
			return fmt.Errorf("field %d: %w", i, err)
		}
		if err := fb.field(f, depth, budget); err != nil {
			return fmt.Errorf("field %d: %w", i, err)
		}
	}
	return nil
}

// Arrow's Type union tags whose tables hold vectors or strings.
const (
	typeTimestamp = 10 // Timestamp.timezone: string
	typeUnion     = 14 // Union.typeIds: [int]
)

// field checks one Field table: name, type, dictionary encoding, metadata
// and children.
func (fb flatbuf) field(f fbTable, depth int, budget *int) error {
	if _, _, err := fb.vector(f, 0, 1); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	typ, _, err := fb.table(f, 3)
	if err != nil {
		return fmt.Errorf("type: %w", err)
	}
	switch fb.scalar(f, 2, 1) {
	case typeTimestamp:
		_, _, err = fb.vector(typ, 1, 1)
	case typeUnion:
		_, _, err = fb.vector(typ, 1, 4)
	}
	if err != nil {
		return fmt.Errorf("type: %w", err)
	}
	if dict, ok, err := fb.table(f, 4); err != nil {
		return fmt.Errorf("dictionary: %w", err)
	} else if ok {
		if _, _, err := fb.table(dict, 1); err != nil {
			return fmt.Errorf("dictionary index type: %w", err)
		}
	}
	if err := fb.keyValues(f, 6); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	return fb.fields(f, 5, depth+1, budget)
}

// keyValues checks a vector of KeyValue tables of two strings.
func (fb flatbuf) keyValues(t fbTable, slot int) error {
	start, n, err := fb.vector(t, slot, 4)
	if err != nil {
		return err
	}
	for i := range n {
		kv, err := fb.indirectTable(start + 4*i)
		if err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
		for s := range 2 {
			if _, _, err := fb.vector(kv, s, 1); err != nil {
				return fmt.Errorf("entry %d: %w", i, err)
			}
		}
	}
	return nil
}
