package fit

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// checkArrowFooter verifies the flatbuffer structure of an Arrow IPC
// file's footer and schema before the Arrow reader sees them.
//
// The Go Arrow reader (v17) does not verify flatbuffers: it allocates
// slices as long as the vector lengths recorded in the schema (fields,
// children, key-value metadata) and follows child fields recursively. A
// corrupt length asks for terabytes and a child that points back at its
// parent recurses until the stack overflows; both kill the process, which
// no recover can prevent. This check bounds every table, vector and string
// the reader reads from the footer by the footer's size, and the field
// tree by a depth and a count.
func checkArrowFooter(data []byte) error {
	const magic = "ARROW1"
	n := len(data)
	if n < 2*len(magic)+4+8 || string(data[n-len(magic):]) != magic {
		return errors.New("not an Arrow IPC file (no ARROW1 trailer)")
	}
	size := int64(binary.LittleEndian.Uint32(data[n-len(magic)-4:]))
	end := int64(n - len(magic) - 4)
	if size <= 0 || size > end-int64(len(magic)) {
		return fmt.Errorf("footer size %d does not fit in a %d-byte file", size, n)
	}
	fb := flatbuf{b: data[end-size : end]}
	footer, err := fb.root()
	if err != nil {
		return fmt.Errorf("footer: %w", err)
	}
	const blockSize = 24 // struct Block { offset: long; metaDataLength: int; bodyLength: long }
	for slot, what := range map[int]string{2: "dictionary blocks", 3: "record batch blocks"} {
		if _, err := fb.vector(footer, slot, blockSize); err != nil {
			return fmt.Errorf("footer %s: %w", what, err)
		}
	}
	if err := fb.keyValues(footer, 4); err != nil {
		return fmt.Errorf("footer metadata: %w", err)
	}
	schema, ok, err := fb.table(footer, 1)
	if err != nil || !ok {
		return fmt.Errorf("footer schema: missing or corrupt (%v)", err)
	}
	if err := fb.keyValues(schema, 2); err != nil {
		return fmt.Errorf("schema metadata: %w", err)
	}
	if _, err := fb.vector(schema, 3, 8); err != nil {
		return fmt.Errorf("schema features: %w", err)
	}
	budget := maxFields
	return fb.fields(schema, 1, 0, &budget)
}

const (
	maxFieldDepth = 32
	maxFields     = 10000
)

