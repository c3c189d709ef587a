package arrowfile_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/uniperf/uniperf/datasets/arrowfile"
)

// footerBuilder writes Arrow IPC files that hold only a footer, built
// field by field after File.fbs and Schema.fbs, so that a test can damage
// exactly one part of a footer the Arrow writer would never produce.
type footerBuilder struct {
	*flatbuffers.Builder
}

// Slots of the Footer, Schema, Field and KeyValue tables and Arrow's Type
// union tags, from File.fbs and Schema.fbs.
const (
	footerVersion, footerSchema, footerDictionaries, footerRecordBatches = 0, 1, 2, 3
	schemaFields, schemaMetadata                                         = 1, 2
	fieldName, fieldTypeType, fieldType, fieldChildren                   = 0, 2, 3, 5
	tagInt, tagTimestamp, tagStruct                                      = 2, 10, 13
	metadataV5                                                           = 4
)

func newFooterBuilder() footerBuilder { return footerBuilder{flatbuffers.NewBuilder(0)} }

func (b footerBuilder) field(name string, tag byte, typ flatbuffers.UOffsetT, children []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	var kids flatbuffers.UOffsetT
	if children != nil {
		kids = b.CreateVectorOfTables(children)
	}
	n := b.CreateString(name)
	b.StartObject(7)
	b.PrependUOffsetTSlot(fieldName, n, 0)
	b.PrependByteSlot(fieldTypeType, tag, 0)
	b.PrependUOffsetTSlot(fieldType, typ, 0)
	if children != nil {
		b.PrependUOffsetTSlot(fieldChildren, kids, 0)
	}
	return b.EndObject()
}

// intField is a field of type int64.
func (b footerBuilder) intField(name string) flatbuffers.UOffsetT {
	b.StartObject(2)
	b.PrependInt32Slot(0, 64, 0)      // Int.bitWidth
	b.PrependBoolSlot(1, true, false) // Int.is_signed
	return b.field(name, tagInt, b.EndObject(), nil)
}

func (b footerBuilder) structField(name string, children ...flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	b.StartObject(0)
	return b.field(name, tagStruct, b.EndObject(), children)
}

// timestampField is a field of type timestamp[us] in the time zone tz; it
// returns the field and the time zone string.
func (b footerBuilder) timestampField(name, tz string) (field, zone flatbuffers.UOffsetT) {
	zone = b.CreateString(tz)
	b.StartObject(2)
	b.PrependInt16Slot(0, int16(arrow.Microsecond), 0) // Timestamp.unit
	b.PrependUOffsetTSlot(1, zone, 0)                  // Timestamp.timezone
	return b.field(name, tagTimestamp, b.EndObject(), nil), zone
}

// keyValue is a metadata entry; it returns the entry and its value string.
func (b footerBuilder) keyValue(k, v string) (entry, value flatbuffers.UOffsetT) {
	ko, vo := b.CreateString(k), b.CreateString(v)
	b.StartObject(2)
	b.PrependUOffsetTSlot(0, ko, 0)
	b.PrependUOffsetTSlot(1, vo, 0)
	return b.EndObject(), vo
}

// block is a Block struct: offset, metadata length, body length.
type block struct {
	offset int64
	meta   int32
	body   int64
}

// file finishes the footer around the schema's fields vector and returns
// the file: the leading magic and padding, the footer, its length and the
// trailing magic.
func (b footerBuilder) file(fields, metadata flatbuffers.UOffsetT, batches []block) []byte {
	var blocks flatbuffers.UOffsetT
	if batches != nil {
		b.StartVector(24, len(batches), 8)
		for _, blk := range batches {
			b.Prep(8, 24)
			b.PrependInt64(blk.body)
			b.Pad(4)
			b.PrependInt32(blk.meta)
			b.PrependInt64(blk.offset)
		}
		blocks = b.EndVector(len(batches))
	}
	b.StartObject(4)
	b.PrependUOffsetTSlot(schemaFields, fields, 0)
	if metadata != 0 {
		b.PrependUOffsetTSlot(schemaMetadata, metadata, 0)
	}
	schema := b.EndObject()
	b.StartObject(5)
	b.PrependInt16Slot(footerVersion, metadataV5, 0)
	b.PrependUOffsetTSlot(footerSchema, schema, 0)
	if batches != nil {
		b.PrependUOffsetTSlot(footerRecordBatches, blocks, 0)
	}
	b.Finish(b.EndObject())
	footer := b.FinishedBytes()
	out := append([]byte("ARROW1\x00\x00"), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "ARROW1"...)
}

