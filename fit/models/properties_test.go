package models

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// Every operation property package counts can name (each kind at each
// type it applies to: fmod on floats, bitwise and shift on integers) is
// one CheckWeights accepts; weights fitted on the arith_int class hold
// int.i32.bitwise and int.i32.shift, which it once refused.
func TestPropertyNamesCoverOperations(t *testing.T) {
	kinds := map[counts.OpKind][]counts.DType{
		counts.KindAdd: {counts.F32, counts.F64, counts.I32, counts.I64}, counts.KindMul: {counts.F32, counts.I64},
		counts.KindDiv: {counts.F64, counts.I32}, counts.KindPow: {counts.F32}, counts.KindExp: {counts.F64},
		counts.KindSpecial: {counts.F32, counts.I32}, counts.KindFmod: {counts.F32, counts.F64},
		counts.KindBitwise: {counts.I32, counts.I64}, counts.KindShift: {counts.I32, counts.I64},
	}
	for kind, types := range kinds {
		for _, typ := range types {
			if p := (counts.Op{Kind: kind, DType: typ}).Property(); !propertyName.MatchString(p) {
				t.Errorf("%s is not accepted", p)
			}
		}
	}
	for _, p := range []string{"int.i32.fmod", "flop.f32.bitwise", "flop.f64.shift", "int.i16.add"} {
		if propertyName.MatchString(p) {
			t.Errorf("%s is accepted", p)
		}
	}
}