// fields checks a vector of Field tables and, recursively, their children.
func (fb flatbuf) fields(t fbTable, slot, depth int, budget *int) error {
	elems, err := fb.vector(t, slot, 4)
	if err != nil {
		return fmt.Errorf("fields: %w", err)
	}
	if len(elems) > 0 && depth >= maxFieldDepth {
		return fmt.Errorf("fields nested deeper than %d", maxFieldDepth)
	}
	for i, p := range elems {
		*budget--
		if *budget < 0 {
			return fmt.Errorf("more than %d fields", maxFields)
		}
		f, err := fb.indirectTable(p)
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
	typeTimestamp = 10
	typeUnion     = 14
)

func (fb flatbuf) field(f fbTable, depth int, budget *int) error {
	if _, err := fb.vector(f, 0, 1); err != nil {
		return fmt.Errorf("name: %w", err)
	}
	typ, _, err := fb.table(f, 3)
	if err != nil {
		return fmt.Errorf("type: %w", err)
	}
	switch fb.scalar(f, 2, 1) {
	case typeTimestamp:
		_, err = fb.vector(typ, 1, 1)
	case typeUnion:
		_, err = fb.vector(typ, 1, 4)
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
	elems, err := fb.vector(t, slot, 4)
	if err != nil {
		return err
	}
	for i, p := range elems {
		kv, err := fb.indirectTable(p)
		if err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
		for s := range 2 {
			if _, err := fb.vector(kv, s, 1); err != nil {
				return fmt.Errorf("entry %d: %w", i, err)
			}
		}
	}
	return nil
}

// flatbuf reads a flatbuffer with bounds checks on every access.
type flatbuf struct{ b []byte }

// fbTable is a verified table: its position, its vtable's position and
// their lengths.
type fbTable struct{ pos, vt, vtLen, objLen int }

var errBounds = errors.New("offset out of bounds")

func (fb flatbuf) u32(p int) (int, error) {
	if p < 0 || p+4 > len(fb.b) {
		return 0, errBounds
	}
	return int(binary.LittleEndian.Uint32(fb.b[p:])), nil
}

func (fb flatbuf) u16(p int) int { return int(binary.LittleEndian.Uint16(fb.b[p:])) }

func (fb flatbuf) root() (fbTable, error) {
	p, err := fb.u32(0)
	if err != nil {
		return fbTable{}, err
	}
	return fb.tableAt(p)
}

func (fb flatbuf) tableAt(pos int) (fbTable, error) {
	soff, err := fb.u32(pos)
	if err != nil {
		return fbTable{}, err
	}
	vt := pos - int(int32(uint32(soff)))
	if vt < 0 || vt+4 > len(fb.b) {
		return fbTable{}, errBounds
	}
	t := fbTable{pos: pos, vt: vt, vtLen: fb.u16(vt), objLen: fb.u16(vt + 2)}
	if t.vtLen < 4 || t.vtLen%2 != 0 || vt+t.vtLen > len(fb.b) || t.objLen < 4 || pos+t.objLen > len(fb.b) {
		return fbTable{}, errors.New("corrupt table")
	}
	return t, nil
}

// fieldPos returns the position of a field's value, or 0 if it is absent.
func (fb flatbuf) fieldPos(t fbTable, slot, size int) (int, error) {
	vo := 4 + 2*slot
	if vo+2 > t.vtLen {
		return 0, nil
	}
	off := fb.u16(t.vt + vo)
	if off == 0 {
		return 0, nil
	}
	if off+size > t.objLen {
		return 0, errBounds
	}
	return t.pos + off, nil
}

// scalar returns a scalar field of size 1, 2 or 4 bytes, or 0.
func (fb flatbuf) scalar(t fbTable, slot, size int) int {
	p, err := fb.fieldPos(t, slot, size)
	if err != nil || p == 0 {
		return 0
	}
	switch size {
	case 1:
		return int(fb.b[p])
	case 2:
		return fb.u16(p)
	}
	v, _ := fb.u32(p)
	return v
}

func (fb flatbuf) indirectTable(p int) (fbTable, error) {
	off, err := fb.u32(p)
	if err != nil {
		return fbTable{}, err
	}
	return fb.tableAt(p + off)
}

// table returns the table a field refers to, if present.
func (fb flatbuf) table(t fbTable, slot int) (fbTable, bool, error) {
	p, err := fb.fieldPos(t, slot, 4)
	if err != nil || p == 0 {
		return fbTable{}, false, err
	}
	sub, err := fb.indirectTable(p)
	return sub, err == nil, err
}

// vector checks the vector (or string) a field refers to and returns the
// positions of its elements; an absent field is an empty vector.
func (fb flatbuf) vector(t fbTable, slot, elemSize int) ([]int, error) {
	p, err := fb.fieldPos(t, slot, 4)
	if err != nil || p == 0 {
		return nil, err
	}
	off, err := fb.u32(p)
	if err != nil {
		return nil, err
	}
	v := p + off
	n, err := fb.u32(v)
	if err != nil {
		return nil, err
	}
	if int64(v)+4+int64(n)*int64(elemSize) > int64(len(fb.b)) {
		return nil, fmt.Errorf("vector of %d elements overruns the buffer", n)
	}
	if elemSize != 4 {
		return nil, nil
	}
	elems := make([]int, n)
	for i := range elems {
		elems[i] = v + 4 + 4*i
	}
	return elems, nil
}
