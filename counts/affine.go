package counts

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// Affine is an integer expression in inames and parameters that is affine
// in the inames: the form every subscript, every iname-valued expression
// and every array extent takes after parsing and splitting. Its
// coefficients may be products of parameters, as in a flattened index
// i*n + j or an extent n*n; an iname-valued expression and the subscripts
// of a set have plain integer coefficients (see IsAffine). A subscript
// may also hold floor divisions by positive constants (Floors), which //
// and % by constants become: i % 16 is i - 16*floor(i/16). Terms are kept
// in the order their names were first met, without zero coefficients or
// repeated names.
type Affine struct {
	Terms  []Term
	Const  int64
	Floors []Floor
}

// Term is Coeff times Name, a product of inames and parameters written
// with '*' between the names in sorted order ("i", "i*n", "n*n"). At most
// one of the names is an iname.
type Term struct {
	Name  string
	Coeff int64
}

// Factors returns the names whose product the term is.
func (t Term) Factors() []string { return strings.Split(t.Name, "*") }

// IsAffine reports whether every term is a single name, so that a is
// affine in the parameters too.
func (a Affine) IsAffine() bool {
	for _, t := range a.Terms {
		if strings.Contains(t.Name, "*") {
			return false
		}
	}
	return true
}

// Eval evaluates a at the values of its names, failing when one has no
// value or, with polyhedra.ErrOverflow, when the arithmetic overflows
// int64.
func (a Affine) Eval(vals map[string]int64) (int64, error) {
	s := a.Const
	for _, t := range a.Terms {
		v := t.Coeff
		for _, f := range t.Factors() {
			x, ok := vals[f]
			if !ok {
				return 0, fmt.Errorf("%s needs a value for %s", a, f)
			}
			var err error
			if v, err = mulInt(v, x); err != nil {
				return 0, fmt.Errorf("%s: %w", a, polyhedra.ErrOverflow)
			}
		}
		var err error
		if s, err = addInt(s, v); err != nil {
			return 0, fmt.Errorf("%s: %w", a, polyhedra.ErrOverflow)
		}
	}
	for _, f := range a.Floors {
		n, err := f.Num.Eval(vals)
		if err != nil {
			return 0, err
		}
		if s, err = addScaled(s, floorDiv(n, f.Den), f.Coeff); err != nil {
			return 0, fmt.Errorf("%s: %w", a, polyhedra.ErrOverflow)
		}
	}
	return s, nil
}

// CoeffOf returns the coefficient of the iname or parameter name in a, a
// product of the other names in general: in i*n + j it is n for i and 1
// for j.
func (a Affine) CoeffOf(name string) Affine {
	var r Affine
	for _, t := range a.Terms {
		fs := t.Factors()
		i := slices.Index(fs, name)
		if i < 0 {
			continue
		}
		rest := slices.Delete(fs, i, i+1)
		if len(rest) == 0 {
			r.Const += t.Coeff
			continue
		}
		r.Terms = append(r.Terms, Term{strings.Join(rest, "*"), t.Coeff})
	}
	return r
}

// Coeff returns the coefficient of the term whose product is name
// (0 when absent).
func (a Affine) Coeff(name string) int64 {
	for _, t := range a.Terms {
		if t.Name == name {
			return t.Coeff
		}
	}
	return 0
}

// IsConst reports whether a mentions no name.
func (a Affine) IsConst() bool { return len(a.Terms) == 0 && len(a.Floors) == 0 }

