package launch

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
)

// indexRange is the number of values an index array's elements may take
// where the global arrays have sizes elements: the smallest extent it
// subscripts; 0 for other arrays. An extent is the size of a
// one-dimensional global array or a constant (a local array's is).
func (u arrayUse) indexRange(name string, sizes map[string]int64) (int64, error) {
	var out int64
	for i, use := range u.index[name] {
		v := sizes[use.target.Name]
		if ext := use.target.Shape[use.dim]; len(use.target.Shape) > 1 || use.target.Space != counts.Global {
			if !ext.IsConst() {
				return 0, fmt.Errorf("array %s subscripts dimension %d of %s, whose extent %s is not known from the arrays' sizes: random subscripts are drawn for one-dimensional arrays and constant extents; flatten %s", name, use.dim, use.target.Name, ext, use.target.Name)
			}
			v = ext.Const
		}
		if i == 0 || v < out {
			out = v
		}
	}
	return out, nil
}

// valueRange is the number of values, from 0, that the elements of an
// integer array may take at params (sizes its arrays'): those of an index
// array (indexRange) and of an array that data-bounded loops' bounds come
// from (boundRange), whichever is fewer; 0 for other arrays, which take
// random values.
func (u arrayUse) valueRange(name string, sizes, params map[string]int64) (int64, error) {
	e, err := u.indexRange(name, sizes)
	if b := u.boundRange(name, params); b > 0 && (e == 0 || b < e) {
		e = b
	}
	return e, err
}

// indices fills an index array with valid subscripts below e: each run of
// e elements is a random permutation of 0..e-1, so that a gather reads
// every element of what it gathers from once per run, in random order,
// and a scatter through it does not store to one element twice.
func indices[T int32 | uint32 | int64](s []T, e int64, r *rng) {
	for lo := int64(0); lo < int64(len(s)); lo += e {
		run := s[lo:min(int64(len(s)), lo+e)]
		perm := make([]T, e)
		for i := range perm {
			perm[i] = T(i)
		}
		for i := e - 1; i > 0; i-- {
			j := int64(r.next() % uint64(i+1))
			perm[i], perm[j] = perm[j], perm[i]
		}
		copy(run, perm)
	}
}

// fillIndices fills an i32, u32 or i64 host array with indices below e.
func fillIndices(h hostArray, e int64, r *rng) {
	switch h := h.(type) {
	case *typedArray[int32]:
		indices(h.s, e, r)
	case *typedArray[uint32]:
		indices(h.s, e, r)
	case *typedArray[int64]:
		indices(h.s, e, r)
	}
}
