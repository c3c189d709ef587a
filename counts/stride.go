package counts

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// poly is a polynomial in parameters with integer coefficients, keyed by
// its monomial (sorted parameter names joined by '*'; "" for the
// constant). It expresses a flattened index's coefficient, which is a
// product of extents.
type poly map[string]int64

func polyOf(a Affine) poly {
	p := poly{}
	if a.Const != 0 {
		p[""] = a.Const
	}
	for _, t := range a.Terms {
		p[t.Name] += t.Coeff
	}
	return p
}

func (p poly) mul(q poly) (poly, error) {
	r := poly{}
	for m1, c1 := range p {
		for m2, c2 := range q {
			c, err := mulInt(c1, c2)
			if err != nil {
				return nil, err
			}
			m := monomial(m1, m2)
			if r[m], err = addInt(r[m], c); err != nil {
				return nil, err
			}
		}
	}
	return r.trim(), nil
}

func (p poly) add(q poly) (poly, error) {
	r := poly{}
	for m, c := range p {
		r[m] = c
	}
	for m, c := range q {
		var err error
		if r[m], err = addInt(r[m], c); err != nil {
			return nil, err
		}
	}
	return r.trim(), nil
}

func (p poly) trim() poly {
	for m, c := range p {
		if c == 0 {
			delete(p, m)
		}
	}
	return p
}

// constant reports the polynomial's value when it has no parameter.
func (p poly) constant() (int64, bool) {
	for m := range p {
		if m != "" {
			return 0, false
		}
	}
	return p[""], true
}

// strideClass is the stride of an access in elements between work-items
// adjacent along l.0: the absolute value of the coefficient of the l.0
// iname in the flattened index, or strideVar when that coefficient
// depends on the parameters.
const strideVar = -1

// accessStride computes the stride of an access executed in the inames
// within: 0 when none of them is tagged l.0 or the subscripts do not use
// it. It also returns the coefficient itself.
func (k *Kernel) accessStride(acc *Access, within []string) (int64, poly, error) {
	l0 := ""
	for _, n := range within {
		if t := k.inameIndex[n].Tag; t.Kind == LocalID && t.Axis == 0 {
			l0 = n
		}
	}
	if l0 == "" {
		return 0, poly{}, nil
	}
	a := acc.Array
	total := poly{}
	for d, idx := range acc.Index {
		if idx.inFloor(l0) {
			return 0, nil, fmt.Errorf("the l.0 iname %s is inside a floor division or remainder (%s), so the access has no one stride between work-items; index the global array affinely in %s", l0, idx, l0)
		}
		c := idx.CoeffOf(l0)
		if c.IsConst() && c.Const == 0 {
			continue
		}
		// The flattened index weights dimension d by the product of the
		// extents of the faster-varying dimensions.
		w := polyOf(c)
		for e := range a.Shape {
			if (!a.ColMajor && e > d) || (a.ColMajor && e < d) {
				var err error
				if w, err = w.mul(polyOf(a.Shape[e])); err != nil {
					return 0, nil, err
				}
			}
		}
		var err error
		if total, err = total.add(w); err != nil {
			return 0, nil, err
		}
	}
	c, ok := total.constant()
	if !ok || c == math.MinInt64 {
		return strideVar, total, nil
	}
	return int64(absU(c)), total, nil
}

// String renders the polynomial as an Affine, its monomials in sorted
// order and the constant last.
func (p poly) String() string {
	a := Affine{Const: p[""]}
	for _, m := range slices.Sorted(maps.Keys(p)) {
		if m != "" {
			a.Terms = append(a.Terms, Term{m, p[m]})
		}
	}
	return a.String()
}

// above4 is the condition under which a stride coefficient that depends
// on the parameters is in class >4: "ny > 4" for ny or -ny, "|c| > 4"
// for a coefficient c of several terms.
func (p poly) above4() string {
	if len(p) == 1 {
		for m, c := range p {
			return poly{m: int64(absU(c))}.String() + " > 4"
		}
	}
	return "|" + p.String() + "| > 4"
}

// eval evaluates the polynomial with checked arithmetic.
func (p poly) eval(params map[string]int64) (int64, error) {
	s := int64(0)
	for m, c := range p {
		v := c
		if m != "" {
			for _, f := range strings.Split(m, "*") {
				var err error
				if v, err = mulInt(v, params[f]); err != nil {
					return 0, err
				}
			}
		}
		var err error
		if s, err = addInt(s, v); err != nil {
			return 0, err
		}
	}
	return s, nil
}