func (a Affine) String() string {
	var b strings.Builder
	for i, t := range a.Terms {
		c := t.Coeff
		switch {
		case i == 0 && c < 0:
			b.WriteString("-")
		case i > 0 && c < 0:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		if absU(c) != 1 {
			fmt.Fprintf(&b, "%d*", absU(c))
		}
		b.WriteString(t.Name)
	}
	for i, f := range a.Floors {
		c := f.Coeff
		switch {
		case i+len(a.Terms) == 0 && c < 0:
			b.WriteString("-")
		case i+len(a.Terms) > 0 && c < 0:
			b.WriteString(" - ")
		case i+len(a.Terms) > 0:
			b.WriteString(" + ")
		}
		if absU(c) != 1 {
			fmt.Fprintf(&b, "%d*", absU(c))
		}
		fmt.Fprintf(&b, "floor((%s)/%d)", f.Num, f.Den)
	}
	switch {
	case len(a.Terms) == 0 && len(a.Floors) == 0:
		fmt.Fprintf(&b, "%d", a.Const)
	case a.Const > 0:
		fmt.Fprintf(&b, " + %d", a.Const)
	case a.Const < 0:
		fmt.Fprintf(&b, " - %d", absU(a.Const))
	}
	return b.String()
}

// addScaled returns a + k*b.
func (a Affine) addScaled(b Affine, k int64) (Affine, error) {
	r := Affine{Terms: slices.Clone(a.Terms)}
	var err error
	if r.Const, err = addScaled(a.Const, b.Const, k); err != nil {
		return Affine{}, err
	}
	for _, t := range b.Terms {
		i := slices.IndexFunc(r.Terms, func(u Term) bool { return u.Name == t.Name })
		if i < 0 {
			r.Terms = append(r.Terms, Term{t.Name, 0})
			i = len(r.Terms) - 1
		}
		if r.Terms[i].Coeff, err = addScaled(r.Terms[i].Coeff, t.Coeff, k); err != nil {
			return Affine{}, err
		}
	}
	r.Terms = slices.DeleteFunc(r.Terms, func(t Term) bool { return t.Coeff == 0 })
	if r.Floors, err = addFloors(a.Floors, b.Floors, k); err != nil {
		return Affine{}, err
	}
	return r, nil
}

// mul returns a*b, failing on overflow.
func (a Affine) mul(b Affine) (Affine, error) {
	switch {
	case len(a.Floors) > 0 && b.IsConst():
		return Affine{}.addScaled(a, b.Const)
	case len(b.Floors) > 0 && a.IsConst():
		return Affine{}.addScaled(b, a.Const)
	case len(a.Floors) > 0 || len(b.Floors) > 0:
		return Affine{}, errFloorProduct
	}
	c, err := mulInt(a.Const, b.Const)
	if err != nil {
		return Affine{}, err
	}
	r := Affine{Const: c}
	for _, x := range append([]Term{{"", a.Const}}, a.Terms...) {
		for _, y := range append([]Term{{"", b.Const}}, b.Terms...) {
			if x.Name == "" && y.Name == "" {
				continue
			}
			c, err := mulInt(x.Coeff, y.Coeff)
			if err == nil {
				r, err = r.addScaled(Affine{Terms: []Term{{monomial(x.Name, y.Name), 1}}}, c)
			}
			if err != nil {
				return Affine{}, err
			}
		}
	}
	return r, nil
}

// subst replaces the iname name by e wherever it is a factor.
func (a Affine) subst(name string, e Affine) (Affine, error) {
	r := Affine{Const: a.Const}
	for _, t := range a.Terms {
		one := Affine{Terms: []Term{t}}
		if slices.Contains(t.Factors(), name) {
			var err error
			if one, err = one.CoeffOf(name).mul(e); err != nil {
				return Affine{}, err
			}
		}
		var err error
		if r, err = r.addScaled(one, 1); err != nil {
			return Affine{}, err
		}
	}
	for _, f := range a.Floors {
		num, err := f.Num.subst(name, e)
		if err != nil {
			return Affine{}, err
		}
		if r.Floors, err = addFloors(r.Floors, []Floor{{f.Coeff, num, f.Den}}, 1); err != nil {
			return Affine{}, err
		}
	}
	return r, nil
}

// affineOf converts a quasi-affine expression without floors to an Affine.
func affineOf(q qaff) Affine {
	a := Affine{Const: q.c}
	for _, t := range q.terms {
		a.Terms = append(a.Terms, Term{t.name, t.coef})
	}
	return a
}

// qaff converts a to a quasi-affine expression; a must be affine (see
// IsAffine), except for an array extent, whose terms may be products of
// parameters.
func (a Affine) qaff() qaff {
	q := qaff{c: a.Const}
	for _, t := range a.Terms {
		q.terms = append(q.terms, lterm{t.Name, t.Coeff})
	}
	for _, f := range a.Floors {
		q.floors = append(q.floors, fterm{f.Coeff, f.Num.qaff(), f.Den})
	}
	return q
}

// Floor divisions of subscripts: loopy's (j + r + 4) % 16, which is
// quasi-affine, as the domain language's mod is.

// Floor is Coeff times the floor of Num divided by Den, Den > 0; Num is
// affine in the inames and parameters, without products or floors.
type Floor struct {
	Coeff int64
	Num   Affine
	Den   int64
}

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
		return Affine{}, errors.New("the dividend of a floor division or remainder in a subscript must be affine, without products or other divisions: write it as constants times inames and parameters, or compute the subscript into an i32 temporary (<i32> t = ..., then a[t]: an indirect access)")
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

// monomial names the product of the terms named a and b: their factors
// in sorted order, joined by '*'.
func monomial(a, b string) string {
	var f []string
	for _, s := range []string{a, b} {
		if s != "" {
			f = append(f, strings.Split(s, "*")...)
		}
	}
	slices.Sort(f)
	return strings.Join(f, "*")
}