// at returns the position in a file from b.file of the object at offset
// off, which the builder counts from the end of the footer.
func at(file []byte, off flatbuffers.UOffsetT) int {
	return len(file) - 10 - int(off)
}

func readSchema(data []byte) (*arrow.Schema, error) {
	var s *arrow.Schema
	err := arrowfile.Read(bytes.NewReader(data), func(r *ipc.FileReader) error {
		s = r.Schema()
		return nil
	})
	return s, err
}

// The hand-built footer, undamaged, is a valid file, so each test below
// fails for its one damage alone.
func TestFooterBuilder(t *testing.T) {
	b := newFooterBuilder()
	ts, _ := b.timestampField("at", "UTC")
	s := b.structField("s", b.intField("a"), b.intField("b"))
	fields := b.CreateVectorOfTables([]flatbuffers.UOffsetT{s, b.intField("c"), ts})
	md, _ := b.keyValue("k", "v")
	got, err := readSchema(b.file(fields, b.CreateVectorOfTables([]flatbuffers.UOffsetT{md}), []block{}))
	if err != nil {
		t.Fatal(err)
	}
	want := arrow.NewSchema([]arrow.Field{
		{Name: "s", Type: arrow.StructOf(
			arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64},
			arrow.Field{Name: "b", Type: arrow.PrimitiveTypes.Int64})},
		{Name: "c", Type: arrow.PrimitiveTypes.Int64},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	}, nil)
	if !got.Equal(want) || got.Metadata().FindKey("k") != 0 {
		t.Errorf("read schema %v, want %v with metadata k", got, want)
	}
}

func wantFooterError(t *testing.T, name string, data []byte, text string) {
	t.Helper()
	_, err := readSchema(data)
	if err == nil || !strings.Contains(err.Error(), "corrupt Arrow IPC footer") || !strings.Contains(err.Error(), text) {
		t.Errorf("%s: got %v, want a corrupt footer error containing %q", name, err, text)
	}
}

// setU32 overwrites the 32-bit value at position p.
func setU32(data []byte, p int, v uint32) { binary.LittleEndian.PutUint32(data[p:], v) }

// Unchecked, a damaged fields vector made the Arrow reader allocate
// gigabytes (a fatal error, not a panic); the metadata and time zone
// strings are sliced from the footer, which must hold them.
func TestFooterVectorOverruns(t *testing.T) {
	b := newFooterBuilder()
	fields := b.CreateVectorOfTables([]flatbuffers.UOffsetT{b.intField("c")})
	data := b.file(fields, 0, nil)
	setU32(data, at(data, fields), math.MaxInt32)
	wantFooterError(t, "fields", data, "fields: vector of 2147483647 elements overruns")

	b = newFooterBuilder()
	s := b.structField("s", b.intField("a"))
	fields = b.CreateVectorOfTables([]flatbuffers.UOffsetT{s})
	data = b.file(fields, 0, nil)
	setU32(data, childrenVector(t, data, at(data, s)), math.MaxInt32)
	wantFooterError(t, "children", data, "field 0: fields: vector of 2147483647 elements overruns")

	b = newFooterBuilder()
	md, value := b.keyValue("k", "v")
	fields = b.CreateVectorOfTables([]flatbuffers.UOffsetT{b.intField("c")})
	data = b.file(fields, b.CreateVectorOfTables([]flatbuffers.UOffsetT{md}), nil)
	setU32(data, at(data, value), math.MaxInt32)
	wantFooterError(t, "metadata value", data, "schema metadata: entry 0: vector of 2147483647 elements overruns")

	b = newFooterBuilder()
	ts, zone := b.timestampField("at", "UTC")
	fields = b.CreateVectorOfTables([]flatbuffers.UOffsetT{ts})
	data = b.file(fields, 0, nil)
	setU32(data, at(data, zone), 1<<20)
	wantFooterError(t, "time zone", data, "field 0: type: vector of 1048576 elements overruns")
}

