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
			if p := (counts.Op{Kind: kind, DType: typ}).Property(); !counts.IsProperty(p) {
				t.Errorf("%s is not accepted", p)
			}
		}
	}
	for _, p := range []string{"int.i32.fmod", "flop.f32.bitwise", "flop.f64.shift", "int.i16.add"} {
		if counts.IsProperty(p) {
			t.Errorf("%s is accepted", p)
		}
	}
}

// The indirect and atomic properties of a kernel with gathers, a scatter
// and atomics in both spaces are ones CheckWeights accepts.
func TestPropertyNamesCoverIndirectAndAtomics(t *testing.T) {
	src := `kernel k
domain [n] -> { [i] : 0 <= i < n }
array p i32 [n]
array x f32 [n]
array h i32 [8]
local l f32 [8]
split i 8 i_out i_in
tag i_out g.0, i_in l.0
x[p[i]] = x[i] + l[p[i] % 8]
atomic_add(h[p[i] % 8], 1)
atomic_add(l[p[i] % 8], 1.5f)
`
	k, err := counts.ParseKernel("k.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"global.store.indirect.f32": true, "local.load.indirect.f32": true,
		"global.atomic.i32.add": true, "local.atomic.f32.add": true}
	for _, p := range c.Names() {
		delete(want, p)
		if !counts.IsProperty(p) {
			t.Errorf("%s is not accepted", p)
		}
	}
	if len(want) > 0 {
		t.Errorf("not counted: %v", want)
	}
}
