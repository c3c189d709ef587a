package codegen

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/uniperf/uniperf/polyhedra"
)

// An unrolled loop runs over a constant range where its domain gives one:
// a compiler unrolls only a loop whose trip count it knows, and keeps a
// private array such as a tile's sums acc[TY][TX] in registers only when
// every subscript is a constant after unrolling. The loop over ti of a
// tiled matrix multiplication, whose domain is 0 <= ti < TY and
// BY*TY*gy + ty + BY*ti < n, runs "for (int ti = 0; ti < TY; ++ti)", as
// Kernel Tuner's matmul.cu does, and the statements inside test the
// edge, BY*TY*gy + ty + BY*ti < n, in their guards.

// constantBounds reports whether lb's first and last values are integers.
func constantBounds(lb loopBounds) bool {
	_, errLo := strconv.ParseInt(lb.lo, 10, 64)
	_, errHi := strconv.ParseInt(lb.hi, 10, 64)
	return errLo == nil && errHi == nil
}

// looseLoop is the loop over x's constant range, if it has one.
func (d *polyDomain) looseLoop(x string) (loopBounds, bool) {
	r, ok := d.loose[x]
	return loopBounds{lo: strconv.FormatInt(r[0], 10), hi: strconv.FormatInt(r[1], 10)}, ok
}

// context is what holds where the values of known are those of their
// loops: they lie in the domain projected onto them, except that an
// iname whose loop runs over its constant range (see looseRanges) lies in
// that range only.
func (d *polyDomain) context(known []string) (*polyhedra.Set, error) {
	tight := slices.DeleteFunc(slices.Clone(known), func(x string) bool {
		_, ok := d.loose[x]
		return ok
	})
	ctx, err := d.projected(tight)
	if err != nil {
		return nil, err
	}
	for _, x := range known {
		r, ok := d.loose[x]
		if !ok {
			continue
		}
		in, err := d.simp.set([]string{x}, []string{fmt.Sprintf("%d <= %s <= %d", r[0], x, r[1])})
		if err != nil {
			return nil, err
		}
		if ctx, err = polyhedra.Intersect(ctx, in); err != nil {
			return nil, err
		}
	}
	return ctx, nil
}
