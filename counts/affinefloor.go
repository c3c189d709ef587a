package counts

import (
	"errors"
	"slices"
)

// This file holds the floor divisions of subscripts: loopy's (j + r + 4)
// % 16, which is quasi-affine, as the domain language's mod is.

// Floor is Coeff times the floor of Num divided by Den, Den > 0; Num is
// affine in the inames and parameters, without products or floors.
type Floor struct {
	Coeff int64
	Num   Affine
	Den   int64
}

// errFloorProduct refuses a product of a floor division and a
// non-constant.
var errFloorProduct = errors.New("a floor division or remainder times a non-constant is not quasi-affine")

// addFloors returns the floors of a + k*b, merging equal divisions.
func addFloors(a, b []Floor, k int64) ([]Floor, error) {
	r := slices.Clone(a)
	for _, f := range b {
		c, err := mulInt(f.Coeff, k)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(r, func(g Floor) bool { return g.Den == f.Den && g.Num.String() == f.Num.String() })
		if i < 0 {
			r = append(r, Floor{0, f.Num, f.Den})
			i = len(r) - 1
		}
		if r[i].Coeff, err = addInt(r[i].Coeff, c); err != nil {
			return nil, err
		}
	}
	return slices.DeleteFunc(r, func(f Floor) bool { return f.Coeff == 0 }), nil
}

// floorOfAffine returns floor(a/d) for d > 0, or fails where a is not a
// plain affine expression.
func floorOfAffine(a Affine, d int64) (Affine, error) {
	if len(a.Floors) > 0 || !a.IsAffine() {
		return Affine{}, errors.New("the dividend of a floor division or remainder in a subscript must be affine, without products or other divisions")
	}
	if d == 1 {
		return a, nil
	}
	if a.IsConst() {
		return Affine{Const: floorDiv(a.Const, d)}, nil
	}
	return Affine{Floors: []Floor{{1, a, d}}}, nil
}

// inFloor reports whether name occurs inside one of a's floor divisions.
func (a Affine) inFloor(name string) bool {
	return slices.ContainsFunc(a.Floors, func(f Floor) bool { return f.Num.Coeff(name) != 0 })
}
