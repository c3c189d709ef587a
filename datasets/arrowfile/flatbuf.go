package arrowfile

import (
	"encoding/binary"
	"fmt"
)

// flatbuf reads a flatbuffer with a bounds check on every access. Offsets
// are added in int, not wrapped in uint32 as the flatbuffers library does,
// so an offset cannot wrap around to point back at its own table.
type flatbuf struct{ b []byte }

// fbTable is a verified table: its position, its vtable's position and
// their lengths.
type fbTable struct{ pos, vt, vtLen, objLen int }

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
		return fbTable{}, errCorruptTable
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
// position of its first element and its length; an absent field is an
// empty vector.
func (fb flatbuf) vector(t fbTable, slot, elemSize int) (start, n int, err error) {
	p, err := fb.fieldPos(t, slot, 4)
	if err != nil || p == 0 {
		return 0, 0, err
	}
	off, err := fb.u32(p)
	if err != nil {
		return 0, 0, err
	}
	v := p + off
	if n, err = fb.u32(v); err != nil {
		return 0, 0, err
	}
	if int64(v)+4+int64(n)*int64(elemSize) > int64(len(fb.b)) {
		return 0, 0, fmt.Errorf("vector of %d elements overruns the buffer", n)
	}
	return v + 4, n, nil
}

// i32 and i64 read little-endian integers at positions the caller has
// checked.
func (fb flatbuf) i32(p int) int64 { return int64(int32(binary.LittleEndian.Uint32(fb.b[p:]))) }
func (fb flatbuf) i64(p int) int64 { return int64(binary.LittleEndian.Uint64(fb.b[p:])) }
