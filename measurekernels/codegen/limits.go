package codegen

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/uniperf/uniperf/counts"
)

// MaxLocalBytes bounds the size of one local or private array. No device
// uniperf measures has more than 228 KiB of local memory per work-group;
// an array past a mebibyte is a const gone wrong, and past 2^31 elements
// its 32-bit indices would overflow.
const MaxLocalBytes = 1 << 20

// checkSizes refuses what the generated code cannot represent: the
// code computes indices and loop bounds in 32-bit int, and declares
// local and private arrays with constant shapes, so a huge const either
// overflows that arithmetic or declares an array no device could hold.
func checkSizes(k *counts.Kernel) error {
	for _, c := range k.Consts {
		if c.Value > math.MaxInt32 || c.Value < math.MinInt32 {
			return &counts.Error{File: k.File, Pos: c.Pos, Msg: fmt.Sprintf("const %s = %d does not fit the 32-bit int arithmetic of the generated code: give it a value from %d to %d (--const %s=V)", c.Name, c.Value, math.MinInt32, math.MaxInt32, c.Name)}
		}
	}
	for _, a := range k.Arrays {
		if a.Space == counts.Global {
			continue
		}
		size := uint64(a.DType.Size())
		for _, d := range a.Shape {
			hi, lo := bits.Mul64(size, uint64(max(d.Const, 0)))
			if !d.IsConst() || hi != 0 || lo > MaxLocalBytes {
				return &counts.Error{File: k.File, Pos: a.Pos, Msg: fmt.Sprintf("array %s of shape %v: more than the %d bytes a local or private array may have: make it smaller (the consts of its extent), or declare it a global array (array %s ...)", a.Name, a.Shape, MaxLocalBytes, a.Name)}
			}
			size = lo
		}
	}
	return nil
}