// childrenVector returns the position of the children vector of the Field
// table at p, reading the vtable by the flatbuffers rules.
func childrenVector(t *testing.T, data []byte, p int) int {
	t.Helper()
	vt := p - int(int32(binary.LittleEndian.Uint32(data[p:])))
	slot := vt + 4 + 2*fieldChildren
	off := int(binary.LittleEndian.Uint16(data[slot:]))
	if off == 0 {
		t.Fatal("the struct field has no children")
	}
	ref := p + off
	return ref + int(binary.LittleEndian.Uint32(data[ref:]))
}

// A child offset that wraps around 2^32 points back at its parent in the
// flatbuffers library's uint32 arithmetic: unchecked, the Arrow reader
// recursed until the stack overflowed.
func TestFooterChildWrapsToParent(t *testing.T) {
	b := newFooterBuilder()
	s := b.structField("s", b.intField("a"))
	fields := b.CreateVectorOfTables([]flatbuffers.UOffsetT{s})
	data := b.file(fields, 0, nil)
	parent := at(data, s)
	elem := childrenVector(t, data, parent) + 4
	setU32(data, elem, uint32(parent-elem)) // wraps: elem + off ≡ parent (mod 2^32)
	if uint32(elem)+binary.LittleEndian.Uint32(data[elem:]) != uint32(parent) {
		t.Fatal("the damaged offset does not wrap to the parent")
	}
	wantFooterError(t, "cycle", data, "field 0: field 0: offset out of bounds")
}

// Children may share one table: 15 levels of two references to the level
// below take a few hundred bytes and describe 2^16-1 fields.
func TestFooterSharedChildren(t *testing.T) {
	b := newFooterBuilder()
	f := b.intField("leaf")
	for range 15 {
		f = b.structField("s", f, f)
	}
	data := b.file(b.CreateVectorOfTables([]flatbuffers.UOffsetT{f}), 0, nil)
	if len(data) > 1000 {
		t.Fatalf("footer of %d bytes", len(data))
	}
	wantFooterError(t, "shared", data, "more than 10000 fields")
}

func TestFooterDepth(t *testing.T) {
	build := func(depth int) []byte {
		b := newFooterBuilder()
		f := b.intField("leaf")
		for range depth {
			f = b.structField("s", f)
		}
		return b.file(b.CreateVectorOfTables([]flatbuffers.UOffsetT{f}), 0, nil)
	}
	if _, err := readSchema(build(31)); err != nil {
		t.Errorf("32 levels of fields: %v", err)
	}
	wantFooterError(t, "deep", build(32), "fields nested deeper than 32")
}

func TestFooterBlocks(t *testing.T) {
	build := func(blk block) []byte {
		b := newFooterBuilder()
		return b.file(b.CreateVectorOfTables([]flatbuffers.UOffsetT{b.intField("c")}), 0, []block{blk})
	}
	end := int64(8) // the footer starts after the magic and its padding
	for _, blk := range []block{
		{offset: 9, meta: 0, body: 0},
		{offset: 0, meta: 16, body: 0},
		{offset: 0, meta: 0, body: 1 << 40},
		{offset: -8, meta: 8, body: 0},
		{offset: 0, meta: -8, body: 16},
		{offset: math.MaxInt64, meta: 8, body: math.MaxInt64},
	} {
		wantFooterError(t, "block", build(blk), "record batch blocks: block 0")
	}
	// A block that ends where the footer starts passes.
	if _, err := readSchema(build(block{offset: 0, meta: 0, body: end})); err != nil {
		t.Errorf("a block within the file: %v", err)
	}
}
