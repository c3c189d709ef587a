package polyhedra

import (
	"math"
	"sync"
)

// rowIndex finds rows by value, or by the value of their negation,
// without building a key per row: normalising a set looks rows up so
// often that string keys were a large share of all allocation. Rows are
// compared by hashRow first; a basic set has a few dozen rows, which a
// scan of their hashes serves faster than a map, so the map of chains
// is built only for long lists.
type rowIndex struct {
	rows   [][]int64
	hashes []uint64
	head   map[uint64]int // hash -> last row with it, once the list is long
	next   []int          // row -> previous row with the same hash, or -1
}

// scanRows is the length up to which rowIndex scans its hashes.
const scanRows = 64

// rowIndexes recycles indexes: normalising builds several per set, and
// their slices were a tenth of the objects counting allocated.
var rowIndexes = sync.Pool{New: func() any { return new(rowIndex) }}

// newRowIndex returns an empty index; release returns it for reuse.
func newRowIndex() *rowIndex { return rowIndexes.Get().(*rowIndex) }

// release empties x and recycles it; x must not be used afterwards.
func (x *rowIndex) release() {
	clear(x.rows)
	x.rows, x.hashes, x.head, x.next = x.rows[:0], x.hashes[:0], nil, x.next[:0]
	rowIndexes.Put(x)
}

// find returns the number of a stored row equal to sign*r, or -1.
func (x *rowIndex) find(r []int64, sign int64) int {
	if len(x.rows) == 0 {
		return -1
	}
	return x.findHash(hashRow(r, sign), r, sign)
}

// findHash is find given h = hashRow(r, sign).
func (x *rowIndex) findHash(h uint64, r []int64, sign int64) int {
	if x.head == nil {
		for i, g := range x.hashes {
			if g == h && sameDirection(x.rows[i], r, sign) {
				return i
			}
		}
		return -1
	}
	i, ok := x.head[h]
	for ; ok && i >= 0; i = x.next[i] {
		if sameDirection(x.rows[i], r, sign) {
			return i
		}
	}
	return -1
}

// add stores r, numbered in the order of adding.
func (x *rowIndex) add(r []int64) { x.addHash(hashRow(r, 1), r) }

// addHash is add given h = hashRow(r, 1).
func (x *rowIndex) addHash(h uint64, r []int64) {
	x.rows = append(x.rows, r)
	x.hashes = append(x.hashes, h)
	switch {
	case x.head != nil:
		x.chain(len(x.rows)-1, h)
	case len(x.rows) > scanRows:
		x.head = make(map[uint64]int, 2*len(x.rows))
		x.next = make([]int, 0, 2*len(x.rows))
		for i, g := range x.hashes {
			x.chain(i, g)
		}
	}
}

func (x *rowIndex) chain(i int, h uint64) {
	prev, ok := x.head[h]
	if !ok {
		prev = -1
	}
	x.next = append(x.next, prev)
	x.head[h] = i
}

// hashRow hashes sign*r without allocating.
func hashRow(r []int64, sign int64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range r {
		h ^= uint64(sign * v)
		h *= 1099511628211
		h ^= h >> 29
	}
	return h
}

// sameDirection reports whether a = sign*b.
func sameDirection(a, b []int64, sign int64) bool {
	for j := range a {
		if a[j] != sign*b[j] || (sign < 0 && b[j] == math.MinInt64) {
			return false
		}
	}
	return true
}
